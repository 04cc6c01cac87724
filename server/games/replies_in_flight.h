// The engine replies this replica is computing now, by game and version ("id@version"). A deadline
// check that finds a reply owed (games/deadlines.h, games/engine_replies.h) starts a search only
// when none is in flight here; another replica may start one too, and then the compare-and-set on
// the game's version keeps one move.
//
// Thread-safety: every method from any thread.
#pragma once

#include <mutex>
#include <set>
#include <string>

namespace outpost::server {

class RepliesInFlight {
  public:
    // False when a reply for key is already in flight here.
    bool begin(const std::string& key) {
        std::lock_guard lock(mutex_);
        return games_.insert(key).second;
    }
    void end(const std::string& key) {
        std::lock_guard lock(mutex_);
        games_.erase(key);
    }
    bool contains(const std::string& key) const {
        std::lock_guard lock(mutex_);
        return games_.count(key) > 0;
    }

  private:
    mutable std::mutex mutex_;
    std::set<std::string> games_;
};

}  // namespace outpost::server
