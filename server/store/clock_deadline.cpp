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
}  // namespace

std::optional<std::int64_t> runningClockDeadlineMs(const GameRecord& game) {
    if (game.status != "ongoing" || !game.clock || !game.clock->running) return std::nullopt;
    const bool oddMoves = game.moves.size() % 2 == 1;
    const bool whiteToMove = whiteStarts(game.initialFen) != oddMoves;
    return game.clock->turnStartedAtMs + (whiteToMove ? game.clock->whiteMs : game.clock->blackMs);
}

}  // namespace outpost::server
