// The games against the engine this replica is serving now: what new games are admitted by.
//
// A game is active from its creation, or from an engine reply this replica stored, until it ends
// or nothing happened in it for `idleAfter` (a player who left). Past the knee (docs/
// performance.md) a replica refuses new games once `limit` games are active, so the games it
// already runs keep their reply times; the pool's backlog (SearchPool::gameBacklog) is the
// second, reactive signal. The count is per replica: behind a load balancer a game whose moves
// land on several replicas is counted by each, which errs on the side of refusing.
//
// One client's games count up to a cap (its owner: the address that created it, when this
// replica saw that): a client that opens game after game and leaves them takes at most its share
// of the count, so it cannot lock everyone else out for `idleAfter`. Its further games are
// admitted (they are its own; real load still shows in the pool's backlog).
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

    // `owner`: the creating client's key, or empty when unknown here (kept if set before).
    void touch(const std::string& gameId, const std::string& owner = {},
               Clock::time_point now = Clock::now());
    void finished(const std::string& gameId);
    // Active games now (forgets the idle ones), each owner's counted up to `perOwnerCap` (0: no
    // cap). Games of no known owner count one each.
    std::size_t count(std::size_t perOwnerCap = 0, Clock::time_point now = Clock::now());

  private:
    struct Entry {
        Clock::time_point lastSeen;
        std::string owner;
    };
    const std::chrono::seconds idleAfter_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> games_;
};

}  // namespace outpost::server
