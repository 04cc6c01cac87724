// Presence: the signs of life of each side of a game, across replicas, and for how long a side
// of a game between people has shown none (docs/play.md).
//
// Evidence, not guesses: a side is seen when it holds a live connection (a WebSocket subscribed
// with that side's player token, or an open game stream with it) and whenever it makes any
// request with its token (a move, an offer, an answer, a claim, a takeback, a resignation). Each
// replica reports what it saw to the store as its own PresenceEntry (GameStore::putPresence): on
// a join or a leave, on a request, and on a heartbeat while any connection lives.
//
// One clock: an entry says how long before its write the replica last saw each side (measured on
// the replica's own steady clock), and the store stamps the write with its own clock (Redis's
// TIME; the process's clock in memory and SQLite), so a reader learns each entry's age on the
// store's clock. "Last seen" is never a wall-clock time of one replica compared with another's:
// a replica whose clock is off makes nobody look present or gone. An entry's live side counts
// while the entry is younger than three heartbeats, so the sides a dead replica held are gone
// after at most that long, last seen at its last write.
//
// Claims: a side that is not present may be claimed against once both sides have moved and its
// last sign of life is older than the grace. A side with no recorded sign of life (its replica
// could not write presence, or the store lost it) is never claimable: missing evidence is not
// evidence of absence. Entries of ended or missing games are removed.
//
// Any replica computes a game's presence from the entries of all (one store read), for the game's
// JSON and for claims; a change a replica notices (a join, a leave, an entry that expired) is
// published on the bus as a {"type":"presence"} message, so subscribers on every replica learn
// it without a move.
//
// Thread-safety: every method from any thread. join(), seen(), read(), forget() and the heartbeat
// read and write the store: call them off the I/O threads (the store executor, the heartbeat's own
// thread). A lease may be dropped anywhere: the store write it causes is posted to the store
// executor.
#pragma once

#include <atomic>
#include <chrono>
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
#include "ops/cluster_clock.h"
#include "store/game_store.h"

namespace outpost::server {

class Logger;

// A live side's entry counts while it is younger than this many heartbeats.
inline constexpr int kPresenceHeartbeatsToLive = 3;

struct PresenceTiming {
    std::int64_t heartbeatMs = 10000;  // --presence-heartbeat
    std::int64_t graceMs = 60000;      // --player-gone-grace
    std::int64_t liveMs() const { return heartbeatMs * kPresenceHeartbeatsToLive; }
};

// The presence of `game` from every replica's entry (pure; see the header comment). Ages are on
// the store's clock; `wallNowMs` (the reader's wall clock) only turns them into the times shown
// to clients. The engine's side is always present.
GamePresence presenceView(const GameRecord& game, const std::vector<PresenceEntry>& entries,
                          std::int64_t wallNowMs, const PresenceTiming& timing);

// Adds "presence": {white, black} and, when a side is gone, "gone": {"<side>": {sinceMs?,
// claimableAtMs?}} to a game's JSON.
void addPresenceFields(nlohmann::json& json, const GamePresence& presence);

// The {"type":"presence", gameId, version, presence, gone} message subscribers get when only
// presence changed.
std::string presenceMessage(const GameRecord& game, const GamePresence& presence);

// Whether the other side may claim against `side` (white: true) now: gone, with a sign of life
// older than the grace.
bool claimable(const GamePresence& presence, bool white);

class PresenceTracker {
  public:
    // Runs a task off the caller's thread (the store executor).
    using Post = std::function<void(std::function<void()>)>;
    // Ends one connection's presence when the last copy goes.
    using Lease = std::shared_ptr<void>;

    PresenceTracker(std::shared_ptr<GameStore> store, std::shared_ptr<GameEventBus> bus,
                    Logger& logger, PresenceTiming timing, Post post, WallClock wallClock);
    ~PresenceTracker();
    PresenceTracker(const PresenceTracker&) = delete;
    PresenceTracker& operator=(const PresenceTracker&) = delete;

    // A connection to `game` (as just read) with `token`: counts it for the side the token plays
    // (both, for a game whose one token plays both), reports a change and publishes it. Nullptr
    // for a spectator (no token, or one that plays no side of the game): nobody's presence.
    Lease join(const GameRecord& game, const std::optional<std::string>& token);

    // A request of a side of the ongoing `game` (authenticated with its token): a sign of life,
    // reported to the store at once. False when the store did not take it.
    bool seen(const GameRecord& game, bool white, bool black);

    // The presence of `game` now; nullopt when the store cannot tell (it failed).
    std::optional<GamePresence> read(const GameRecord& game);

    // Whether a presence write of this replica failed within the last kBlindHeartbeats
    // heartbeats. The store was then out of reach, for the other replicas too, likely: their
    // players' entries aged while nobody could renew them, and stay old until each replica's
    // next heartbeat rewrites them. A claim judged on them now would take a player who never left
    // for gone, so claims wait (OfferService).
    bool blindRecently() const;

    // The game ended (or is gone): its entries are removed, and this replica reports on it no
    // more (its connections stay, uncounted).
    void forget(const std::string& gameId);

    // Reports every game with a live connection here (and any report that failed), and
    // publishes what changed meanwhile (another replica's entry expired). The heartbeat's thread
    // calls it; tests may too.
    void heartbeat();
    // Ends the heartbeat; later leases only count down. Idempotent.
    void stop();

    const PresenceTiming& timing() const { return timing_; }

    // Heartbeats after this replica's last failed presence write during which it judges no
    // claim: every replica has rewritten its entries by then.
    static constexpr std::int64_t kBlindHeartbeats = 3;

  private:
    using SteadyTime = std::chrono::steady_clock::time_point;
    struct Local {
        int white = 0;  // connections of each side held here
        int black = 0;
        std::optional<SteadyTime> whiteSeen;  // when this replica last saw each side
        std::optional<SteadyTime> blackSeen;
        bool unsent = false;                    // a report the store has not taken yet
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
    // When a presence write of this replica last failed (steady clock, ms; 0: never).
    std::atomic<std::int64_t> lastWriteFailureMs_{0};

    // Writes this replica's entry for gameId; with `publish`, then publishes the game's presence
    // if it changed. False when the store did not take the entry.
    bool flush(const std::string& gameId, bool publish);

    const std::shared_ptr<GameStore> store_;
    const std::shared_ptr<GameEventBus> bus_;
    Logger& logger_;
    const PresenceTiming timing_;
    const WallClock wallClock_;
    const std::string replica_;  // this replica's id in the entries (random, per process)
    const std::shared_ptr<Core> core_;
    // One flush at a time, so this replica's entry is written in the order its changes happen.
    std::mutex flushMutex_;
    ClockSweep beat_;
};

}  // namespace outpost::server
