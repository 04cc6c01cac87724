#include "games/finisher.h"

#include <utility>

#include "games/game_clock.h"
#include "store/clock_deadline.h"
#include "store/game_turn.h"

namespace outpost::server {

void markChanged(GameRecord& game, std::int64_t nowMs) {
    game.version += 1;
    game.updatedAtMs = nowMs;
}

void finish(GameRecord& game, const GameEnd& end, std::int64_t nowMs) {
    if (game.clock) {
        ClockState& clock = *game.clock;
        const ClockReading reading = readClock(clock, whiteToPlay(game), nowMs);
        clock.whiteMs = reading.whiteMs;
        clock.blackMs = reading.blackMs;
        clock.running = false;
    }
    game.status = end.status;
    game.result = end.result;
    game.reason = end.reason;
    game.winner = end.winner;
    game.drawOffer.clear();
    game.takebackOffer.clear();
    markChanged(game, nowMs);
}

GameEnd resignation(bool resigningWhite) {
    return {"resigned", resigningWhite ? "0-1" : "1-0", "", sideName(!resigningWhite)};
}

GameEnd drawAgreed() {
    return {"draw", "1/2-1/2", "agreement", ""};
}

GameEnd abandonment(bool claimantWhite, bool victory) {
    if (!victory) return {"draw", "1/2-1/2", "abandoned", ""};
    return {"abandoned", claimantWhite ? "1-0" : "0-1", "abandoned", sideName(claimantWhite)};
}

GameEnd abortion(std::string reason) {
    return {"aborted", "*", std::move(reason), ""};
}

GameEnd outOfTime(bool flaggedWhite, bool otherCanMate) {
    if (!otherCanMate) return {"draw", "1/2-1/2", "insufficient_material", ""};
    return {"timeout", flaggedWhite ? "0-1" : "1-0", "timeout", sideName(!flaggedWhite)};
}

bool applyFlagFall(GameRecord& game, const ChessState& state, std::int64_t nowMs) {
    if (game.status != "ongoing" || !game.clock || !game.clock->running) return false;
    const bool white = whiteToPlay(game);
    const ClockReading reading = readClock(*game.clock, white, nowMs);
    if ((white ? reading.whiteMs : reading.blackMs) > 0) return false;
    finish(game, outOfTime(white, state.canMate(!white)), nowMs);
    return true;
}

bool applyFirstMoveTimeout(GameRecord& game, std::int64_t nowMs) {
    const auto deadline = firstMoveDeadlineMs(game);
    if (!deadline || nowMs < *deadline) return false;
    finish(game, abortion(kFirstMoveMissed), nowMs);
    return true;
}

bool applyTimeouts(GameRecord& game, const ChessState& state, std::int64_t nowMs) {
    return applyFirstMoveTimeout(game, nowMs) || applyFlagFall(game, state, nowMs);
}

}  // namespace outpost::server
