#include "games/rematch.h"

#include "errors/error_codes.h"
#include "games/finisher.h"
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
        return conflict(errors::game_not_over, "a rematch is offered once the game is over");
    }
    if (!game.rematchGameId.empty()) {
        if (yes) return RematchStep::Made;
        return conflict(errors::no_rematch_offer, "the rematch has been made already");
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
        return conflict(errors::no_rematch_offer, "no rematch is offered");
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
    RematchStep step = RematchStep::Unchanged;
    GameRecord created;
    // The old game names the new one first (compare-and-set: of two acceptors one makes it),
    // then the new game is stored; should that fail, the old game forgets it again.
    auto updated = games.update(
        id, token, GameService::TokenUse::Play,
        [&](GameRecord& game) -> std::optional<ApiError> {
            const bool white = tokenMatches(*token, game.whiteTokenHash);
            const std::int64_t now = context_.clock.nowMs();
            auto answered = applyRematchAnswer(game, white, yes, now);
            if (auto* error = std::get_if<ApiError>(&answered)) return *error;
            step = std::get<RematchStep>(answered);
            if (step == RematchStep::Accept) {
                created = rematchNewGame(game, now);
                game.rematchOffer.clear();
                game.rematchGameId = created.id;
                markChanged(game, now);
            }
            return std::nullopt;
        },
        kRematchAttempts);
    if (auto* error = std::get_if<ApiError>(&updated)) {
        if (error->code != errors::version_conflict) return *error;
        return conflict(errors::version_conflict, "the game changed meanwhile; retry");
    }
    GameRecord game = std::move(std::get<GameRecord>(updated));
    if (step == RematchStep::Made) {
        auto made = games.load(game.rematchGameId);
        if (auto* error = std::get_if<ApiError>(&made)) return *error;
        return RematchReply{std::move(game), std::get<GameRecord>(made)};
    }
    if (step != RematchStep::Accept) return RematchReply{std::move(game), std::nullopt};
    if (auto refused = games.createPrepared(created, client)) {
        games.update(id, token, GameService::TokenUse::Play,
                     [&](GameRecord& named) -> std::optional<ApiError> {
                         if (named.rematchGameId != created.id) return std::nullopt;
                         named.rematchGameId.clear();
                         markChanged(named, context_.clock.nowMs());
                         return std::nullopt;
                     });
        return *refused;
    }
    return RematchReply{std::move(game), std::move(created)};
}

}  // namespace outpost::server
