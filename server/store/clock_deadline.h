// When a running clock's flag falls, computed from the stored record alone, so a backend can keep
// an index of running clocks by deadline (how a replica finds the clocks whose watching replica
// died) without knowing chess: the side to move follows from the start position's active colour
// and the number of moves played since.
#pragma once

#include <cstdint>
#include <optional>

#include "store/game_record.h"

namespace outpost::server {

// The wall-clock time (epoch milliseconds) at which the side to move runs out of time; nullopt
// when the game is over, has no clock, or its clock does not run yet.
std::optional<std::int64_t> runningClockDeadlineMs(const GameRecord& game);

}  // namespace outpost::server
