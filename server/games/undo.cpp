#include "games/undo.h"

#include "games/finisher.h"
#include "games/game_clock.h"
#include "games/game_replay.h"
#include "store/clock_deadline.h"
#include "store/game_turn.h"

namespace outpost::server {

void undoPlies(GameRecord& game, std::size_t plies, std::int64_t nowMs) {
    if (game.clock) {
        const ClockReading reading = readClock(*game.clock, whiteToPlay(game), nowMs);
        game.clock->whiteMs = reading.whiteMs;
        game.clock->blackMs = reading.blackMs;
    }
    for (std::size_t i = 0; i < plies && !game.moves.empty(); ++i) game.moves.pop_back();
    if (game.moveClocksMs.size() > game.moves.size()) game.moveClocksMs.resize(game.moves.size());
    game.status = "ongoing";
    game.result = "*";
    game.reason.clear();
    game.winner.clear();
    if (game.clock) {
        game.clock->turnStartedAtMs = nowMs;
        // Between people back before both first moves, the clocks wait again (and the side to
        // move's first-move deadline counts from now).
        game.clock->running =
            game.firstMoveMs > 0 ? game.moves.size() >= kPliesBeforeClocks : !game.moves.empty();
    }
    game.drawOffer.clear();
    game.takebackOffer.clear();
    if (auto end = replay(game).outcome()) return finish(game, *end, nowMs);
    markChanged(game, nowMs);
}

}  // namespace outpost::server
