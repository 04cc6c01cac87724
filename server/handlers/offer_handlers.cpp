#include "handlers/offer_handlers.h"

#include "games/game_json.h"
#include "http/api_error_response.h"
#include "http/bearer.h"
#include "http/json_response.h"

namespace outpost::server {

void handleOfferAction(ServerContext& context, OfferAction action, const std::string& gameId,
                       const Request& request, const ClientInfo& client,
                       const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    if (auto error = rejectUnknownFields(std::get<nlohmann::json>(body), {}, "the request"))
        return sink->respond(errorFor(request, *error));
    OfferService(context).act(
        action, gameId, bearerToken(request), client,
        [sink, &clock = context.clock, version = request.version(),
         keepAlive = request.keep_alive()](const OfferOutcome& outcome) {
            if (auto* error = std::get_if<ApiError>(&outcome)) {
                return sink->respond(errorResponse(toHttpStatus(error->status), error->code,
                                                   error->message, version, keepAlive,
                                                   error->retryAfterSeconds));
            }
            const OfferReply& reply = std::get<OfferReply>(outcome);
            nlohmann::json json = gameJson(reply.game, clock.nowMs());
            for (auto& [key, value] : reply.extra.items()) json[key] = value;
            sink->respond(jsonResponse(http::status::ok, json, version, keepAlive));
        });
}

}  // namespace outpost::server
