// A stored game's position, recomputed from its moves (the store keeps only the facts).
#pragma once

#include "games/chess_rules.h"
#include "store/game_record.h"

namespace outpost::server {

// The position after all of the game's moves (the stored moves were legal when stored). Throws
// std::runtime_error for a record whose moves do not replay (damaged or foreign).
ChessState replay(const GameRecord& game);

}  // namespace outpost::server
