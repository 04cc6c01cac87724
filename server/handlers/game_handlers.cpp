#include "handlers/game_handlers.h"

#include "analysis/analysis.h"
#include "errors/error_codes.h"
#include "games/game_feed.h"
#include "games/game_json.h"
#include "games/game_service.h"
#include "games/idempotent_create.h"
#include "games/move_request.h"
#include "games/open_feed.h"
#include "games/pgn_writer.h"
#include "handlers/ordered_stream.h"
#include "http/api_error_response.h"
#include "http/bearer.h"
#include "http/json_response.h"
#include "http/query_string.h"
#include "review/review_pgn.h"
#include "review/review_service.h"

namespace outpost::server {

namespace {

constexpr std::string_view kIdempotencyKey = "Idempotency-Key";
constexpr std::string_view kIdempotentReplayed = "Idempotent-Replayed";

// The request's Idempotency-Key (games/idempotent_create.h): none, the key, or 400 when it is
// malformed or sent twice.
std::variant<std::optional<std::string>, ApiError> idempotencyKey(const Request& request) {
    const auto count = request.count(kIdempotencyKey);
    if (count == 0) return std::optional<std::string>();
    if (count > 1) return badRequest("the Idempotency-Key header is given twice; send it once");
    const auto value = request[kIdempotencyKey];
    const std::string key(value.data(), value.size());
    if (auto error = checkIdempotencyKey(key)) return *error;
    return std::optional<std::string>(key);
}

// "?review=1" (or true) on the PGN export asks for the annotated PGN; 0 or false (or no
// parameter) for the plain one. Any other value, or the parameter twice, is refused.
std::variant<bool, ApiError> wantsReview(const Request& request) {
    const std::string_view target(request.target().data(), request.target().size());
    const std::optional<QueryParameters> parameters = queryParameters(target);
    if (!parameters) return badRequest("malformed percent-encoding in the query");
    std::optional<bool> wanted;
    for (const auto& [name, value] : *parameters) {
        if (name != "review") continue;  // the router refused any other name
        if (wanted) return badRequest("query parameter 'review' given twice");
        if (value == "1" || value == "true") {
            wanted = true;
        } else if (value == "0" || value == "false") {
            wanted = false;
        } else {
            return badRequest("'review' must be 1, true, 0 or false, not " + quotedInput(value));
        }
    }
    return wanted.value_or(false);
}

nlohmann::json replyJson(const GameReply& reply, std::int64_t nowMs) {
    nlohmann::json json = gameJson(reply.game, nowMs);
    if (!reply.engineMove.is_null()) json["engineMove"] = reply.engineMove;
    if (reply.enginePending) json["enginePending"] = true;
    return json;
}

GameDone respondWith(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                     const ClusterClock& clock) {
    return [sink, &clock, version = request.version(),
            keepAlive = request.keep_alive()](const GameOutcome& outcome) {
        if (auto* error = std::get_if<ApiError>(&outcome)) {
            return sink->respond(errorResponse(toHttpStatus(error->status), error->code,
                                               error->message, version, keepAlive,
                                               error->retryAfterSeconds));
        }
        const GameReply& reply = std::get<GameReply>(outcome);
        // 202: the move is stored, the engine's reply follows on the game's stream.
        sink->respond(jsonResponse(reply.enginePending ? http::status::accepted : http::status::ok,
                                   replyJson(reply, clock.nowMs()), version, keepAlive));
    };
}

void respondGame(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                 std::variant<GameRecord, ApiError> result, const ClusterClock& clock) {
    if (auto* error = std::get_if<ApiError>(&result))
        return sink->respond(errorFor(request, *error));
    sink->respond(
        jsonFor(request, http::status::ok, gameJson(std::get<GameRecord>(result), clock.nowMs())));
}

Response quotaRefused(ServerContext& context, const Request& request, Quota quota,
                      const std::string& what) {
    context.metrics.quotaRefused(quotaName(quota));
    return errorFor(request, http::status::too_many_requests, quotaErrorCode(quota),
                    "this client holds " + what + " already (see docs/security.md)",
                    context.config.retryAfterSeconds);
}

void streamGame(ServerContext& context, const std::string& gameId, const Request& request,
                const ClientInfo& client, const std::shared_ptr<ResponseSink>& sink) {
    auto lease = context.quotas.tryAcquire(Quota::Streams, client.address);
    if (!lease) {
        return sink->respond(
            quotaRefused(context, request, Quota::Streams,
                         std::to_string(context.config.perClientStreams) + " open game streams"));
    }
    auto stream = std::make_shared<OrderedStream>(sink);
    // The bus holds the stream only weakly: the exchange owns it (below), so a subscription can
    // never keep the session (and its strand) alive. The stream ends after the state that ends
    // the game.
    std::weak_ptr<OrderedStream> weakStream = stream;
    auto opened = openGameFeed(
        context, gameId, bearerToken(request),
        [weakStream](std::string message, CoalesceKey coalesceKey) {
            if (auto live = weakStream.lock()) live->line(std::move(message), coalesceKey);
        },
        [weakStream] {
            if (auto live = weakStream.lock()) live->end();
        });
    if (auto* error = std::get_if<ApiError>(&opened))
        return sink->respond(errorFor(request, *error));
    auto& [feed, subscription, game, presence] = std::get<OpenedFeed>(opened);
    // The exchange keeps the stream until it ends, however it ends (client gone, stream ended
    // at shutdown); then the subscription goes too, and the stream's presence (a player's side,
    // or a spectator).
    std::shared_ptr<GameEventBus> bus = context.bus;
    sink->onEnd([bus, id = subscription, stream, lease = std::move(lease),
                 presence = std::move(presence)] { bus->unsubscribe(id); });
    Response header{http::status::ok, request.version()};
    header.set(http::field::content_type, "application/x-ndjson");
    feed->start(gameFullMessage(game, context.clock.nowMs()).dump(), game.version, endsGame(game));
    stream->start(std::move(header));
}

}  // namespace

void handleCreateGame(ServerContext& context, const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    auto key = idempotencyKey(request);
    if (auto* error = std::get_if<ApiError>(&key)) return sink->respond(errorFor(request, *error));
    GameService service(context);
    // The quota counts games stored, not requests: a replayed game is not counted again.
    const StoreNewGame storeNew = [&](NewGame game, const GameIdentity& identity,
                                      StoreStatus* stored) -> std::variant<CreatedGame, ApiError> {
        if (auto retryAfter = context.quotas.tryCreateGame(client.address)) {
            context.metrics.quotaRefused("games");
            return ApiError{ErrorStatus::too_many_requests, errors::too_many_games,
                            "this client created " +
                                std::to_string(context.config.perClientGamesPerMinute) +
                                " games in the last minute (see docs/security.md)",
                            *retryAfter};
        }
        auto created = service.storeNew(std::move(game), identity, client, stored);
        // No game was made: it does not count.
        if (std::holds_alternative<ApiError>(created)) context.quotas.returnGame(client.address);
        return created;
    };
    IdempotentCreated result;
    if (const auto& named = std::get<std::optional<std::string>>(key)) {
        auto created =
            createOnce(context, std::get<nlohmann::json>(body), *named, client, storeNew);
        if (auto* error = std::get_if<ApiError>(&created))
            return sink->respond(errorFor(request, *error));
        result = std::move(std::get<IdempotentCreated>(created));
    } else {
        auto prepared = service.prepare(std::get<nlohmann::json>(body));
        if (auto* error = std::get_if<ApiError>(&prepared))
            return sink->respond(errorFor(request, *error));
        auto created =
            storeNew(std::move(std::get<NewGame>(prepared)), GameIdentity::fresh(), nullptr);
        if (auto* error = std::get_if<ApiError>(&created))
            return sink->respond(errorFor(request, *error));
        result.created = std::move(std::get<CreatedGame>(created));
    }
    const CreatedGame& created = result.created;
    const GameRecord& game = created.game;
    nlohmann::json json = gameJson(game, context.clock.nowMs());
    json["playerToken"] = created.playerToken;
    json["playerSide"] = created.playerSide;
    if (!created.inviteToken.empty()) {
        // For the other player (an invite link carries it): it moves the other colour.
        json["inviteToken"] = created.inviteToken;
        json["inviteSide"] = created.playerSide == "white" ? "black" : "white";
    }
    Response response = jsonFor(request, http::status::created, json);
    response.set(http::field::location, "/api/v1/games/" + game.id);
    if (result.replayed) response.set(kIdempotentReplayed, "true");
    sink->respond(std::move(response));
}

void handleGameAction(ServerContext& context, GameAction action, const std::string& gameId,
                      const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink) {
    GameService service(context);
    switch (action) {
        case GameAction::Get: {
            auto loaded = service.loadReadBy(gameId, bearerToken(request));
            if (auto* error = std::get_if<ApiError>(&loaded))
                return sink->respond(errorFor(request, *error));
            const GameRecord& game = std::get<GameRecord>(loaded);
            nlohmann::json json = gameJson(game, context.clock.nowMs());
            // Whether the game keeps a review: a client shows it without asking blindly.
            if (auto review = ReviewService(context).summaryForGame(game)) json["review"] = *review;
            return sink->respond(jsonFor(request, http::status::ok, json));
        }
        case GameAction::Pgn: {
            const auto review = wantsReview(request);
            if (auto* error = std::get_if<ApiError>(&review))
                return sink->respond(errorFor(request, *error));
            auto loaded = service.load(gameId);
            if (auto* error = std::get_if<ApiError>(&loaded))
                return sink->respond(errorFor(request, *error));
            Response response{http::status::ok, request.version()};
            response.set(http::field::content_type, "application/x-chess-pgn");
            response.keep_alive(request.keep_alive());
            const GameRecord& game = std::get<GameRecord>(loaded);
            std::vector<PgnAnnotation> annotations;
            if (std::get<bool>(review)) {
                // The game's kept review, when there is one; a PGN without it otherwise.
                if (auto kept = ReviewService(context).keptForGame(game)) {
                    annotations = review::pgnAnnotations(game, *kept);
                }
            }
            response.body() = gamePgn(game, annotations);
            response.prepare_payload();
            return sink->respond(std::move(response));
        }
        case GameAction::Stream:
            return streamGame(context, gameId, request, client, sink);
        default:
            break;
    }

    auto parsedBody = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&parsedBody))
        return sink->respond(errorFor(request, *error));
    const nlohmann::json& body = std::get<nlohmann::json>(parsedBody);
    const std::optional<std::string> token = bearerToken(request);

    switch (action) {
        case GameAction::Move: {
            auto parsed = parseMoveRequest(body, {});
            if (auto* error = std::get_if<ApiError>(&parsed))
                return sink->respond(errorFor(request, *error));
            const MoveRequest& move = std::get<MoveRequest>(parsed);
            return service.move(gameId, token, move.move, move.version, move.wait, client,
                                respondWith(request, sink, context.clock));
        }
        case GameAction::EngineMove: {
            if (auto error = rejectUnknownFields(body, {"limits"}, "the engine move")) {
                return sink->respond(errorFor(request, *error));
            }
            std::optional<LimitsSpec> limits;
            if (body.contains("limits")) {
                auto parsed = parseLimits(body.at("limits"));
                if (auto* error = std::get_if<ApiError>(&parsed))
                    return sink->respond(errorFor(request, *error));
                limits = std::get<LimitsSpec>(parsed);
            }
            if (context.draining.load()) {
                return sink->respond(
                    errorFor(request, admissionError(Admission::ShuttingDown, context.config)));
            }
            return service.engineMove(gameId, token, limits, client,
                                      respondWith(request, sink, context.clock));
        }
        case GameAction::Takeback:
            return respondGame(request, sink, service.takeback(gameId, token), context.clock);
        case GameAction::Resign:
            return respondGame(request, sink, service.resign(gameId, token), context.clock);
        default:
            break;
    }
}

}  // namespace outpost::server
