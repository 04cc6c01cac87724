// The games against the engine this replica is serving now: what new games are admitted by.
//
// A game is active from its creation, or from an engine reply this replica stored, until it ends
// or nothing happened in it for `idleAfter` (a player who left). Past the knee (docs/
// performance.md) a replica refuses new games once `limit` games are active, so the games it
// already runs keep their reply times; the pool's backlog (SearchPool::gameBacklog) is the
// second, reactive signal. The count is per replica: behind a load balancer a game whose moves
// land on several replicas is counted by each, which errs on the side of refusing.
//
// Thread-safety: every member may be called from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace outpost::server {

class ActiveGames {
  public:
    using Clock = std::chrono::steady_clock;

    explicit ActiveGames(std::chrono::seconds idleAfter) : idleAfter_(idleAfter) {}

    void touch(const std::string& gameId, Clock::time_point now = Clock::now());
    void finished(const std::string& gameId);
    // Active games now (forgets the idle ones).
    std::size_t count(Clock::time_point now = Clock::now());

  private:
    const std::chrono::seconds idleAfter_;
    std::mutex mutex_;
    std::unordered_map<std::string, Clock::time_point> lastSeen_;
};

}  // namespace outpost::server
