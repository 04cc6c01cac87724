// Spectators: connections to a game (a game stream or a WebSocket subscription) without a token
// that plays a side of it. Each replica counts those it serves; the game's JSON and its gameState
// carry "spectators" as counted by the replica that wrote them (so a new count shows with the
// game's next change, or a read). With several replicas each counts its own spectators
// (docs/play.md, "Spectators").
//
// Thread-safety: every method from any thread; a lease may be dropped anywhere.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace outpost::server {

class SpectatorCounter {
  public:
    using Lease = std::shared_ptr<void>;

    // Counts one spectator of `gameId` until the lease goes.
    Lease join(const std::string& gameId);
    int count(const std::string& gameId) const;

  private:
    struct Core {
        mutable std::mutex mutex;
        std::unordered_map<std::string, int> counts;
    };

    std::shared_ptr<Core> core_ = std::make_shared<Core>();
};

}  // namespace outpost::server
