// The embedded default GameStore: one SQLite file (WAL mode) per server.
//
// Durability: every create/update is its own transaction, committed (and, with synchronous=FULL,
// fsynced) before the call returns, so the server acknowledges a move only once it is on disk.
// A `kill -9` or a power cut after the acknowledgement loses nothing.
//
// Concurrency: one connection guarded by a mutex. SQLite serialises writers anyway, and a game
// update is a single-row statement of microseconds plus the fsync, so a pool of connections would
// buy little. Compare-and-set is one `UPDATE ... WHERE id = ? AND version = ?`.
//
// Several processes may open the same file (SQLite's file locks and busy timeout keep them
// consistent), but events are not shared between processes: several replicas need Redis.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "store/game_store.h"
#include "store/presence_table.h"

namespace outpost::server {

struct SqliteStoreOptions {
    // The database file; created (and its missing folders) when absent.
    std::string path;
    // Finished games are deleted this long after their last change (zero: kept forever).
    std::chrono::seconds finishedRetention = kKeepFinishedForever;
    // Unfinished games are deleted this long after their last change (abandoned; zero: kept).
    std::chrono::seconds unfinishedRetention = kKeepForever;
    // How often a write also deletes the finished games past the retention (and at open).
    std::chrono::milliseconds pruneInterval{std::chrono::hours(1)};
    // How long a writer waits for another process's lock before the store reports Unavailable.
    std::chrono::milliseconds busyTimeout{5000};
};

class SqliteGameStore final : public GameStore {
  public:
    // Opens (creating the file and its folders when needed) the database; throws
    // std::runtime_error, naming the file and the reason, when it cannot be opened for writing.
    explicit SqliteGameStore(SqliteStoreOptions options);
    ~SqliteGameStore() override;
    SqliteGameStore(const SqliteGameStore&) = delete;
    SqliteGameStore& operator=(const SqliteGameStore&) = delete;

    StoreStatus create(const GameRecord& game) override;
    StoreReadResult get(std::string_view id) override;
    StoreManyResult getMany(const std::vector<std::string>& ids) override;
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override;
    std::uint64_t count() override;
    // After a failed operation, true only once a write works again (a probe row is rewritten).
    bool healthy() override;
    // Reviews live in tables of their own: game_reviews (one row per game, deleted when the
    // pruning deletes the game) and pasted_reviews (deleted after the unfinished retention).
    StoreStatus putGameReview(std::string_view gameId, const std::string& doc) override;
    StoreDocResult getGameReview(std::string_view gameId) override;
    StoreStatus putReview(std::string_view reviewId, const std::string& doc) override;
    StoreDocResult getReview(std::string_view reviewId) override;
    StoreManyResult runningClocks(std::int64_t untilMs, std::size_t limit) override;
    // Presence is kept in process memory, not in the file (store/presence_table.h): events are
    // not shared between processes either, and a heartbeat then costs no fsync.
    StoreStatus putPresence(std::string_view gameId, const PresenceEntry& entry) override {
        presence_.put(gameId, entry);
        return StoreStatus::Ok;
    }
    PresenceReadResult getPresence(std::string_view gameId) override {
        return presence_.get(gameId);
    }
    StoreStatus removePresence(std::string_view gameId) override {
        presence_.remove(gameId);
        return StoreStatus::Ok;
    }

    // Lobby seeks and chat lines (store/sqlite_lobby_store.cpp), in tables of their own (seeks,
    // chat_lines) made at their first use; a chat keeps the last lines of each game.
    using GameStore::createSeek;
    StoreStatus createSeek(const SeekDoc& seek, const SeekQuota& quota) override;
    SeekReadResult getSeek(std::string_view id) override;
    StoreStatus updateSeek(const SeekDoc& seek, std::uint64_t expectedVersion) override;
    SeekListResult openSeeks(std::int64_t nowMs, std::size_t limit) override;
    using GameStore::appendChat;
    StoreStatus appendChat(std::string_view gameId, const std::string& line, std::size_t keep,
                           const ChatQuota& quota) override;
    ChatReadResult chatLines(std::string_view gameId) override;
    // Idempotency keys (store/sqlite_lobby_store.cpp), in a table of their own (idempotency_keys)
    // made at its first use; the expired ones go at each claim.
    KeyClaimResult claimKey(std::string_view key, const std::string& doc, std::chrono::seconds keep,
                            std::int64_t nowMs) override;

    // Deletes finished games older than the retention, and unfinished ones older than theirs;
    // returns how many. Runs at open, and with
    // the first write after each pruneInterval, so a server that runs for months stays pruned.
    std::uint64_t pruneFinished();

  private:
    // Prepared statements, compiled once; each is reset after use.
    struct Statements {
        sqlite3_stmt* insert = nullptr;
        sqlite3_stmt* select = nullptr;
        sqlite3_stmt* update = nullptr;
        sqlite3_stmt* exists = nullptr;
        sqlite3_stmt* count = nullptr;
        sqlite3_stmt* prune = nullptr;
        sqlite3_stmt* pruneUnfinished = nullptr;
        sqlite3_stmt* putGameReview = nullptr;
        sqlite3_stmt* getGameReview = nullptr;
        sqlite3_stmt* putReview = nullptr;
        sqlite3_stmt* getReview = nullptr;
        sqlite3_stmt* pruneGameReviews = nullptr;
        sqlite3_stmt* prunePastedReviews = nullptr;
        sqlite3_stmt* runningClocks = nullptr;
        sqlite3_stmt* probe = nullptr;
    };
    // Finalizes the prepared statements and closes the connection.
    void close();
    void exec(const char* sql);
    // Ends a transaction that a failed statement left open. The caller holds mutex_.
    void rollBackIfOpenLocked();
    // Adds the running-clock deadline to a file of an earlier version, filled in for its games.
    void addClockDeadlineColumn();
    sqlite3_stmt* prepare(const char* sql);
    std::uint64_t pruneLocked();
    // Runs one prune statement with the cutoff `retention` ago (nothing when it is zero).
    std::uint64_t deleteOlderLocked(sqlite3_stmt* statement, std::chrono::seconds retention);
    // pruneLocked() when pruneInterval has passed since the last pruning.
    void pruneIfDueLocked();
    // The stored document of one game; Ok, NotFound or Unavailable. The caller holds mutex_.
    StoreStatus readDocLocked(std::string_view id, std::string* doc);
    // Reads column 0 of the one row `statement` (bound to `key`) returns.
    StoreDocResult readOneLocked(sqlite3_stmt* statement, std::string_view key);

    SqliteStoreOptions options_;
    std::mutex mutex_;
    sqlite3* db_ = nullptr;
    Statements statements_;
    std::chrono::steady_clock::time_point lastPrune_;
    // Whether the last write, and the last read, failed; cleared by one that works (or by the
    // write probe of healthy()).
    bool writesFailing_ = false;
    bool readsFailing_ = false;
    PresenceTable presence_;
    // Makes the lobby's tables once (store/sqlite_lobby_store.cpp). The caller holds mutex_.
    bool lobbyTablesLocked();
    bool lobbyTables_ = false;
};

}  // namespace outpost::server
