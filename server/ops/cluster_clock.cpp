#include "ops/cluster_clock.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace outpost::server {

namespace {

// Two samples whose offsets differ by more than their round trips allow, plus this much (each
// reading's rounding to the millisecond, the monotonic clock's drift over the samples kept), tell
// of a jump: the store's clock is another one (a failover to a primary whose clock differs) or
// was stepped, or this host slept.
constexpr std::int64_t kJumpMarginMs = 50;

}  // namespace

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
    const auto best = [this] {
        const auto held =
            samples_.begin() + static_cast<std::ptrdiff_t>(std::min(count_, kSamples));
        return std::min_element(samples_.begin(), held, [](const Sample& a, const Sample& b) {
            return a.roundTripMs < b.roundTripMs;
        });
    };
    if (count_ > 0) {
        const Sample& believed = *best();
        // A jump: the older samples describe clocks that no longer relate so; only this one is
        // kept (else a sample with a shorter round trip from before it is believed for up to
        // kSamples sweeps).
        if (std::abs(sample.offsetMs - believed.offsetMs) >
            sample.roundTripMs + believed.roundTripMs + kJumpMarginMs) {
            count_ = 0;
        }
    }
    samples_[count_ % kSamples] = sample;
    ++count_;
    offsetMs_.store(best()->offsetMs, std::memory_order_relaxed);
}

}  // namespace outpost::server
