// Where games live, and how their changes reach subscribers.
//
// GameStore is a versioned key-value store of GameRecords with compare-and-set updates: the
// server reads a game, computes the new state, and writes it only if nobody changed it in the
// meantime (version unchanged). Of two racing moves one wins; the other sees VersionConflict and
// the client gets 409. This is what lets several server replicas share one store (SQLite, Redis)
// without locks held across requests.
//
// GameEventBus carries "this game changed" and "the engine is thinking in this game" to every
// subscriber, on every replica (the Redis backend implements it with pub/sub; the in-memory one
// calls the handlers directly).
//
// Thread-safety: every method of both interfaces may be called from any thread, concurrently.
// Handlers run on a thread of the bus's choosing; they must not block (post to your own strand).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/game_record.h"

namespace outpost::server {

// Finished-game retention of every backend: how long a finished game is kept after its last
// change. Zero, the default, keeps finished games forever. Unfinished (ongoing) games have a
// retention of their own (abandoned games; the server's default is 30 days); zero keeps them.
inline constexpr std::chrono::seconds kKeepFinishedForever{0};
inline constexpr std::chrono::seconds kKeepForever{0};

enum class StoreStatus {
    Ok,
    NotFound,         // no game with that id
    AlreadyExists,    // create() with an id that is taken
    VersionConflict,  // update() lost a race: the stored version is not the expected one
    Unavailable,      // the backend failed (connection lost, disk error); the server answers 503
    Corrupt,          // the stored document cannot be read (not JSON, fields missing or mistyped)
    // A write reached the store but was not confirmed durable (too few replicas acknowledged it
    // in time): it may be kept or lost. The server publishes it as any state and answers 503
    // write_unconfirmed, so the client reads the game.
    Unconfirmed,
    // A write was sent but the store's answer never came (it hung, or was cut off after it got
    // the write): it may have been made, now or when the store resumes. The server answers 503
    // write_unconfirmed and publishes nothing; it reads the game again once the store answers,
    // and publishes the change then if it was made.
    Unanswered,
    // createSeek: the seek's client holds its most open seeks already (SeekQuota); appendChat:
    // the side has posted its most lines in the window (ChatQuota). Nothing made.
    LimitReached,
};

const char* toString(StoreStatus status);

struct StoreReadResult {
    StoreStatus status = StoreStatus::NotFound;
    std::optional<GameRecord> game;  // set when status is Ok
};

// A stored document that is not a game (a review), as the store keeps it: JSON text.
struct StoreDocResult {
    StoreStatus status = StoreStatus::NotFound;
    std::string doc;  // set when status is Ok
};

// One replica's report of the signs of life of a game's players it saw (games/presence.h): whether
// a side has a live connection there, and how long before this write the replica last saw that
// side (a connection, or any request made with its token), measured by the replica itself, so
// no replica's wall clock is ever compared with another's. Each replica writes only its own entry;
// the store stamps it with its own clock, and a read gives each entry's age on that one clock.
inline constexpr std::int64_t kNeverSeen = -1;
struct PresenceEntry {
    std::string replica;
    bool white = false;  // a live connection of that side held by the replica
    bool black = false;
    std::int64_t whiteIdleMs = kNeverSeen;  // last seen this long before the write; kNeverSeen
    std::int64_t blackIdleMs = kNeverSeen;
    // Set by getPresence (ignored by putPresence): how long ago, on the store's clock, the entry
    // was written.
    std::int64_t ageMs = 0;

