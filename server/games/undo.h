// The one takeback: every undo of moves (POST /takeback against the engine, a takeback agreed
// between people, games/offers.h) goes through undoPlies, so each keeps the clocks the same way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "store/game_record.h"

namespace outpost::server {

// Takes back the last `plies` moves of `game` at nowMs. A running clock is read first: what each
// side has left now stays theirs (a takeback gives no time back), and the side to move's turn
// starts at nowMs. The per-move clocks of the plies taken back go with them. A game the position
// had ended (against the engine, a takeback after mate) is open again, unless the position it
// returns to is itself an end. The offers go; the change is counted.
void undoPlies(GameRecord& game, std::size_t plies, std::int64_t nowMs);

}  // namespace outpost::server
