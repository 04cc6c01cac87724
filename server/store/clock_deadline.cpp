#include "store/clock_deadline.h"

#include <cstddef>

#include "store/game_turn.h"

namespace outpost::server {

std::optional<std::int64_t> runningClockDeadlineMs(const GameRecord& game) {
    if (game.status != "ongoing" || !game.clock || !game.clock->running) return std::nullopt;
    return game.clock->turnStartedAtMs +
           (whiteToPlay(game) ? game.clock->whiteMs : game.clock->blackMs);
}

std::optional<std::int64_t> firstMoveDeadlineMs(const GameRecord& game) {
    if (game.status != "ongoing" || game.firstMoveMs <= 0 || !game.clock || game.clock->running ||
        game.moves.size() >= kPliesBeforeClocks) {
        return std::nullopt;
    }
    return game.clock->turnStartedAtMs + game.firstMoveMs;
}

std::optional<std::int64_t> clockDeadlineMs(const GameRecord& game) {
    if (auto running = runningClockDeadlineMs(game)) return running;
    return firstMoveDeadlineMs(game);
}

}  // namespace outpost::server
