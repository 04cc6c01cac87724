#include "store/clock_deadline.h"

#include <cstddef>
#include <string_view>

namespace outpost::server {

namespace {
// True when the FEN's second field (the active colour) is "w"; a FEN without one starts White.
bool whiteStarts(std::string_view fen) {
    const std::size_t space = fen.find(' ');
    return space == std::string_view::npos || space + 1 >= fen.size() || fen[space + 1] == 'w';
}
// Plies after which the clocks of a game between people run: each side has moved once.
constexpr std::size_t kPliesBeforeClocks = 2;
}  // namespace

std::optional<std::int64_t> runningClockDeadlineMs(const GameRecord& game) {
    if (game.status != "ongoing" || !game.clock || !game.clock->running) return std::nullopt;
    const bool oddMoves = game.moves.size() % 2 == 1;
    const bool whiteToMove = whiteStarts(game.initialFen) != oddMoves;
    return game.clock->turnStartedAtMs + (whiteToMove ? game.clock->whiteMs : game.clock->blackMs);
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
