// Time management: how long one move may take, from the clock the GUI reports.
//
// Two bounds: after the soft bound the search starts no new iteration (an iteration begun late
// would rarely finish); at the hard bound it stops at once. Both leave the move overhead (the
// GUI's and the network's lag) untouched, so the engine cannot lose on time when the bounds hold.
#pragma once

#include <cstdint>
#include <optional>

#include "engine.h"

namespace outpost::search {

struct TimeBounds {
    std::int64_t softMs = 0;
    std::int64_t hardMs = 0;
    // What set the bounds: the clock (soft and hard), movetime (exactly that long: only the hard
    // bound ends it), or a bare maxTimeMs (a deadline, not a plan: the search runs as if untimed
    // until the hard bound stops it).
    enum class Plan { Clock, Exact, Deadline };
    Plan plan = Plan::Clock;
};

// Sudden death: each move's soft bound plans as if this many moves remain (the clock shrinks,
// so later moves get a share of what is left). 12 spends 86 % of a 5+0.05 clock in self-play;
// 40 left a third of it unused, 25 a quarter, 20 a fifth, 15 a sixth, and each step down gained
// (docs/search-measurements.md, "Time management: moves to go").
inline constexpr int kDefaultMovesToGo = 12;

// No value when the limits contain no clock, movetime or maxTimeMs (the search is not timed).
// maxTimeMs caps both bounds of whatever the other limits plan.
// whiteToMove picks which clock is ours. latencyMs: time each move was seen to cost beyond the
// engine's own search (measured from the clocks of earlier moves); it is kept off the clock like
// the overhead and, being paid on every move, is taken out of the increment.
std::optional<TimeBounds> computeTimeBounds(const SearchLimits& limits, bool whiteToMove,
                                            int moveOverheadMs, std::int64_t latencyMs = 0);

// The soft bound scaled by how stable the search is: a best move that keeps changing earns more
// time, one that has held for many iterations less. Never beyond the hard bound.
std::int64_t scaledSoftBound(const TimeBounds& bounds, int bestMoveStability, int bestMoveChanges);

// A factor on the soft bound from the best move's share of the nodes searched so far (0..1): a
// best move that took nearly all the effort is clear (spend less); one that shared the effort
// with rivals is contested (spend more).
double nodeShareFactor(double bestMoveNodeShare);

// A factor on the soft bound from how far the score fell (centipawns, positive when it fell):
// since this side's last move in the same game (none when the search does not continue one) and
// since a few iterations ago. A falling score means trouble found late: spend more; a rising one
// means the position is going well: spend a little less.
double fallingEvalFactor(std::optional<int> dropSinceLastMove, int dropOverIterations);

}  // namespace outpost::search
