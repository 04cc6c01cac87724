#include "games/offers.h"

#include <utility>

#include "analysis/analysis.h"
#include "analysis/search_record.h"
#include "errors/error_codes.h"
#include "games/finisher.h"
#include "games/game_clock.h"
#include "games/game_replay.h"
#include "games/game_service.h"
#include "games/presence.h"
#include "games/sides.h"
#include "games/undo.h"
#include "ops/tokens.h"
#include "store/clock_deadline.h"

namespace outpost::server {

namespace {

// A mate in the engine's evaluation, as centipawns: beyond any real score.
constexpr int kMateAsCp = 100'000;
ApiError gameOver(const GameRecord& game) {
    return conflict(errors::game_over, "the game is over (" + game.status + ")");
}

// How many plies undo `white`'s last move: one if it moved last, two if the other side has
// replied since; 0 when it has no move in the game.
std::size_t pliesToUndo(const GameRecord& game, bool white) {
    if (game.moves.empty()) return 0;
    const bool movedLast = whiteToPlay(game) != white;
    if (movedLast) return 1;
    return game.moves.size() >= 2 ? 2 : 0;
}

// An answer to an offer of `kind`: yes offers (or, to the other's offer, accepts); no declines
// the other's offer or withdraws one's own. `accept` applies the accepted offer.
template <typename Accept>
std::optional<ApiError> answer(GameRecord& game, std::string& offer, const char* kind, bool white,
                               bool yes, std::int64_t nowMs, Accept accept) {
    const std::string me = sideName(white);
    if (yes) {
        if (!offer.empty() && offer != me) return accept();
        if (offer == me) return std::nullopt;  // offered already: nothing changes
        offer = me;
        markChanged(game, nowMs);
        return std::nullopt;
    }
    if (offer.empty()) {
        return conflict(std::string("no_") + kind + "_offer",
                        std::string("there is no ") + kind + " offer to decline or withdraw");
    }
    offer.clear();
    markChanged(game, nowMs);
    return std::nullopt;
}

}  // namespace

bool engineAcceptsDraw(std::size_t plies, int engineCp) {
    return plies >= kEngineDrawMinPlies && engineCp <= kEngineDrawAcceptCp;
}

std::size_t pliesPlayed(const GameRecord& game) {
    // The FEN's move number tells nothing of this game: anyone may set up a position at move 90.
    return game.moves.size();
}

std::optional<ApiError> applyDrawAnswer(GameRecord& game, bool white, bool yes,
                                        std::int64_t nowMs) {
    if (game.status != "ongoing") return gameOver(game);
    return answer(game, game.drawOffer, "draw", white, yes, nowMs,
                  [&]() -> std::optional<ApiError> {
                      finish(game, drawAgreed(), nowMs);
                      return std::nullopt;
                  });
}

std::optional<ApiError> applyTakebackAnswer(GameRecord& game, bool white, bool yes,
                                            std::int64_t nowMs) {
    if (game.status != "ongoing") return gameOver(game);
    // Asking needs a move of one's own to take back.
    if (yes && game.takebackOffer.empty() && pliesToUndo(game, white) == 0) {
        return conflict(errors::nothing_to_take_back,
                        std::string(sideName(white)) + " has no move to take back");
    }
    return answer(game, game.takebackOffer, "takeback", white, yes, nowMs,
                  [&]() -> std::optional<ApiError> {
                      const bool offererWhite = game.takebackOffer == "white";
                      const std::size_t plies = pliesToUndo(game, offererWhite);
                      if (plies == 0) {
                          return conflict(errors::nothing_to_take_back,
                                          "the side that asked has no move to take back");
                      }
                      undoPlies(game, plies, nowMs);
                      return std::nullopt;
                  });
}

std::optional<ApiError> applyAbort(GameRecord& game, std::int64_t nowMs) {
    if (game.status != "ongoing") return gameOver(game);
    if (game.moves.size() >= 2) {
        return conflict(errors::too_late_to_abort,
                        "both sides have moved: resign, offer a draw, or claim if the other "
                        "side is gone");
    }
    finish(game, abortion(""), nowMs);
    return std::nullopt;
}

std::optional<ApiError> applyClaim(GameRecord& game, bool white, bool victory, std::int64_t nowMs) {
    if (game.status != "ongoing") return gameOver(game);
    if (game.engine.side != "none") {
        return conflict(errors::not_between_people, "the engine never leaves a game");
    }
    if (game.moves.size() < 2) {
        return conflict(errors::abort_instead,
                        "the game has not begun (both sides have not moved): abort it instead");
    }
    if (!game.presence) {
        return ApiError{ErrorStatus::service_unavailable, errors::store_unavailable,
                        "who is connected cannot be read now", 1};
    }
    const bool otherWhite = !white;
    const bool otherPresent = otherWhite ? game.presence->white : game.presence->black;
    if (otherPresent) {
        return conflict(errors::opponent_present,
                        std::string(sideName(otherWhite)) + " is connected to the game");
    }
    if (!claimable(*game.presence, otherWhite)) {
        const std::int64_t goneFor =
            otherWhite ? game.presence->whiteGoneForMs : game.presence->blackGoneForMs;
        const std::int64_t claimIn =
            otherWhite ? game.presence->whiteClaimInMs : game.presence->blackClaimInMs;
        // No recorded sign of life at all (its replica could not report it): not evidence that
        // the side is gone, so no claim.
        return conflict(
            errors::opponent_not_gone_long_enough,
            goneFor < 0
                ? std::string("no sign of life of ") + sideName(otherWhite) +
                      " is recorded: it cannot be claimed against"
                : std::string(sideName(otherWhite)) + " showed life " + std::to_string(goneFor) +
                      " ms ago; it may be claimed against in " + std::to_string(claimIn) + " ms");
    }
    finish(game, abandonment(white, victory), nowMs);
    return std::nullopt;
}

void OfferService::act(OfferAction action, const std::string& id,
                       const std::optional<std::string>& token, const ClientInfo& client,
                       OfferDone done) {
    GameService games(context_);
    // Against the engine a draw offer and a takeback are the engine's to answer (below).
    std::optional<GameRecord> toEngine;
    auto updated = games.update(
        id, token, GameService::TokenUse::Play, [&](GameRecord& game) -> std::optional<ApiError> {
            if (game.engine.side != "none") {
                switch (action) {
                    case OfferAction::DrawYes:
                        if (game.status != "ongoing") return gameOver(game);
                        toEngine = game;
                        return std::nullopt;
                    case OfferAction::TakebackYes:
                        toEngine = game;
                        return std::nullopt;
                    case OfferAction::DrawNo:
                    case OfferAction::TakebackNo:
                        if (game.status != "ongoing") return gameOver(game);
                        return conflict(action == OfferAction::DrawNo ? errors::no_draw_offer
                                                                      : errors::no_takeback_offer,
                                        "the engine offers nothing: there is nothing to decline");
                    default:
                        break;  // abort and claims: the same rules as between people
                }
            }
            // The asking side: the token's; against the engine the player's; a token of both
            // sides (an old game) asks for the side to move.
            const bool white = actsForWhite(game, *token);
            const std::int64_t now = context_.clock.nowMs();
            switch (action) {
                case OfferAction::DrawYes:
                case OfferAction::DrawNo:
                    return applyDrawAnswer(game, white, action == OfferAction::DrawYes, now);
                case OfferAction::TakebackYes:
                case OfferAction::TakebackNo:
                    return applyTakebackAnswer(game, white, action == OfferAction::TakebackYes,
                                               now);
                case OfferAction::Abort:
                    return applyAbort(game, now);
                case OfferAction::ClaimVictory:
                case OfferAction::ClaimDraw:
                    if (context_.presence.blindRecently()) {
                        // The store was out of reach a moment ago: the other side's entry may be
                        // old for that alone, not because it left (PresenceTracker).
                        return ApiError{
                            ErrorStatus::service_unavailable, errors::store_unavailable,
                            "who is connected could not be recorded a moment ago (the "
                            "store was out of reach); a claim waits until every replica "
                            "has reported again",
                            static_cast<int>(context_.presence.timing().heartbeatMs *
                                                 PresenceTracker::kBlindHeartbeats / 1000 +
                                             1)};
                    }
                    return applyClaim(game, white, action == OfferAction::ClaimVictory, now);
            }
            return std::nullopt;
        });
    if (auto* error = std::get_if<ApiError>(&updated)) return done(*error);
    if (toEngine && action == OfferAction::DrawYes)
        return offerDrawToEngine(*toEngine, token, client, std::move(done));
    if (toEngine) {
        // The engine consents: the takeback of POST /takeback.
        auto result = games.takeback(id, token);
        if (auto* error = std::get_if<ApiError>(&result)) return done(*error);
        return done(OfferReply{std::move(std::get<GameRecord>(result))});
    }
    done(OfferReply{std::move(std::get<GameRecord>(updated))});
}

void OfferService::offerDrawToEngine(const GameRecord& game,
                                     const std::optional<std::string>& token,
                                     const ClientInfo& client, OfferDone done) {
    const std::size_t plies = pliesPlayed(game);
    if (plies < kEngineDrawMinPlies) {
        // Declined by the rule alone: no search.
        return done(OfferReply{
            game,
            {{"drawOfferAnswer",
              {{"accepted", false}, {"reason", "too_early"}, {"minPlies", kEngineDrawMinPlies}}}}});
    }
    const bool engineToMove = enginesTurn(game);
    SearchRequest request;
    request.fen = game.initialFen;
    request.moves = game.moves;
    request.limits.nodes = kEngineDrawSearchNodes;
    request.limits.maxTimeMs = kEngineDrawSearchMaxMs;
    ServerContext& context = context_;
    JobCallbacks callbacks;
    // The search thread only hands the result on: the store is the store executor's.
    callbacks.onDone = [&context, id = game.id, token, asked = game.version, plies, engineToMove,
                        done](const JobOutcome& outcome) {
        recordSearchMetrics(context.metrics, outcome);
        context.storeWork.post([&context, id, token, asked, plies, engineToMove, outcome, done] {
            if (!outcome.error.empty()) {
                return done(
                    ApiError{ErrorStatus::internal_server_error, errors::internal,
                             "the engine could not evaluate the position: " + outcome.error});
            }
            const Score& score = outcome.result.info.score;
            const int toMoveCp = score.kind == Score::Kind::Mate
                                     ? (score.value > 0 ? kMateAsCp : -kMateAsCp)
                                     : score.value;
            const int engineCp = engineToMove ? toMoveCp : -toMoveCp;
            const bool accepted = engineAcceptsDraw(plies, engineCp);
            const nlohmann::json answer = {
                {"drawOfferAnswer",
                 {{"accepted", accepted}, {"reason", "evaluation"}, {"engineCp", engineCp}}}};
            // The game moved past the offer while the engine thought (its reply was under way,
            // a takeback, the end): as between people, a move answers the offer, and the
            // evaluation of a position that is gone decides nothing.
            bool movedOn = false;
            auto updated = GameService(context).update(
                id, token, GameService::TokenUse::Play,
                [&](GameRecord& current) -> std::optional<ApiError> {
                    movedOn = current.version != asked;
                    if (movedOn || !accepted) return std::nullopt;
                    if (current.status != "ongoing") return gameOver(current);
                    finish(current, drawAgreed(), context.clock.nowMs());
                    return std::nullopt;
                });
            if (auto* error = std::get_if<ApiError>(&updated)) return done(*error);
            GameRecord current = std::move(std::get<GameRecord>(updated));
            if (movedOn) {
                return done(OfferReply{
                    std::move(current),
                    {{"drawOfferAnswer", {{"accepted", false}, {"reason", "moved_on"}}}}});
            }
            done(OfferReply{std::move(current), answer});
        });
    };
    Submission submission = context_.pool->submit(client.address, std::move(request),
                                                  std::move(callbacks), JobPriority::Game);
    if (submission.admission == Admission::Accepted) return;
    context_.metrics.searchRejected(toString(submission.admission));
    done(admissionError(submission.admission, context_.config));
}

}  // namespace outpost::server
