// The time game clocks, deadlines and seeks count in: the store's clock, carried between two
// readings of it by this replica's monotonic clock. Replicas whose own wall clocks differ (a host
// whose NTP failed, a container started with a fake clock) then still agree on every game's
// clock: a move stored by one replica and read by another is charged the time it took, not that
// plus the replicas' difference. A replica whose wall clock is stepped while it runs (NTP
// catching up after boot, an operator's `date -s`) keeps the cluster's time too: the wall clock
// is never read for it once the store's clock was. With a store that has no clock of its own
// (memory, SQLite: one host) the cluster's time is the wall clock.
//
// The offset comes from samples of the store's time read between two readings of the monotonic
// clock (measure(): at start, then with every clock sweep). Of the last kSamples, the one with
// the shortest round trip is believed (the least waiting in it, as NTP's clock filter does): its
// store time against the middle of its round trip. A sample that disagrees with the believed one
// by more than their round trips allow tells of a jump (a failover to a primary whose clock
// differs, the store's clock stepped, this host asleep): the older samples are dropped, and the
// new time is taken up at once.
//
// Thread-safety: nowMs() and offsetMs() from any thread; measure() and observe() too (a mutex
// guards the samples).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>

namespace outpost::server {

// A wall clock in epoch milliseconds (tests give a replica one that is off, or one they step).
using WallClock = std::function<std::int64_t()>;
// A clock in milliseconds that only ever runs forward at the rate of time (never stepped).
using MonotonicClock = std::function<std::int64_t()>;

// std::chrono::steady_clock in milliseconds (never 0 on a running machine: callers may keep 0 for
// "never").
std::int64_t steadyMs();

class ClusterClock {
  public:
    // The samples the offset is chosen from.
    static constexpr std::size_t kSamples = 8;

    explicit ClusterClock(WallClock wall, MonotonicClock monotonic = steadyMs);

    // Epoch milliseconds on the cluster's time (the wall clock until the store's was read).
    std::int64_t nowMs() const {
        const std::int64_t offset = offsetMs_.load(std::memory_order_relaxed);
        return offset == kUnsynced ? wall_() : monotonic_() + offset;
    }
    // Whether the store's clock was read (false: nowMs() is the wall clock).
    bool synced() const { return offsetMs_.load(std::memory_order_relaxed) != kUnsynced; }
    // The store's clock minus this replica's wall clock now (0 before any sample).
    std::int64_t offsetMs() const {
        const std::int64_t offset = offsetMs_.load(std::memory_order_relaxed);
        return offset == kUnsynced ? 0 : monotonic_() + offset - wall_();
    }
    // Reads `storeTime` between two readings of the monotonic clock and keeps the sample. False
    // when the store has no time to give (or could not be read): the offset stays as it was.
    bool measure(const std::function<std::optional<std::int64_t>()>& storeTime);
    // One sample: the monotonic clock before and after a read of the store's time.
    void observe(std::int64_t monotonicBeforeMs, std::int64_t storeMs,
                 std::int64_t monotonicAfterMs);

  private:
    static constexpr std::int64_t kUnsynced = std::numeric_limits<std::int64_t>::min();
    struct Sample {
        std::int64_t roundTripMs = 0;
        std::int64_t offsetMs = 0;  // store time minus monotonic time
    };
    const WallClock wall_;
    const MonotonicClock monotonic_;
    std::atomic<std::int64_t> offsetMs_{kUnsynced};
    std::mutex mutex_;
    std::array<Sample, kSamples> samples_{};
    std::size_t count_ = 0;  // samples taken (the ring holds the last kSamples)
};

}  // namespace outpost::server