    friend bool operator==(const PresenceEntry&, const PresenceEntry&) = default;
};

struct PresenceReadResult {
    StoreStatus status = StoreStatus::Ok;  // Ok (no entry is no error), or Unavailable
    std::vector<PresenceEntry> entries;    // one per replica that reported on the game
};

// How long a game's presence entries are kept after their last write: far beyond any grace
// time, so a game nobody follows any more leaves nothing behind.
inline constexpr std::chrono::hours kPresenceKeep{24};

// A lobby seek (lobby/seek.h) as the store keeps it: a small versioned document, opaque JSON to
// the store, replaced by compare-and-set like a game. `open` seeks are listed (openSeeks); the
// store may drop a seek after expiresAtMs (epoch ms). Reads fill id, version and doc only.
struct SeekDoc {
    std::string id;
    std::uint64_t version = 1;
    bool open = true;
    std::int64_t createdAtMs = 0;  // the list's order
    std::int64_t expiresAtMs = 0;
    std::string doc;
    // Whose seek it is (a hash of the seeker's address), and until when an open seek counts
    // against that client (its seeker was last seen then plus the grace, or its last moment):
    // createSeek's SeekQuota counts the client's open seeks by them.
    std::string clientKey;
    std::int64_t liveUntilMs = 0;
};

// createSeek's bound: the seek is made only while its client holds fewer than maxOpen open seeks
// whose liveUntilMs is not past at nowMs (0: no bound), counted and made in one atomic step, so
// racing requests on several replicas never make more.
struct SeekQuota {
    std::size_t maxOpen = 0;
    std::int64_t nowMs = 0;
};

// appendChat's bound: the line is kept only while `side` has fewer than maxLines kept lines whose
// "at" (a line's JSON: games/chat.h) is after sinceMs (0: no bound), counted and appended in one
// atomic step, so posts racing on several replicas never pass the bound.
struct ChatQuota {
    std::string side;
    std::size_t maxLines = 0;
    std::int64_t sinceMs = 0;
};

struct SeekReadResult {
    StoreStatus status = StoreStatus::NotFound;
    std::optional<SeekDoc> seek;  // set when status is Ok
};

struct SeekListResult {
    StoreStatus status = StoreStatus::Ok;  // Ok, or Unavailable
    std::vector<SeekDoc> seeks;            // open and not past their expiry, oldest first
};

// A game's chat lines (games/chat.h), oldest first: opaque JSON texts to the store.
struct ChatReadResult {
    StoreStatus status = StoreStatus::Ok;  // Ok (no line is no error), or Unavailable
    std::vector<std::string> lines;
};

// An idempotency key's claim (GameStore::claimKey): the document the key holds after the call.
struct KeyClaimResult {
    StoreStatus status = StoreStatus::Unavailable;  // Ok, or Unavailable
    bool claimed = false;  // `doc` is the one this call stored (the key was free)
    std::string doc;       // set when status is Ok: this call's, or the one stored before
};

// How long an idempotency key is remembered after its first use (games/idempotent_create.h).
inline constexpr std::chrono::hours kIdempotencyKeep{24};

struct StoreManyResult {
    StoreStatus status = StoreStatus::Ok;  // Ok, or Unavailable when the backend failed
    std::vector<GameRecord> games;         // the games found, in the order their ids were asked
};

class GameStore {
  public:
    virtual ~GameStore() = default;

    // Inserts a new game (its version is stored as given, normally 1).
    virtual StoreStatus create(const GameRecord& game) = 0;

    virtual StoreReadResult get(std::string_view id) = 0;

    // The games among `ids` that exist (unknown or expired ids are simply absent, and so are
    // stored documents that cannot be read), in the order of `ids`; the caller removes
    // duplicates. One keyed lookup per id, never a scan of all
    // games: the cost depends on how many ids are asked (the API bounds it), not on how many
    // games are stored. This is how a client lists its recent games (GET /api/v1/games?ids=).
    virtual StoreManyResult getMany(const std::vector<std::string>& ids) = 0;

    // Compare-and-set: replaces the stored game with `game` only if the stored version equals
    // expectedVersion. `game.version` must be expectedVersion + 1 (the caller bumps it).
    virtual StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) = 0;

    // Number of stored games (for the `outpost_games` metric; may be approximate).
    virtual std::uint64_t count() = 0;

