// A move's rules on a stored game: the clocks (the mover's time, its increment, when the clocks
// start), the per-move clocks, the offers a move answers, and the end the position may reach.
#pragma once

#include <cstdint>
#include <string>

#include "games/chess_rules.h"
#include "store/game_record.h"

namespace outpost::server {

// Plays a legal move on game and state: clocks, result, version. False when the mover's flag
// fell (or its first-move deadline passed) before the move: the game then ends on time (or is
// aborted) and the move is not played. Between people the clocks start once both sides moved.
bool applyMove(GameRecord& game, ChessState& state, const std::string& uci, std::int64_t nowMs);

}  // namespace outpost::server
