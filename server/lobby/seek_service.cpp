#include "lobby/seek_service.h"

#include <random>

#include "errors/error_codes.h"
#include "games/game_clock.h"
#include "games/game_service.h"
#include "ops/tokens.h"

namespace outpost::server {

namespace {

constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// Compare-and-set attempts of one request before it gives up (a heartbeat may win a race).
constexpr int kSeekWriteAttempts = 4;

ApiError seekNotFound(const std::string& id) {
    return {ErrorStatus::not_found, errors::not_found, "no seek " + quotedInput(id)};
}

ApiError seekStoreError(StoreStatus status, const std::string& id) {
    switch (status) {
        case StoreStatus::NotFound:
            return seekNotFound(id);
        case StoreStatus::Unavailable:
            return {ErrorStatus::service_unavailable, errors::store_unavailable,
                    "the game store is unavailable", 1};
        default:
            return {ErrorStatus::internal_server_error, errors::internal,
                    std::string("store: ") + toString(status)};
    }
}

ApiError seekTaken() {
    return conflict(errors::seek_taken, "the seek was accepted by someone else");
}

ApiError seekClosed(const std::string& status) {
    return conflict(errors::seek_closed, "the seek is " + status);
}

}  // namespace

std::string seekChannel(const std::string& seekId) {
    return "seek:" + seekId;
}

GameRecord peopleGame(const std::optional<SeekClock>& clock, std::string whiteTokenHash,
                      std::string blackTokenHash, std::int64_t nowMs) {
    GameRecord game;
    game.id = newGameId();
    game.whiteTokenHash = std::move(whiteTokenHash);
    game.blackTokenHash = std::move(blackTokenHash);
    game.initialFen = kStartFen;
    if (clock) {
        game.clock = ClockState{
            clock->initialMs, clock->incrementMs, clock->initialMs, clock->initialMs, 0, false};
    }
    game.version = 1;
    game.createdAtMs = game.updatedAtMs = nowMs;
    return game;
}

SeekTiming SeekService::timing() const {
    return context_.seekKeeper.timing();
}

std::variant<Seek, ApiError> SeekService::read(const std::string& id) {
    const SeekReadResult read = context_.store->getSeek(id);
    if (read.status != StoreStatus::Ok) return seekStoreError(read.status, id);
    std::optional<Seek> seek = fromSeekDoc(*read.seek);
    if (!seek) {
        return ApiError{ErrorStatus::internal_server_error, errors::internal,
                        "the stored seek '" + id + "' is damaged"};
    }
    return *seek;
}

std::variant<SeekCreated, ApiError> SeekService::create(const nlohmann::json& body,
                                                        const ClientInfo& client) {
    auto parsed = parseSeekRequest(body);
    if (auto* error = std::get_if<ApiError>(&parsed)) return *error;
    Seek seek = std::get<Seek>(parsed);
    seek.clientKey = tokenHash(client.address);
    SeekCreated created;
    created.token = newPlayerToken();
    seek.id = newGameId();
    seek.tokenHash = tokenHash(created.token);
    seek.createdAtMs = seek.seenAtMs = context_.clock.nowMs();
    // The store counts the client's open seeks over the whole lobby (every replica's, however
    // many seeks it holds) and makes this one in the same atomic step: racing requests never
    // make more than the bound.
    const StoreStatus status = context_.store->createSeek(
        toSeekDoc(seek, timing()), SeekQuota{kMaxOpenSeeksPerClient, seek.createdAtMs});
    if (status == StoreStatus::LimitReached) {
        return ApiError{ErrorStatus::too_many_requests, errors::too_many_seeks,
                        "this client holds " + std::to_string(kMaxOpenSeeksPerClient) +
                            " open seeks already; cancel one first (see docs/play.md)",
                        context_.config.retryAfterSeconds};
    }
    if (status != StoreStatus::Ok) return seekStoreError(status, seek.id);
    context_.logger.log({{"event", "seek_created"}, {"seek", seek.id}, {"client", client.address}});
    created.seek = std::move(seek);
    return created;
}

std::variant<std::vector<Seek>, ApiError> SeekService::list() {
    const std::int64_t now = context_.clock.nowMs();
    const SeekListResult listed = context_.store->openSeeks(now, kMaxListedSeeks);
    if (listed.status != StoreStatus::Ok) return seekStoreError(listed.status, "");
    std::vector<Seek> seeks;
    for (const SeekDoc& doc : listed.seeks) {
        std::optional<Seek> seek = fromSeekDoc(doc);
        if (!seek) continue;  // a damaged one is left out
        if (seekStatus(*seek, now, timing()) == "open") {
            seeks.push_back(std::move(*seek));
            continue;
        }
        // Its seeker is gone: out of the index (a lost race changes nothing; whoever won wrote
        // a newer state).
        Seek expired = *seek;
        expired.state = "expired";
        expired.closedAtMs = now;
        expired.version += 1;
        context_.store->updateSeek(toSeekDoc(expired, timing()), seek->version);
    }
    return seeks;
}

std::variant<Seek, ApiError> SeekService::getOwned(const std::string& id,
                                                   const std::optional<std::string>& token) {
    if (!token || token->empty()) {
        return ApiError{ErrorStatus::unauthorized, errors::unauthorized,
                        "a seek is read with its seek token (Authorization: Bearer <seekToken>)"};
    }
    auto loaded = read(id);
    if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
    if (!tokenMatches(*token, std::get<Seek>(loaded).tokenHash))
        return ApiError{ErrorStatus::forbidden, errors::forbidden,
                        "wrong seek token for this seek"};
    return loaded;
}

std::variant<Seek, ApiError> SeekService::cancel(const std::string& id,
                                                 const std::optional<std::string>& token) {
    for (int attempt = 0; attempt < kSeekWriteAttempts; ++attempt) {
        auto loaded = getOwned(id, token);
        if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
        const Seek& seek = std::get<Seek>(loaded);
        const std::int64_t now = context_.clock.nowMs();
        const std::string status = seekStatus(seek, now, timing());
        if (status == "accepted") return seekTaken();
        if (seek.state != "open") return seek;  // cancelled or expired already
        Seek cancelled = seek;
        cancelled.state = "cancelled";
        cancelled.closedAtMs = now;
        cancelled.version += 1;
        const StoreStatus written =
            context_.store->updateSeek(toSeekDoc(cancelled, timing()), seek.version);
        if (written == StoreStatus::VersionConflict) continue;
        if (written != StoreStatus::Ok) return seekStoreError(written, id);
        const nlohmann::json event = {
            {"type", "seekClosed"}, {"seekId", id}, {"status", "cancelled"}};
        context_.bus->publish(
            GameEvent{GameEvent::Kind::Presence, seekChannel(id), cancelled.version, event.dump()});
        return cancelled;
    }
    return conflict(errors::version_conflict, "the seek changed meanwhile; retry");
}

std::variant<SeekAccepted, ApiError> SeekService::accept(const std::string& id,
                                                         const std::optional<std::string>& token,
                                                         const ClientInfo& client) {
    for (int attempt = 0; attempt < kSeekWriteAttempts; ++attempt) {
        auto loaded = read(id);
        if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
        const Seek& seek = std::get<Seek>(loaded);
        const std::int64_t now = context_.clock.nowMs();
        const std::string status = seekStatus(seek, now, timing());
        if (status == "accepted") return seekTaken();
        if (status != "open") return seekClosed(status);
        if (token && tokenMatches(*token, seek.tokenHash)) {
            return conflict(errors::own_seek, "this is your own seek");
        }
        Seek accepted = seek;
        accepted.state = "accepted";
        accepted.closedAtMs = now;
        accepted.seekerSide = seekerSide(seek, (std::random_device{}() & 1U) != 0);
        SeekAccepted result;
        result.playerToken = newPlayerToken();
        const bool seekerWhite = accepted.seekerSide == "white";
        result.playerSide = seekerWhite ? "black" : "white";
        const std::string acceptorHash = tokenHash(result.playerToken);
        result.game = peopleGame(seek.clock, seekerWhite ? seek.tokenHash : acceptorHash,
                                 seekerWhite ? acceptorHash : seek.tokenHash, now);
        accepted.gameId = result.game.id;
        accepted.version += 1;
        // The race: of the acceptors that read this version, one writes it.
        const StoreStatus written =
            context_.store->updateSeek(toSeekDoc(accepted, timing()), seek.version);
        if (written == StoreStatus::VersionConflict) continue;  // read again: taken, or a beat
        if (written != StoreStatus::Ok) return seekStoreError(written, id);
        if (auto error = GameService(context_).createPrepared(result.game, client)) {
            // The game could not be stored: the seek opens again for another try.
            Seek reopened = seek;
            reopened.version = accepted.version + 1;
            context_.store->updateSeek(toSeekDoc(reopened, timing()), accepted.version);
            return *error;
        }
        context_.logger.log({{"event", "seek_accepted"},
                             {"seek", id},
                             {"game", result.game.id},
                             {"client", client.address}});
        const nlohmann::json event = {{"type", "seekAccepted"},
                                      {"seekId", id},
                                      {"status", "accepted"},
                                      {"gameId", accepted.gameId},
                                      {"playerSide", accepted.seekerSide}};
        context_.bus->publish(
            GameEvent{GameEvent::Kind::Presence, seekChannel(id), accepted.version, event.dump()});
        result.seek = std::move(accepted);
        return result;
    }
    return conflict(errors::version_conflict, "the seek changed meanwhile; retry");
}

}  // namespace outpost::server
