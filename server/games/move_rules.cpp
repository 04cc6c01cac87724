#include "games/move_rules.h"

#include "games/finisher.h"
#include "games/game_clock.h"
#include "store/clock_deadline.h"

namespace outpost::server {

namespace {
// GameRecord::moveClocksMs of a ply whose clock is not known (moves given at creation).
constexpr std::int64_t kUnknownMoveClock = -1;
}  // namespace

bool applyMove(GameRecord& game, ChessState& state, const std::string& uci, std::int64_t nowMs) {
    if (applyTimeouts(game, state, nowMs)) return false;
    const bool white = state.whiteToMove();
    if (game.clock) {
        ClockState& clock = *game.clock;
        // Between people the clocks wait for both first moves (and then start with the side to
        // move's turn); against the engine they start with the first move, as they always did.
        const bool beforeClocks =
            game.firstMoveMs > 0 && game.moves.size() + 1 < kPliesBeforeClocks;
        const bool waited = game.firstMoveMs > 0 && !clock.running;
        if (clock.running) {
            const ClockReading reading = readClock(clock, white, nowMs);
            clock.whiteMs = reading.whiteMs;
            clock.blackMs = reading.blackMs;
        }
        // A first move made before the clocks ran used no time: no increment for it either.
        if (!waited) (white ? clock.whiteMs : clock.blackMs) += clock.incrementMs;
        clock.turnStartedAtMs = nowMs;
        clock.running = !beforeClocks;
        // Each move's clock, by ply (a takeback may have left later plies behind).
        game.moveClocksMs.resize(game.moves.size(), kUnknownMoveClock);
        game.moveClocksMs.push_back(white ? clock.whiteMs : clock.blackMs);
    }
    game.moves.push_back(uci);
    state.play(uci);
    // A move answers every offer: the other side declines by playing on (Lichess's rule).
    game.drawOffer.clear();
    game.takebackOffer.clear();
    if (auto end = state.outcome()) {
        finish(game, *end, nowMs);
    } else {
        markChanged(game, nowMs);
    }
    return true;
}

}  // namespace outpost::server
