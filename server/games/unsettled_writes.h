// Changes of games this replica sent to the store without getting its answer (StoreStatus::
// Unanswered: the store hung or was cut off after it got the write). Nobody published them: the
// deadline check of the game (games/deadlines.h) reads it once the store answers again and, when
// the change is there, publishes it and starts the engine's reply it owes.
//
// Thread-safety: every method from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace outpost::server {

class UnsettledWrites {
  public:
    // The change of `gameId` to `version` was sent, its outcome unknown (a later one replaces it).
    void add(const std::string& gameId, std::uint64_t version) {
        std::lock_guard lock(mutex_);
        games_[gameId] = version;
    }
    // The version of the unsettled change of `gameId`, forgotten; none when there is none.
    std::optional<std::uint64_t> take(const std::string& gameId) {
        std::lock_guard lock(mutex_);
        const auto found = games_.find(gameId);
        if (found == games_.end()) return std::nullopt;
        const std::uint64_t version = found->second;
        games_.erase(found);
        return version;
    }

  private:
    std::mutex mutex_;
    std::map<std::string, std::uint64_t> games_;
};

}  // namespace outpost::server