    // True when the backend can serve requests (for /readyz).
    virtual bool healthy() { return true; }

    // The store's own clock (epoch ms), when every replica shares it (Redis's TIME); none for a
    // store of one replica, or when it cannot be read now.
    virtual std::optional<std::int64_t> storeTimeMs() { return std::nullopt; }

    // A replicated store's failover counters (the outpost_redis_* metrics); zero elsewhere.
    struct FailoverCounters {
        std::uint64_t primaryChanges = 0;      // moves to a new primary (Sentinel)
        std::uint64_t replicaAckFailures = 0;  // writes answered Unconfirmed: too few acks
        std::uint64_t unreplicatedWrites = 0;  // acknowledged with fewer replicas than asked
        std::uint64_t guardRefusals = 0;       // refused unwritten: too few replicas in sync
    };
    virtual FailoverCounters failoverCounters() { return {}; }

    // Reviews (docs/review.md). A game keeps one review, the latest reviewed version's, which
    // replaces the one before; it is deleted with the game (pruned, expired). putGameReview()
    // answers NotFound when the game does not exist (any more). The documents are opaque JSON
    // text to the store. The defaults keep nothing (Unavailable), for stores that have no place
    // for reviews.
    virtual StoreStatus putGameReview(std::string_view /*gameId*/, const std::string& /*doc*/) {
        return StoreStatus::Unavailable;
    }
    virtual StoreDocResult getGameReview(std::string_view /*gameId*/) {
        return {StoreStatus::Unavailable, {}};
    }
    // Reviews of games that are not stored (pasted PGN), by review id; kept as long as an
    // unfinished game (the unfinished retention) after they were written.
    virtual StoreStatus putReview(std::string_view /*reviewId*/, const std::string& /*doc*/) {
        return StoreStatus::Unavailable;
    }
    virtual StoreDocResult getReview(std::string_view /*reviewId*/) {
        return {StoreStatus::Unavailable, {}};
    }

    // Presence (games/presence.h): replaces `entry.replica`'s entry for the game, stamped with the
    // store's clock, and reads every replica's with its age on that clock. Entries are small and
    // separate from the game, so a heartbeat never changes the game's version; they expire
    // kPresenceKeep after their last write. The defaults keep nothing (Unavailable): nobody is ever
    // present there.
    virtual StoreStatus putPresence(std::string_view /*gameId*/, const PresenceEntry& /*entry*/) {
        return StoreStatus::Unavailable;
    }
    virtual PresenceReadResult getPresence(std::string_view /*gameId*/) {
        return {StoreStatus::Unavailable, {}};
    }
    // Removes every replica's entry of a game (it ended, or is gone).
    virtual StoreStatus removePresence(std::string_view /*gameId*/) { return StoreStatus::Ok; }

    // Lobby seeks (lobby/seek_service.h). createSeek: AlreadyExists when the id is taken,
    // LimitReached when `quota` refuses it (the store counts the client's open seeks);
    // updateSeek: compare-and-set as update() (`seek.version` is expectedVersion + 1), NotFound
    // once the seek is gone; openSeeks: the open seeks not past their expiry at nowMs, oldest
    // first, at most `limit` (an index of open seeks, never a scan of all). The defaults keep
    // nothing (Unavailable).
    StoreStatus createSeek(const SeekDoc& seek) { return createSeek(seek, SeekQuota{}); }
    virtual StoreStatus createSeek(const SeekDoc& /*seek*/, const SeekQuota& /*quota*/) {
        return StoreStatus::Unavailable;
    }
    virtual SeekReadResult getSeek(std::string_view /*id*/) {
        return {StoreStatus::Unavailable, std::nullopt};
    }
    virtual StoreStatus updateSeek(const SeekDoc& /*seek*/, std::uint64_t /*expectedVersion*/) {
        return StoreStatus::Unavailable;
    }
    virtual SeekListResult openSeeks(std::int64_t /*nowMs*/, std::size_t /*limit*/) {
        return {StoreStatus::Unavailable, {}};
    }

