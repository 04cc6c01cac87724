#include "games/rematch.h"

#include "errors/error_codes.h"
#include "games/game_clock.h"
#include "games/game_service.h"
#include "ops/tokens.h"
#include "store/game_turn.h"

namespace outpost::server {

namespace {

std::string swappedSide(const std::string& side) {
    if (side == "white") return "black";
    if (side == "black") return "white";
    return side;
}

// Attempts of one answer before it gives up on races (a chat line never races: it is apart).
constexpr int kRematchAttempts = 4;

}  // namespace

std::variant<RematchStep, ApiError> applyRematchAnswer(GameRecord& game, bool white, bool yes,
                                                       std::int64_t nowMs) {
    if (game.status == "ongoing") {
        return ApiError{ErrorStatus::conflict, errors::game_not_over,
                        "a rematch is offered once the game is over"};
    }
    if (!game.rematchGameId.empty()) {
        if (yes) return RematchStep::Made;
        return ApiError{ErrorStatus::conflict, errors::no_rematch_offer,
                        "the rematch has been made already"};
    }
    const std::string side = sideName(white);
    const bool againstEngine = game.engine.side != "none";
    if (yes) {
        if (againstEngine || (!game.rematchOffer.empty() && game.rematchOffer != side))
            return RematchStep::Accept;
        if (game.rematchOffer == side) return RematchStep::Unchanged;
        game.rematchOffer = side;
        game.version += 1;
        game.updatedAtMs = nowMs;
        return RematchStep::Offered;
    }
    if (game.rematchOffer.empty()) {
        return ApiError{ErrorStatus::conflict, errors::no_rematch_offer, "no rematch is offered"};
    }
    const bool withdrawn = game.rematchOffer == side;
    game.rematchOffer.clear();
    game.version += 1;
    game.updatedAtMs = nowMs;
    return withdrawn ? RematchStep::Withdrawn : RematchStep::Declined;
}

GameRecord rematchNewGame(const GameRecord& old, std::int64_t nowMs) {
    GameRecord game;
    game.id = newGameId();
    game.whiteTokenHash = old.blackTokenHash;
    game.blackTokenHash = old.whiteTokenHash;
    game.initialFen = old.initialFen;
    game.engine = old.engine;
    game.engine.side = swappedSide(old.engine.side);
    if (old.clock) {
        const ClockState& clock = *old.clock;
        game.clock = ClockState{
            clock.initialMs, clock.incrementMs, clock.initialMs, clock.initialMs, 0, false};
    }
    game.version = 1;
    game.createdAtMs = game.updatedAtMs = nowMs;
    return game;
}

RematchOutcome RematchService::answer(const std::string& id,
                                      const std::optional<std::string>& token, bool yes,
                                      const ClientInfo& client) {
    GameService games(context_);
    for (int attempt = 0; attempt < kRematchAttempts; ++attempt) {
        auto loaded = games.loadForPlayer(id, token);
        if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
        GameRecord game = std::get<GameRecord>(loaded);
        const bool white = tokenMatches(*token, game.whiteTokenHash);
        const std::uint64_t before = game.version;
        const std::int64_t now = nowEpochMs();
        auto step = applyRematchAnswer(game, white, yes, now);
        if (auto* error = std::get_if<ApiError>(&step)) return *error;
        switch (std::get<RematchStep>(step)) {
            case RematchStep::Unchanged:
                return RematchReply{std::move(game), std::nullopt};
            case RematchStep::Made: {
                auto created = games.load(game.rematchGameId);
                if (auto* error = std::get_if<ApiError>(&created)) return *error;
                return RematchReply{std::move(game), std::get<GameRecord>(created)};
            }
            case RematchStep::Offered:
            case RematchStep::Withdrawn:
            case RematchStep::Declined: {
                auto error = games.save(game, before);
                if (error && error->code == errors::version_conflict) continue;
                if (error) return *error;
                return RematchReply{std::move(game), std::nullopt};
            }
            case RematchStep::Accept:
                break;
        }
        // The old game names the new one first (compare-and-set: of two acceptors one makes
        // it), then the new game is stored; should that fail, the old game forgets it again.
        GameRecord created = rematchNewGame(game, now);
        game.rematchOffer.clear();
        game.rematchGameId = created.id;
        game.version += 1;
        game.updatedAtMs = now;
        auto error = games.save(game, before);
        if (error && error->code == errors::version_conflict) continue;
        if (error) return *error;
        if (auto refused = games.createPrepared(created, client)) {
            GameRecord undone = game;
            undone.rematchGameId.clear();
            undone.version += 1;
            games.save(undone, game.version);
            return *refused;
        }
        return RematchReply{std::move(game), std::move(created)};
    }
    return ApiError{ErrorStatus::conflict, errors::version_conflict,
                    "the game changed meanwhile; retry"};
}

}  // namespace outpost::server
