// Presence: whether each side of a game has a live connection (a WebSocket subscribed with that
// side's player token, or an open game stream with it), across replicas, and for how long a side
// of a game between people has been gone (docs/play.md).
//
// Each replica counts the connections it holds per game and side, and reports them to the store
// as its own PresenceEntry (GameStore::putPresence): when a side's count there goes from 0 to 1 or
// back, and on a heartbeat while any connection lives. An entry's live side counts only while its
// last heartbeat is younger than three heartbeats, so the sides a dead replica held are gone
// after at most that long, with no message from it; the time of that last heartbeat is when they
// were last seen. Any replica computes a game's presence from the entries of all (one store
// read), for the game's JSON and for claims; a change a replica notices (a join, a leave, an
// entry that expired) is published on the bus as a {"type":"presence"} message, so subscribers
// on every replica learn it without a move.
//
// Thread-safety: every method from any thread. join(), read() and the heartbeat read and write
// the store: call them off the I/O threads (the store executor, the heartbeat's own thread). A
// lease may be dropped anywhere: the store write it causes is posted to the store executor.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "games/clock_sweep.h"
#include "store/game_store.h"

namespace outpost::server {

class Logger;

// A live side's entry counts while its last heartbeat is younger than this many heartbeats.
inline constexpr int kPresenceHeartbeatsToLive = 3;

struct PresenceTiming {
    std::int64_t heartbeatMs = 10000;  // --presence-heartbeat
    std::int64_t graceMs = 60000;      // --player-gone-grace
    std::int64_t liveMs() const { return heartbeatMs * kPresenceHeartbeatsToLive; }
};

// The presence of `game` at nowMs from every replica's entry (pure; see the header comment):
// the engine's side is always present; a side of an ongoing game between people that is not is
// gone since the latest of: when it was last seen, the game's creation, its own last move; the
// other side may claim from goneSince + grace once both sides have moved.
GamePresence presenceView(const GameRecord& game, const std::vector<PresenceEntry>& entries,
                          std::int64_t nowMs, const PresenceTiming& timing);

// Adds "presence": {white, black} and, when a side is gone, "gone": {"<side>": {sinceMs,
// claimableAtMs?}} to a game's JSON.
void addPresenceFields(nlohmann::json& json, const GamePresence& presence);

// The {"type":"presence", gameId, version, presence, gone} message subscribers get when only
// presence changed.
std::string presenceMessage(const GameRecord& game, const GamePresence& presence);

// Whether the other side may claim against `side` (white: true) now: gone, and past the grace.
bool claimable(const GamePresence& presence, bool white, std::int64_t nowMs);

class PresenceTracker {
  public:
    // Runs a task off the caller's thread (the store executor).
    using Post = std::function<void(std::function<void()>)>;
    // Ends one connection's presence when the last copy goes.
    using Lease = std::shared_ptr<void>;

    PresenceTracker(std::shared_ptr<GameStore> store, std::shared_ptr<GameEventBus> bus,
                    Logger& logger, PresenceTiming timing, Post post);
    ~PresenceTracker();
    PresenceTracker(const PresenceTracker&) = delete;
    PresenceTracker& operator=(const PresenceTracker&) = delete;

    // A connection to `game` (as just read) with `token`: counts it for the side the token plays
    // (both, for a game whose one token plays both), reports a change and publishes it. Nullptr
    // for a spectator (no token, or one that plays no side of the game): nobody's presence.
    Lease join(const GameRecord& game, const std::optional<std::string>& token);

    // The presence of `game` now; nullopt when the store cannot tell (it failed).
    std::optional<GamePresence> read(const GameRecord& game);

    // Reports every game with a live connection here, and publishes what changed meanwhile
    // (another replica's entry expired). The heartbeat's thread calls it; tests may too.
    void heartbeat();
    // Ends the heartbeat; later leases only count down. Idempotent.
    void stop();

    const PresenceTiming& timing() const { return timing_; }

  private:
    struct Local {
        int white = 0;  // connections of each side held here
        int black = 0;
        std::int64_t whiteSeenAtMs = 0;
        std::int64_t blackSeenAtMs = 0;
        std::optional<GamePresence> published;  // what this replica last published
    };
    // What a lease shares with the tracker, so one outliving it does nothing.
    struct Core {
        std::mutex mutex;
        bool closed = false;
        std::unordered_map<std::string, Local> games;
        Post post;
    };
    class Connection;

    // Writes this replica's entry for gameId, then publishes the game's presence if it changed.
    void flush(const std::string& gameId);

    const std::shared_ptr<GameStore> store_;
    const std::shared_ptr<GameEventBus> bus_;
    Logger& logger_;
    const PresenceTiming timing_;
    const std::string replica_;  // this replica's id in the entries (random, per process)
    const std::shared_ptr<Core> core_;
    // One flush at a time, so this replica's entry is written in the order its changes happen.
    std::mutex flushMutex_;
    ClockSweep beat_;
};

}  // namespace outpost::server