    // A game's chat (games/chat.h): appends one line and keeps the last `keep` (LimitReached,
    // nothing appended, when `quota` refuses it); reads them, oldest first. Lines are kept apart
    // from the game (a line never changes its version). The defaults keep nothing (Unavailable).
    StoreStatus appendChat(std::string_view gameId, const std::string& line, std::size_t keep) {
        return appendChat(gameId, line, keep, ChatQuota{});
    }
    virtual StoreStatus appendChat(std::string_view /*gameId*/, const std::string& /*line*/,
                                   std::size_t /*keep*/, const ChatQuota& /*quota*/) {
        return StoreStatus::Unavailable;
    }
    virtual ChatReadResult chatLines(std::string_view /*gameId*/) {
        return {StoreStatus::Unavailable, {}};
    }

    // Idempotency keys (games/idempotent_create.h): stores `doc` under `key` unless the key holds
    // a document already, atomically (of two racing claims one stores its own, the other reads
    // it), and answers the document the key holds. A key is kept `keep` after its claim (on the
    // store's clock, or nowMs, epoch ms, for a store without one), then free again. The default
    // keeps nothing (Unavailable): a creation that names a key is then refused, 503.
    virtual KeyClaimResult claimKey(std::string_view key, const std::string& doc,
                                    std::chrono::seconds keep, std::int64_t nowMs) {
        (void)key;
        (void)doc;
        (void)keep;
        (void)nowMs;
        return {};
    }

    // Ongoing games whose clock deadline (a running clock's flag fall, or a first move owed
    // before the clocks start: clockDeadlineMs, store/clock_deadline.h) falls by untilMs (epoch
    // ms), soonest first, at most `limit`: the clocks a replica re-arms at start and on each
    // sweep, so a flag still falls when the replica that watched it died. Read
    // from an index of running clocks by deadline, never a scan of all games. Default: none.
    virtual StoreManyResult runningClocks(std::int64_t untilMs, std::size_t limit) {
        (void)untilMs;
        (void)limit;
        return {};
    }
};

// What subscribers receive. `payload` is the complete JSON message to forward to clients
// (a {"type":"game",...} or {"type":"info","gameId",...} object), serialised once by the
// replica that produced it, so other replicas forward it without re-deriving anything.
struct GameEvent {
    // Presence: who is connected changed, the game did not (games/presence.h); the payload is a
    // {"type":"presence",...} message, forwarded whatever the version.
    enum class Kind { GameChanged, EngineInfo, Presence };
    Kind kind = Kind::GameChanged;
    std::string gameId;
    std::uint64_t version = 0;  // the game's version the event belongs to
    std::string payload;
};

class GameEventBus {
  public:
    using Handler = std::function<void(const GameEvent&)>;
    using SubscriptionId = std::uint64_t;

    virtual ~GameEventBus() = default;

    // Delivers every later event of gameId to handler until unsubscribe(). Never returns 0.
    virtual SubscriptionId subscribe(const std::string& gameId, Handler handler) = 0;
    // After it returns, the handler is not called again (a call in progress may still finish).
    virtual void unsubscribe(SubscriptionId id) = 0;
    virtual void publish(const GameEvent& event) = 0;

    // Events published while a bus was cut off (Redis down or out of reach) are lost: pub/sub
    // does not replay them. A bus that could lose events calls `resync` with each game it
    // subscribed to again after such a gap, once the subscription is confirmed, so the server
    // can send the game as stored. Called with the bus's lock held: it must only hand the work
    // on. An empty function stops the calls (after it returns, none is under way). The
    // in-process bus loses nothing and never calls it.
    using Resync = std::function<void(const std::string& gameId)>;
    virtual void onResync(Resync resync) { (void)resync; }
};

}  // namespace outpost::server
