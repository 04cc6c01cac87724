// Whose turn it is in a stored game, from the record alone: the start position's active colour
// and the number of moves played since (each move passes the turn). The one place that works it
// out: the rules (games/), the clock deadlines a store indexes (store/clock_deadline.h) and the
// clocks all ask here, so none replays the moves to learn it and none can disagree.
#pragma once

#include "store/game_record.h"

namespace outpost::server {

// True when White is to move after the game's moves.
bool whiteToPlay(const GameRecord& game);

// "white" or "black".
const char* sideName(bool white);

}  // namespace outpost::server
