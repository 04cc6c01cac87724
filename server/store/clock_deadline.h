// When a game's next clock deadline falls, computed from the stored record alone, so a backend can
// keep an index of clock deadlines (how a replica finds the clocks whose watching replica died)
// without knowing chess: the side to move follows from the start position's active colour and
// the number of moves played since. Two deadlines share the index: a running clock's flag fall,
// and, before the clocks of a game between people start, the side to move's first-move deadline
// (GameRecord::firstMoveMs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "store/game_record.h"

namespace outpost::server {

// Plies after which the clocks of a game between people run: each side has moved once.
inline constexpr std::size_t kPliesBeforeClocks = 2;

// The wall-clock time (epoch milliseconds) at which the side to move runs out of time; nullopt
// when the game is over, has no clock, or its clock does not run yet.
std::optional<std::int64_t> runningClockDeadlineMs(const GameRecord& game);

// The time (epoch ms) by which the side to move of an ongoing game between people must make its
// first move, or the game is aborted; nullopt once both sides have moved (the clocks run), or
// when the game has no such deadline.
std::optional<std::int64_t> firstMoveDeadlineMs(const GameRecord& game);

// The sooner of the two above: what the store indexes and a replica watches.
std::optional<std::int64_t> clockDeadlineMs(const GameRecord& game);

}  // namespace outpost::server
