// What clients see of a stored game, by role: clock arithmetic (game_clock.h), the position from
// the moves (game_replay.h), the Game object and its events (game_json.h) and the PGN
// (pgn_writer.h). Include the one you need; this header gathers them for older includes.
#pragma once

#include "games/game_clock.h"
#include "games/game_json.h"
#include "games/game_replay.h"
#include "games/pgn_writer.h"
