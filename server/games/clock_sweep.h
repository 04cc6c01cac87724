// Clocks outlive the replica that watched them: every replica, at start and then periodically,
// asks the store for the games whose clock runs (an index by deadline, GameStore::runningClocks)
// and watches their flag falls too. A replica that dies (kill -9, a node lost) takes its
// FlagWatch with it; the others then end its games on time, with no request. Recording a flag
// fall is a compare-and-set, so however many replicas watch a game, it ends once.
//
// Thread-safety: start() and stop() from any thread; `sweep` runs on the sweep's own thread,
// never on an I/O thread (it reads the store).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace outpost::server {

class ClockSweep {
  public:
    using Sweep = std::function<void()>;

    ClockSweep(std::chrono::milliseconds interval, Sweep sweep);
    ~ClockSweep();
    ClockSweep(const ClockSweep&) = delete;
    ClockSweep& operator=(const ClockSweep&) = delete;

    // Sweeps now, then every interval, until stop(). A second start() does nothing.
    void start();
    // Ends the thread (a sweep under way finishes first). Idempotent; start() after it is ignored.
    void stop();

  private:
    void run();

    const std::chrono::milliseconds interval_;
    const Sweep sweep_;
    std::mutex mutex_;
    std::condition_variable stopped_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace outpost::server
