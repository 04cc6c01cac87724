#include "handlers/chat_rematch_handlers.h"

#include "games/chat.h"
#include "games/game_json.h"
#include "games/rematch.h"
#include "http/api_error_response.h"
#include "http/bearer.h"
#include "http/json_response.h"

namespace outpost::server {

void handlePostChat(ServerContext& context, const std::string& gameId, const Request& request,
                    const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    auto posted =
        ChatService(context).post(gameId, bearerToken(request), std::get<nlohmann::json>(body));
    if (auto* error = std::get_if<ApiError>(&posted))
        return sink->respond(errorFor(request, *error));
    sink->respond(jsonFor(request, http::status::created, std::get<nlohmann::json>(posted)));
}

void handleGetChat(ServerContext& context, const std::string& gameId, const Request& request,
                   const std::shared_ptr<ResponseSink>& sink) {
    auto lines = ChatService(context).lines(gameId);
    if (auto* error = std::get_if<ApiError>(&lines))
        return sink->respond(errorFor(request, *error));
    sink->respond(jsonFor(request, http::status::ok, std::get<nlohmann::json>(lines)));
}

void handleRematch(ServerContext& context, bool yes, const std::string& gameId,
                   const Request& request, const ClientInfo& client,
                   const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    if (auto error = rejectUnknownFields(std::get<nlohmann::json>(body), {}, "the request"))
        return sink->respond(errorFor(request, *error));
    auto outcome = RematchService(context).answer(gameId, bearerToken(request), yes, client);
    if (auto* error = std::get_if<ApiError>(&outcome))
        return sink->respond(errorFor(request, *error));
    const RematchReply& reply = std::get<RematchReply>(outcome);
    nlohmann::json json = gameJson(reply.game, context.clock.nowMs());
    if (reply.created) {
        // The answer that made the rematch (or finds it made) holds the new game; the caller's
        // token plays `playerSide` in it.
        nlohmann::json created = gameJson(*reply.created, context.clock.nowMs());
        json["rematch"] = {{"gameId", reply.created->id}, {"game", created}};
    }
    sink->respond(jsonFor(request, http::status::ok, json));
}

}  // namespace outpost::server
