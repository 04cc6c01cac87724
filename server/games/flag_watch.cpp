#include "games/flag_watch.h"

#include <chrono>
#include <vector>

#include "games/game_view.h"

namespace outpost::server {

FlagWatch::FlagWatch(Expire expire, std::function<std::int64_t()> now)
    : expire_(std::move(expire)), now_(std::move(now)) {}

FlagWatch::~FlagWatch() {
    stop();
}

void FlagWatch::watch(const std::string& gameId, std::uint64_t version,
                      std::int64_t deadlineEpochMs) {
    std::lock_guard lock(mutex_);
    watchLocked(gameId, version, deadlineEpochMs);
}

void FlagWatch::watchLocked(const std::string& gameId, std::uint64_t version,
                            std::int64_t deadlineEpochMs) {
    if (stopping_) return;
    games_[gameId] = Deadline{version, deadlineEpochMs};
    queue_.emplace(deadlineEpochMs, gameId);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    changed_.notify_all();
}

void FlagWatch::adopt(const std::string& gameId, std::uint64_t version,
                      std::int64_t deadlineEpochMs) {
    std::lock_guard lock(mutex_);
    auto watched = games_.find(gameId);
    if (watched != games_.end() && watched->second.version >= version) return;
    watchLocked(gameId, version, deadlineEpochMs);
}

void FlagWatch::stop() {
    std::thread thread;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        games_.clear();
        queue_.clear();
        thread = std::move(thread_);
        changed_.notify_all();
    }
    if (!thread.joinable()) return;
    if (thread.get_id() == std::this_thread::get_id()) {
        thread.detach();  // stop() from the callback: run() returns right after it
    } else {
        thread.join();
    }
}

std::size_t FlagWatch::size() const {
    std::lock_guard lock(mutex_);
    return games_.size();
}

void FlagWatch::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (queue_.empty()) {
            changed_.wait(lock);
            continue;
        }
        const auto next = queue_.begin();
        const std::int64_t waitMs = next->first - now_();
        if (waitMs > 0) {
            // Woken early by a new (possibly sooner) deadline or stop(): look again.
            changed_.wait_for(lock, std::chrono::milliseconds(waitMs));
            continue;
        }
        const std::string gameId = next->second;
        const std::int64_t atMs = next->first;
        queue_.erase(next);
        auto game = games_.find(gameId);
        if (game == games_.end() || game->second.atMs != atMs) continue;  // replaced meanwhile
        const std::uint64_t version = game->second.version;
        games_.erase(game);
        lock.unlock();
        expire_(gameId, version);
        lock.lock();
    }
}

}  // namespace outpost::server
