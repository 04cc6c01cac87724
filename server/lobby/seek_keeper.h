// Keeps the seeks whose seeker's stream is open on this replica alive, and tells those streams
// when their seek closed (accepted, cancelled or expired), even when the bus event was lost.
//
// While a stream holds a lease, each heartbeat (--presence-heartbeat) reads the seek and, while
// it is open, writes seenAtMs = now (compare-and-set; a lost race waits for the next beat). Once
// the last lease of a seek goes, nothing writes it any more: it expires the grace time after
// its last beat (lobby/seek.h). The beat runs on a thread of its own, started by the first lease.
//
// Thread-safety: every method from any thread; a lease may be dropped anywhere (it writes
// nothing).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "games/clock_sweep.h"
#include "games/game_clock.h"
#include "lobby/seek.h"
#include "store/game_store.h"

namespace outpost::server {

class SeekKeeper {
  public:
    // Called on the beat's thread with a seek that is no longer open (its seeker's stream ends).
    using Closed = std::function<void(const Seek&)>;
    using Lease = std::shared_ptr<void>;

    // `now`: the clock seeks are timed in (epoch ms; the server gives its ClusterClock).
    SeekKeeper(std::shared_ptr<GameStore> store, std::int64_t heartbeatMs, SeekTiming timing,
               std::function<std::int64_t()> now = nowEpochMs);
    ~SeekKeeper();
    SeekKeeper(const SeekKeeper&) = delete;
    SeekKeeper& operator=(const SeekKeeper&) = delete;

    // Keeps seek `id` alive while the lease lives; `closed` is called once the beat finds it
    // closed.
    Lease hold(const std::string& id, Closed closed);
    // One heartbeat (the beat's thread calls it; tests may too).
    void beat();
    void stop();

    const SeekTiming& timing() const { return timing_; }

  private:
    struct Holder {
        std::string seekId;
        Closed closed;
    };
    struct Core {
        std::mutex mutex;
        std::uint64_t next = 1;
        std::map<std::uint64_t, Holder> holders;
    };

    const std::shared_ptr<GameStore> store_;
    const SeekTiming timing_;
    const std::function<std::int64_t()> now_;
    const std::shared_ptr<Core> core_ = std::make_shared<Core>();
    ClockSweep beat_;
};

}  // namespace outpost::server
