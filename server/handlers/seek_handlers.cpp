#include "handlers/seek_handlers.h"

#include <atomic>

#include "games/game_clock.h"
#include "games/game_json.h"
#include "handlers/ordered_stream.h"
#include "http/api_error_response.h"
#include "http/bearer.h"
#include "http/json_response.h"
#include "lobby/seek_service.h"

namespace outpost::server {

namespace {

// The last line of a seek's stream once it is no longer open.
nlohmann::json closedEvent(const Seek& seek, const std::string& token) {
    if (seek.state == "accepted") {
        return {{"type", "seekAccepted"},        {"seekId", seek.id},
                {"status", "accepted"},          {"gameId", seek.gameId},
                {"playerSide", seek.seekerSide}, {"playerToken", token}};
    }
    return {{"type", "seekClosed"}, {"seekId", seek.id}, {"status", seek.state}};
}

void streamSeek(ServerContext& context, const std::string& seekId, const Request& request,
                const ClientInfo& client, const std::shared_ptr<ResponseSink>& sink) {
    const std::optional<std::string> token = bearerToken(request);
    SeekService service(context);
    // Authorized first (no subscription for a stranger), then subscribed, then read again: an
    // acceptance between the two reads comes on the bus, one before the first is in the read.
    if (auto first = service.getOwned(seekId, token); std::holds_alternative<ApiError>(first))
        return sink->respond(errorFor(request, std::get<ApiError>(first)));
    auto lease = context.quotas.tryAcquire(Quota::Streams, client.address);
    if (!lease) {
        context.metrics.quotaRefused(quotaName(Quota::Streams));
        return sink->respond(
            errorFor(request, http::status::too_many_requests, quotaErrorCode(Quota::Streams),
                     "this client holds " + std::to_string(context.config.perClientStreams) +
                         " open streams already (see docs/security.md)",
                     context.config.retryAfterSeconds));
    }
    auto stream = std::make_shared<OrderedStream>(sink);
    std::weak_ptr<OrderedStream> weak = stream;
    // The stream's last line goes once, whoever sees the end first (the bus, the keeper, the
    // read below).
    auto finished = std::make_shared<std::atomic<bool>>(false);
    auto finish = [weak, finished](const std::string& line) {
        if (finished->exchange(true)) return;
        if (auto live = weak.lock()) {
            live->line(line, kNoCoalescing);
            live->end();
        }
    };
    const std::string seekToken = *token;
    const auto subscription =
        context.bus->subscribe(seekChannel(seekId), [finish, seekToken](const GameEvent& event) {
            nlohmann::json json = nlohmann::json::parse(event.payload, nullptr, false);
            if (!json.is_object()) return;
            if (json.value("type", "") == "seekAccepted") json["playerToken"] = seekToken;
            finish(json.dump());
        });
    std::variant<Seek, ApiError> loaded;
    try {
        loaded = service.getOwned(seekId, token);
    } catch (...) {
        context.bus->unsubscribe(subscription);
        throw;
    }
    if (auto* error = std::get_if<ApiError>(&loaded)) {
        context.bus->unsubscribe(subscription);
        return sink->respond(errorFor(request, *error));
    }
    const Seek& seek = std::get<Seek>(loaded);
    const SeekTiming timing = service.timing();
    const std::int64_t now = context.clock.nowMs();
    auto keep = context.seekKeeper.hold(seekId, [finish, seekToken](const Seek& closed) {
        finish(closedEvent(closed, seekToken).dump());
    });
    std::shared_ptr<GameEventBus> bus = context.bus;
    sink->onEnd([bus, subscription, stream, lease = std::move(lease), keep] {
        bus->unsubscribe(subscription);
    });
    Response header{http::status::ok, request.version()};
    header.set(http::field::content_type, "application/x-ndjson");
    nlohmann::json first = ownerSeekJson(seek, now, timing, seekToken);
    first["type"] = "seek";
    stream->line(first.dump(), kNoCoalescing);
    const std::string status = seekStatus(seek, now, timing);
    if (status != "open") {
        Seek closed = seek;
        closed.state = status;
        finish(closedEvent(closed, seekToken).dump());
    }
    stream->start(std::move(header));
}

}  // namespace

void handleCreateSeek(ServerContext& context, const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    SeekService service(context);
    auto created = service.create(std::get<nlohmann::json>(body), client);
    if (auto* error = std::get_if<ApiError>(&created))
        return sink->respond(errorFor(request, *error));
    const SeekCreated& result = std::get<SeekCreated>(created);
    nlohmann::json json =
        ownerSeekJson(result.seek, result.seek.createdAtMs, service.timing(), result.token);
    json["seekToken"] = result.token;
    Response response = jsonFor(request, http::status::created, json);
    response.set(http::field::location, "/api/v1/seeks/" + result.seek.id);
    sink->respond(std::move(response));
}

void handleListSeeks(ServerContext& context, const Request& request,
                     const std::shared_ptr<ResponseSink>& sink) {
    auto listed = SeekService(context).list();
    if (auto* error = std::get_if<ApiError>(&listed))
        return sink->respond(errorFor(request, *error));
    const std::int64_t now = context.clock.nowMs();
    nlohmann::json seeks = nlohmann::json::array();
    for (const Seek& seek : std::get<std::vector<Seek>>(listed))
        seeks.push_back(publicSeekJson(seek, now));
    sink->respond(jsonFor(request, http::status::ok, {{"seeks", seeks}}));
}

void handleSeekAction(ServerContext& context, SeekAction action, const std::string& seekId,
                      const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink) {
    SeekService service(context);
    const std::optional<std::string> token = bearerToken(request);
    switch (action) {
        case SeekAction::Get:
        case SeekAction::Cancel: {
            auto result = action == SeekAction::Get ? service.getOwned(seekId, token)
                                                    : service.cancel(seekId, token);
            if (auto* error = std::get_if<ApiError>(&result))
                return sink->respond(errorFor(request, *error));
            return sink->respond(
                jsonFor(request, http::status::ok,
                        ownerSeekJson(std::get<Seek>(result), context.clock.nowMs(),
                                      service.timing(), *token)));
        }
        case SeekAction::Accept: {
            auto body = parseJsonObject(request.body());
            if (auto* error = std::get_if<ApiError>(&body))
                return sink->respond(errorFor(request, *error));
            if (auto error = rejectUnknownFields(std::get<nlohmann::json>(body), {}, "the request"))
                return sink->respond(errorFor(request, *error));
            auto result = service.accept(seekId, token, client);
            if (auto* error = std::get_if<ApiError>(&result))
                return sink->respond(errorFor(request, *error));
            const SeekAccepted& accepted = std::get<SeekAccepted>(result);
            nlohmann::json json = gameJson(accepted.game, context.clock.nowMs());
            json["playerToken"] = accepted.playerToken;
            json["playerSide"] = accepted.playerSide;
            json["seekId"] = seekId;
            Response response = jsonFor(request, http::status::created, json);
            response.set(http::field::location, "/api/v1/games/" + accepted.game.id);
            return sink->respond(std::move(response));
        }
        case SeekAction::Stream:
            return streamSeek(context, seekId, request, client, sink);
    }
}

}  // namespace outpost::server
