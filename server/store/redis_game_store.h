// The shared GameStore: games in Redis, so any replica can serve any game.
//
// Layout (prefix "outpost:" by default):
//   <prefix>game:<id>      hash {version, doc}: doc is the stored JSON of the GameRecord
//   <prefix>games:created  counter of games created (the `games` metric)
//   the game hash's field `review`: the game's review (so it expires with the game)
//   <prefix>review:<id>    string: the review of a pasted game (expires after the unfinished
//                          retention)
//   <prefix>presence:<id>  hash {replica: "white,black,whiteIdleMs,blackIdleMs,writtenAtMs"}:
//                          each replica's presence entry for the game (games/presence.h),
//                          writtenAtMs by Redis's TIME, expiring kPresenceKeep after its last
//                          write, deleted when the game ends
//   <prefix>seek:<id>      hash {version, doc}: a lobby seek, expiring at its expiresAtMs
//   <prefix>seeks          sorted set: the ids of the open seeks, by creation time
//   <prefix>seekclient:<k> sorted set: a client's open seeks, by live-until (the per-client count)
//   <prefix>chat:<id>      list: a game's chat lines, the last ones kept, expiring like an
//                          unfinished game (store/redis_lobby_store.cpp)
//   <prefix>idem:<key>     string: an idempotency key's document (games/idempotent_create.h),
//                          expiring a day after its first use
//   <prefix>clocks         sorted set: the ids of the games whose clock runs (or whose first
//                          move is owed), by deadline (epoch ms), kept by the same scripts that
//                          write the games
// Every write is one Lua script, so Redis applies it atomically: update() compares the stored
// version with the expected one and writes only when they match (a stale version gets
// VersionConflict, which the server answers with 409). The scripts are idempotent (replaying a
// write that was applied but whose reply was lost reports Ok), so a command that failed on a
// broken connection can safely be retried on a fresh one.
//
// Durability is Redis's: run it with `appendonly yes` (docker/compose.yaml uses
// `appendfsync always`, so an acknowledged move is on disk before the server answers). With a
// replica (Sentinel), a game write also waits for `replication.minAcks` replicas (WAIT) before
// it is answered Ok; fewer in time and it is answered Unavailable, although the primary has it
// (docs/deployment.md, "What a failover keeps").
// Every write sets the key's expiry: the finished retention once the game is finished, the
// unfinished retention while it goes on (so a game nobody touches for that long, abandoned,
// expires; each move pushes the expiry back). A retention of zero keeps those games (PERSIST).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "store/game_store.h"
#include "store/redis_connection.h"
#include "store/sentinel.h"

namespace outpost::server {

struct RedisStoreOptions {
    std::string url = "redis://127.0.0.1:6379";
    std::string keyPrefix = "outpost:";
    std::chrono::milliseconds timeout{2000};  // connect and per-command
    // Finished games are deleted this long after their last change (zero: kept forever).
    std::chrono::seconds finishedRetention = kKeepFinishedForever;
    // Unfinished games expire this long after their last change (each write sets the expiry
    // again, so only abandoned games go); zero keeps them forever.
    std::chrono::seconds unfinishedRetention = kKeepForever;
    // Where the primary is (Sentinel); null: the URL's Redis.
    std::shared_ptr<RedisPrimary> primary{};
    // What a game write (create, update) waits for before it is acknowledged; its minAcks and
    // maxLagSeconds are also the write guard set on the primary (RedisConnectionPool::guardWrites).
    ReplicationPolicy replication{};
};

class RedisGameStore final : public GameStore {
  public:
    // Throws std::invalid_argument when the URL is malformed. Does not need Redis to be up yet:
    // operations return Unavailable until it is.
    explicit RedisGameStore(RedisStoreOptions options);

    StoreStatus create(const GameRecord& game) override;
    StoreReadResult get(std::string_view id) override;
    // One round trip: a read-only script fetches the document of every key (HGET per key).
    StoreManyResult getMany(const std::vector<std::string>& ids) override;
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override;
    std::uint64_t count() override;
    bool healthy() override;
    std::optional<std::int64_t> storeTimeMs() override;
    FailoverCounters failoverCounters() override;
    StoreStatus putGameReview(std::string_view gameId, const std::string& doc) override;
    StoreDocResult getGameReview(std::string_view gameId) override;
    StoreStatus putReview(std::string_view reviewId, const std::string& doc) override;
    StoreDocResult getReview(std::string_view reviewId) override;
    // One round trip: a script reads the index and the documents of the games it names.
    StoreManyResult runningClocks(std::int64_t untilMs, std::size_t limit) override;
    // One round trip each: a script (HSET and EXPIRE), and HGETALL.
    StoreStatus putPresence(std::string_view gameId, const PresenceEntry& entry) override;
    PresenceReadResult getPresence(std::string_view gameId) override;
    // Lobby seeks and chat lines (store/redis_lobby_store.cpp): one script each.
    using GameStore::createSeek;
    StoreStatus createSeek(const SeekDoc& seek, const SeekQuota& quota) override;
    SeekReadResult getSeek(std::string_view id) override;
    StoreStatus updateSeek(const SeekDoc& seek, std::uint64_t expectedVersion) override;
    SeekListResult openSeeks(std::int64_t nowMs, std::size_t limit) override;
    using GameStore::appendChat;
    StoreStatus appendChat(std::string_view gameId, const std::string& line, std::size_t keep,
                           const ChatQuota& quota) override;
    ChatReadResult chatLines(std::string_view gameId) override;
    StoreStatus removePresence(std::string_view gameId) override;
    // Idempotency keys (store/redis_lobby_store.cpp): one script, <prefix>idem:<key> expiring
    // `keep` after the claim.
    KeyClaimResult claimKey(std::string_view key, const std::string& doc, std::chrono::seconds keep,
                            std::int64_t nowMs) override;

  private:
    std::string gameKey(std::string_view id) const;
    std::string clocksKey() const;
    // The expiry a write sets on the game's key (0: none).
    std::int64_t keepSeconds(const GameRecord& game) const;

    RedisStoreOptions options_;
    RedisConnectionPool pool_;
};

}  // namespace outpost::server
