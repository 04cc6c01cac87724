#include "store/game_turn.h"

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

bool whiteToPlay(const GameRecord& game) {
    const bool oddMoves = game.moves.size() % 2 == 1;
    return whiteStarts(game.initialFen) != oddMoves;
}

const char* sideName(bool white) {
    return white ? "white" : "black";
}

}  // namespace outpost::server
