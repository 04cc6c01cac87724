#include "search/timeman.h"

#include <algorithm>

namespace outpost::search {
namespace {

// An explicit movestogo is believed up to this many moves (kDefaultMovesToGo: timeman.h).
constexpr int kMaxMovesToGo = 50;
// Share of the increment added to each move's budget (keep some to rebuild the clock) ...
constexpr double kIncrementShare = 0.75;
// ... and a smaller share once the clock holds few increments: each move also costs unseen time
// (process scheduling, the GUI's pipe), and a clock living on its increment must not drain.
constexpr double kLowClockIncrementShare = 0.5;
constexpr int kLowClockIncrements = 10;
// The hard bound may grow to this multiple of the soft bound ...
constexpr double kHardOverSoft = 3.0;
// ... but never beyond this share of the remaining time (the last move before the time control
// may use more, since the clock is refilled after it).
constexpr double kMaxShareOfClock = 0.3;
constexpr double kMaxShareLastMove = 0.85;
// Never plan below this, so even a nearly empty clock gets a legal move out.
constexpr std::int64_t kMinimumMs = 1;

}  // namespace

namespace {

std::optional<TimeBounds> plannedBounds(const SearchLimits& limits, bool whiteToMove,
                                        int moveOverheadMs, std::int64_t latencyMs) {
    if (limits.movetimeMs) {
        const std::int64_t t = std::max<std::int64_t>(kMinimumMs, *limits.movetimeMs);
        return TimeBounds{t, t, TimeBounds::Plan::Exact};
    }
    const auto& clock = whiteToMove ? limits.wtimeMs : limits.btimeMs;
    if (!clock) return std::nullopt;
    const auto& incOpt = whiteToMove ? limits.wincMs : limits.bincMs;
    latencyMs = std::max<std::int64_t>(0, latencyMs);
    const std::int64_t inc = std::max<std::int64_t>(0, incOpt.value_or(0) - latencyMs);
    const std::int64_t available =
        std::max<std::int64_t>(kMinimumMs, *clock - std::max(0, moveOverheadMs) - latencyMs);

    const int movesToGo =
        std::clamp(limits.movestogo.value_or(kDefaultMovesToGo), 1, kMaxMovesToGo);
    const bool lastMoveBeforeControl = limits.movestogo && *limits.movestogo <= 1;

    const double incShare =
        available < kLowClockIncrements * inc ? kLowClockIncrementShare : kIncrementShare;
    auto soft = static_cast<std::int64_t>(static_cast<double>(available) / movesToGo +
                                          incShare * static_cast<double>(inc));
    const double share = lastMoveBeforeControl ? kMaxShareLastMove : kMaxShareOfClock;
    const auto cap = static_cast<std::int64_t>(share * static_cast<double>(available));
    std::int64_t hard = std::min(static_cast<std::int64_t>(kHardOverSoft * soft), cap);
    hard = std::max(kMinimumMs, hard);
    soft = std::clamp(soft, kMinimumMs, hard);
    return TimeBounds{soft, hard, TimeBounds::Plan::Clock};
}

}  // namespace

std::optional<TimeBounds> computeTimeBounds(const SearchLimits& limits, bool whiteToMove,
                                            int moveOverheadMs, std::int64_t latencyMs) {
    std::optional<TimeBounds> bounds =
        plannedBounds(limits, whiteToMove, moveOverheadMs, latencyMs);
    if (!limits.maxTimeMs) return bounds;
    const std::int64_t cap = std::max<std::int64_t>(kMinimumMs, *limits.maxTimeMs);
    if (!bounds) return TimeBounds{cap, cap, TimeBounds::Plan::Deadline};
    bounds->hardMs = std::min(bounds->hardMs, cap);
    bounds->softMs = std::min(bounds->softMs, bounds->hardMs);
    return bounds;
}

std::int64_t scaledSoftBound(const TimeBounds& bounds, int bestMoveStability, int bestMoveChanges) {
    // Stable for many iterations: down to 60 %; many changes: up to 200 %.
    constexpr double kStabilityStep = 0.08;
    constexpr int kMaxStability = 5;
    constexpr double kChangeStep = 0.25;
    constexpr int kMaxChanges = 4;
    const double factor = (1.0 - kStabilityStep * std::min(bestMoveStability, kMaxStability)) *
                          (1.0 + kChangeStep * std::min(bestMoveChanges, kMaxChanges));
    const auto scaled = static_cast<std::int64_t>(factor * static_cast<double>(bounds.softMs));
    return std::clamp<std::int64_t>(scaled, kMinimumMs, bounds.hardMs);
}

double nodeShareFactor(double bestMoveNodeShare) {
    // 1.0 at a share of one half, 0.6 when the best move took 90 % of the nodes, up to 1.4 when
    // it took a tenth; linear in between.
    constexpr double kEvenShare = 0.5;
    constexpr double kSlope = 1.0;
    constexpr double kMinFactor = 0.6;
    constexpr double kMaxFactor = 1.4;
    const double share = std::clamp(bestMoveNodeShare, 0.0, 1.0);
    return std::clamp(1.0 + kSlope * (kEvenShare - share), kMinFactor, kMaxFactor);
}

double fallingEvalFactor(std::optional<int> dropSinceLastMove, int dropOverIterations) {
    // 1.0 when the score holds; +0.25 for a 50 cp fall since the last move, or for a 100 cp fall
    // over the iterations; within 0.8-1.6. Each drop is clamped first, so a mate score found or
    // lost counts as a large fall, not as thousands of centipawns.
    static constexpr int kMaxDrop = 300;
    constexpr double kLastMoveWeight = 2.0;
    constexpr double kIterationsWeight = 1.0;
    constexpr double kCpPerUnit = 400.0;
    constexpr double kMinFactor = 0.8;
    constexpr double kMaxFactor = 1.6;
    const auto clamped = [](int drop) {
        return static_cast<double>(std::clamp(drop, -kMaxDrop, kMaxDrop));
    };
    const double sinceLastMove = dropSinceLastMove ? clamped(*dropSinceLastMove) : 0.0;
    const double overIterations = clamped(dropOverIterations);
    const double factor =
        1.0 + (kLastMoveWeight * sinceLastMove + kIterationsWeight * overIterations) / kCpPerUnit;
    return std::clamp(factor, kMinFactor, kMaxFactor);
}

}  // namespace outpost::search
