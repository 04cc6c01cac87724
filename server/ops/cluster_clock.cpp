#include "ops/cluster_clock.h"

#include <algorithm>

namespace outpost::server {

ClusterClock::ClusterClock(WallClock wall) : wall_(std::move(wall)) {}

bool ClusterClock::measure(const std::function<std::optional<std::int64_t>()>& storeTime) {
    const std::int64_t before = wall_();
    const std::optional<std::int64_t> storeMs = storeTime();
    const std::int64_t after = wall_();
    if (!storeMs) return false;
    observe(before, *storeMs, after);
    return true;
}

void ClusterClock::observe(std::int64_t wallBeforeMs, std::int64_t storeMs,
                           std::int64_t wallAfterMs) {
    const std::int64_t roundTrip = std::max<std::int64_t>(0, wallAfterMs - wallBeforeMs);
    const Sample sample{roundTrip, storeMs - (wallBeforeMs + roundTrip / 2)};
    std::lock_guard lock(mutex_);
    samples_[count_ % kSamples] = sample;
    ++count_;
    const auto held = samples_.begin() + static_cast<std::ptrdiff_t>(std::min(count_, kSamples));
    const auto best = std::min_element(
        samples_.begin(), held,
        [](const Sample& a, const Sample& b) { return a.roundTripMs < b.roundTripMs; });
    offsetMs_.store(best->offsetMs, std::memory_order_relaxed);
}

}  // namespace outpost::server
