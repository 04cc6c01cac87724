// Flag fall without a request: the server, not the next request, ends a game whose side to move
// ran out of time.
//
// Every replica that stores a change leaving a clock running watches that game until its flag
// would fall; only that replica does (a later change, on any replica, is watched by whoever
// stored it). At the deadline the watch calls `expire(gameId, version)` on its own thread, never
// on an I/O thread: the callback reads the game, records the timeout with compare-and-set against
// `version`, and publishes it. A move that was stored in time wins that race; the watch that lost
// the CAS just stops.
//
// Thread-safety: watch() and stop() may be called from any thread. The callback runs on the
// watch's one thread, one game at a time; it may call watch() again (an early wake-up).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "games/game_clock.h"

namespace outpost::server {

class FlagWatch {
  public:
    using Expire = std::function<void(const std::string& gameId, std::uint64_t version)>;

    // `now`: the clock deadlines are in (epoch ms; the server gives its ClusterClock).
    explicit FlagWatch(Expire expire, std::function<std::int64_t()> now = nowEpochMs);
    ~FlagWatch();
    FlagWatch(const FlagWatch&) = delete;
    FlagWatch& operator=(const FlagWatch&) = delete;

    // Calls expire(gameId, version) at deadlineEpochMs (wall-clock epoch milliseconds, as the
    // stored clocks are kept) or soon after. A game has one watch: a later call replaces it.
    void watch(const std::string& gameId, std::uint64_t version, std::int64_t deadlineEpochMs);
    // The same for a game found in the store by the clock sweep, unless this replica watches
    // that game already at this version or a newer one (its own watch stays as it is).
    void adopt(const std::string& gameId, std::uint64_t version, std::int64_t deadlineEpochMs);
    // Ends the thread; later watches are ignored. Idempotent.
    void stop();
    // Games being watched.
    std::size_t size() const;

  private:
    struct Deadline {
        std::uint64_t version = 0;
        std::int64_t atMs = 0;
    };
    void watchLocked(const std::string& gameId, std::uint64_t version,
                     std::int64_t deadlineEpochMs);  // the caller holds mutex_
    void run();

    const Expire expire_;
    const std::function<std::int64_t()> now_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::map<std::string, Deadline> games_;
    // (deadline, game) in firing order; an entry whose deadline no longer matches games_ is stale.
    std::multimap<std::int64_t, std::string> queue_;
    bool stopping_ = false;
    std::thread thread_;  // started by the first watch
};

}  // namespace outpost::server
