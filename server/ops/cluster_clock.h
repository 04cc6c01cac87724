// The time game clocks, deadlines and seeks count in: this replica's wall clock corrected by its
// measured offset from the store's clock. Replicas whose own clocks differ (a host whose NTP
// failed, a container started with a fake clock) then still agree on every game's clock: a move
// stored by one replica and read by another is charged the time it took, not that plus the
// replicas' difference. With a store that has no clock of its own (memory, SQLite: one host) the
// offset stays 0.
//
// The offset comes from samples of the store's time read between two readings of the wall clock
// (measure(): at start, then with every clock sweep). Of the last kSamples, the one with the
// shortest round trip is believed (the least waiting in it, as NTP's clock filter does): its
// store time against the middle of its round trip.
//
// Thread-safety: nowMs() and offsetMs() from any thread; measure() and observe() too (a mutex
// guards the samples).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>

namespace outpost::server {

// A wall clock in epoch milliseconds (tests give a replica one that is off).
using WallClock = std::function<std::int64_t()>;

class ClusterClock {
  public:
    // The samples the offset is chosen from.
    static constexpr std::size_t kSamples = 8;

    explicit ClusterClock(WallClock wall);

    // Epoch milliseconds on the cluster's time.
    std::int64_t nowMs() const { return wall_() + offsetMs_.load(std::memory_order_relaxed); }
    // The store's clock minus this replica's, as last chosen (0 before any sample).
    std::int64_t offsetMs() const { return offsetMs_.load(std::memory_order_relaxed); }
    // Reads `storeTime` between two readings of the wall clock and keeps the sample. False when
    // the store has no time to give (or could not be read): the offset stays as it was.
    bool measure(const std::function<std::optional<std::int64_t>()>& storeTime);
    // One sample: the wall clock before and after a read of the store's time.
    void observe(std::int64_t wallBeforeMs, std::int64_t storeMs, std::int64_t wallAfterMs);

  private:
    struct Sample {
        std::int64_t roundTripMs = 0;
        std::int64_t offsetMs = 0;
    };
    const WallClock wall_;
    std::atomic<std::int64_t> offsetMs_{0};
    std::mutex mutex_;
    std::array<Sample, kSamples> samples_{};
    std::size_t count_ = 0;  // samples taken (the ring holds the last kSamples)
};

}  // namespace outpost::server
