#include "games/clock_sweep.h"

namespace outpost::server {

ClockSweep::ClockSweep(std::chrono::milliseconds interval, Sweep sweep)
    : interval_(interval), sweep_(std::move(sweep)) {}

ClockSweep::~ClockSweep() {
    stop();
}

void ClockSweep::start() {
    std::lock_guard lock(mutex_);
    if (stopping_ || thread_.joinable()) return;
    thread_ = std::thread([this] { run(); });
}

void ClockSweep::stop() {
    std::thread thread;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        thread = std::move(thread_);
    }
    stopped_.notify_all();
    if (thread.joinable()) thread.join();
}

void ClockSweep::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        sweep_();
        lock.lock();
        stopped_.wait_for(lock, interval_, [this] { return stopping_; });
    }
}

}  // namespace outpost::server
