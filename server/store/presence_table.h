// Presence entries kept in process memory: what the memory and SQLite stores hold for
// GameStore::putPresence/getPresence. Neither shares events between processes (several replicas
// need Redis), so a connection's presence never needs to outlive the process that holds the
// connection, and heartbeats cost no disk write (SQLite fsyncs every commit). The store's clock is
// this process's steady clock: an entry's age is measured on it alone.
//
// Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/game_store.h"

namespace outpost::server {

class PresenceTable {
  public:
    void put(std::string_view gameId, const PresenceEntry& entry) {
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(mutex_);
        Game& game = games_[std::string(gameId)];
        game.byReplica[entry.replica] = Written{entry, now};
        game.writtenAt = now;
        if (now - lastPrune_ >= kPruneInterval) pruneLocked(now);
    }

    PresenceReadResult get(std::string_view gameId) {
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(mutex_);
        PresenceReadResult result;
        auto it = games_.find(std::string(gameId));
        if (it == games_.end()) return result;
        for (const auto& [replica, written] : it->second.byReplica) {
            PresenceEntry entry = written.entry;
            entry.ageMs =
                std::chrono::duration_cast<std::chrono::milliseconds>(now - written.at).count();
            result.entries.push_back(std::move(entry));
        }
        return result;
    }

    void remove(std::string_view gameId) {
        std::lock_guard lock(mutex_);
        games_.erase(std::string(gameId));
    }

  private:
    // Games nobody reported on for kPresenceKeep are dropped, at most this often.
    static constexpr std::chrono::minutes kPruneInterval{10};

    struct Written {
        PresenceEntry entry;
        std::chrono::steady_clock::time_point at;
    };
    struct Game {
        std::map<std::string, Written> byReplica;
        std::chrono::steady_clock::time_point writtenAt;
    };

    void pruneLocked(std::chrono::steady_clock::time_point now) {
        lastPrune_ = now;
        for (auto it = games_.begin(); it != games_.end();) {
            if (now - it->second.writtenAt >= kPresenceKeep)
                it = games_.erase(it);
            else
                ++it;
        }
    }

    std::mutex mutex_;
    std::unordered_map<std::string, Game> games_;
    std::chrono::steady_clock::time_point lastPrune_ = std::chrono::steady_clock::now();
};

}  // namespace outpost::server
