#include "ops/cluster_clock.h"

#include <algorithm>
#include <chrono>

namespace outpost::server {

std::int64_t steadyMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

ClusterClock::ClusterClock(WallClock wall, MonotonicClock monotonic)
    : wall_(std::move(wall)), monotonic_(std::move(monotonic)) {}

bool ClusterClock::measure(const std::function<std::optional<std::int64_t>()>& storeTime) {
    const std::int64_t before = monotonic_();
    const std::optional<std::int64_t> storeMs = storeTime();
    const std::int64_t after = monotonic_();
    if (!storeMs) return false;
    observe(before, *storeMs, after);
    return true;
}

void ClusterClock::observe(std::int64_t monotonicBeforeMs, std::int64_t storeMs,
                           std::int64_t monotonicAfterMs) {
    const std::int64_t roundTrip = std::max<std::int64_t>(0, monotonicAfterMs - monotonicBeforeMs);
    const Sample sample{roundTrip, storeMs - (monotonicBeforeMs + roundTrip / 2)};
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
