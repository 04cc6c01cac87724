#include "games/game_replay.h"

#include <stdexcept>

namespace outpost::server {

ChessState replay(const GameRecord& game) {
    std::string error;
    bool badMove = false;
    auto state = ChessState::load(game.initialFen, game.moves, error, badMove);
    if (!state) throw std::runtime_error("stored game " + game.id + " does not replay: " + error);
    return std::move(*state);
}

}  // namespace outpost::server
