// SqliteGameStore's lobby seeks, chat lines and idempotency keys (store/game_store.h). Rare writes
// next to the games': each statement is prepared when used, in the one connection, under its mutex.
#include <memory>

#include "store/sqlite_game_store.h"
#include "store/sqlite_text.h"

namespace outpost::server {

namespace {

struct Finalizer {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using Statement = std::unique_ptr<sqlite3_stmt, Finalizer>;

Statement prepareOnce(sqlite3* db, const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) != SQLITE_OK) {
        sqlite3_finalize(statement);
        return nullptr;
    }
    return Statement(statement);
}

// ?1 id, ?2 version, ?3 open, ?4 created_at, ?5 expires_at, ?6 doc, ?8 client_key, ?9 live_until.
void bindSeek(sqlite3_stmt* statement, const SeekDoc& seek) {
    bindText(statement, 1, seek.id);
    sqlite3_bind_int64(statement, 2, static_cast<sqlite3_int64>(seek.version));
    sqlite3_bind_int(statement, 3, seek.open ? 1 : 0);
    sqlite3_bind_int64(statement, 4, seek.createdAtMs);
    sqlite3_bind_int64(statement, 5, seek.expiresAtMs);
    bindText(statement, 6, seek.doc);
    bindText(statement, 8, seek.clientKey);
    sqlite3_bind_int64(statement, 9, seek.liveUntilMs);
}

}  // namespace

bool SqliteGameStore::lobbyTablesLocked() {
    if (lobbyTables_) return true;
    const char* sql =
        "CREATE TABLE IF NOT EXISTS seeks (id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
        "open INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, "
        "doc TEXT NOT NULL, client_key TEXT NOT NULL DEFAULT '', "
        "live_until INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX IF NOT EXISTS seeks_open ON seeks(created_at) WHERE open = 1;"
        "CREATE TABLE IF NOT EXISTS chat_lines (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
        "game_id TEXT NOT NULL, doc TEXT NOT NULL);"
        "CREATE INDEX IF NOT EXISTS chat_lines_by_game ON chat_lines(game_id, seq);"
        "CREATE TABLE IF NOT EXISTS idempotency_keys (key TEXT PRIMARY KEY, "
        "expires_at INTEGER NOT NULL, doc TEXT NOT NULL);";
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) return false;
    // A seeks table made before the per-client count had neither column: added (an error here
    // says the column is there already).
    sqlite3_exec(db_, "ALTER TABLE seeks ADD COLUMN client_key TEXT NOT NULL DEFAULT ''", nullptr,
                 nullptr, nullptr);
    sqlite3_exec(db_, "ALTER TABLE seeks ADD COLUMN live_until INTEGER NOT NULL DEFAULT 0", nullptr,
                 nullptr, nullptr);
    lobbyTables_ = true;
    return lobbyTables_;
}

StoreStatus SqliteGameStore::createSeek(const SeekDoc& seek, const SeekQuota& quota) {
    std::lock_guard lock(mutex_);
    if (!lobbyTablesLocked()) return StoreStatus::Unavailable;
    // Counted and made under the connection's mutex, in one statement: the insert happens only
    // while the client holds fewer open seeks than the quota (or the quota is 0).
    Statement statement = prepareOnce(
        db_,
        "INSERT INTO seeks(id, version, open, created_at, expires_at, doc, client_key, "
        "live_until) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?8, ?9 WHERE ?10 = 0 OR (SELECT COUNT(*) "
        "FROM seeks WHERE open = 1 AND client_key = ?8 AND live_until >= ?7 AND expires_at >= "
        "?7 AND id != ?1) < ?10 ON CONFLICT(id) DO NOTHING");
    if (!statement) return StoreStatus::Unavailable;
    bindSeek(statement.get(), seek);
    sqlite3_bind_int64(statement.get(), 7, quota.nowMs);
    sqlite3_bind_int64(statement.get(), 10, static_cast<sqlite3_int64>(quota.maxOpen));
    if (sqlite3_step(statement.get()) != SQLITE_DONE) return StoreStatus::Unavailable;
    if (sqlite3_changes(db_) == 1) return StoreStatus::Ok;
    Statement exists = prepareOnce(db_, "SELECT 1 FROM seeks WHERE id = ?1");
    if (!exists) return StoreStatus::Unavailable;
    bindText(exists.get(), 1, seek.id);
    return sqlite3_step(exists.get()) == SQLITE_ROW ? StoreStatus::AlreadyExists
                                                    : StoreStatus::LimitReached;
}

SeekReadResult SqliteGameStore::getSeek(std::string_view id) {
    std::lock_guard lock(mutex_);
    if (!lobbyTablesLocked()) return {StoreStatus::Unavailable, std::nullopt};
    Statement statement = prepareOnce(db_, "SELECT version, doc FROM seeks WHERE id = ?1");
    if (!statement) return {StoreStatus::Unavailable, std::nullopt};
    bindText(statement.get(), 1, id);
    const int rc = sqlite3_step(statement.get());
    if (rc == SQLITE_DONE) return {StoreStatus::NotFound, std::nullopt};
    if (rc != SQLITE_ROW) return {StoreStatus::Unavailable, std::nullopt};
    SeekDoc seek;
    seek.id = std::string(id);
    seek.version = static_cast<std::uint64_t>(sqlite3_column_int64(statement.get(), 0));
    seek.doc = columnText(statement.get(), 1);
    return {StoreStatus::Ok, std::move(seek)};
}

StoreStatus SqliteGameStore::updateSeek(const SeekDoc& seek, std::uint64_t expectedVersion) {
    std::lock_guard lock(mutex_);
    if (!lobbyTablesLocked()) return StoreStatus::Unavailable;
    Statement statement = prepareOnce(
        db_,
        "UPDATE seeks SET version = ?2, open = ?3, created_at = ?4, expires_at = ?5, doc = ?6, "
        "client_key = ?8, live_until = ?9 WHERE id = ?1 AND version = ?7");
    if (!statement) return StoreStatus::Unavailable;
    bindSeek(statement.get(), seek);
    sqlite3_bind_int64(statement.get(), 7, static_cast<sqlite3_int64>(expectedVersion));
    if (sqlite3_step(statement.get()) != SQLITE_DONE) return StoreStatus::Unavailable;
    if (sqlite3_changes(db_) == 1) return StoreStatus::Ok;
    Statement exists = prepareOnce(db_, "SELECT 1 FROM seeks WHERE id = ?1");
    if (!exists) return StoreStatus::Unavailable;
    bindText(exists.get(), 1, seek.id);
    return sqlite3_step(exists.get()) == SQLITE_ROW ? StoreStatus::VersionConflict
                                                    : StoreStatus::NotFound;
}

SeekListResult SqliteGameStore::openSeeks(std::int64_t nowMs, std::size_t limit) {
    std::lock_guard lock(mutex_);
    if (!lobbyTablesLocked()) return {StoreStatus::Unavailable, {}};
    // The seeks past their expiry go first (an index on expires_at is not worth it: the table
    // holds the lobby's seeks, a few hundred at most).
    Statement prune = prepareOnce(db_, "DELETE FROM seeks WHERE expires_at < ?1");
    if (!prune) return {StoreStatus::Unavailable, {}};
    sqlite3_bind_int64(prune.get(), 1, nowMs);
    if (sqlite3_step(prune.get()) != SQLITE_DONE) return {StoreStatus::Unavailable, {}};
    Statement statement = prepareOnce(
        db_, "SELECT id, version, doc FROM seeks WHERE open = 1 ORDER BY created_at LIMIT ?1");
    if (!statement) return {StoreStatus::Unavailable, {}};
    sqlite3_bind_int64(statement.get(), 1, static_cast<sqlite3_int64>(limit));
    SeekListResult result;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW) {
        SeekDoc seek;
        seek.id = columnText(statement.get(), 0);
        seek.version = static_cast<std::uint64_t>(sqlite3_column_int64(statement.get(), 1));
        seek.doc = columnText(statement.get(), 2);
        result.seeks.push_back(std::move(seek));
    }
    if (rc != SQLITE_DONE) return {StoreStatus::Unavailable, {}};
    return result;
}

StoreStatus SqliteGameStore::appendChat(std::string_view gameId, const std::string& line,
                                        std::size_t keep, const ChatQuota& quota) {
    std::lock_guard lock(mutex_);
    if (!lobbyTablesLocked()) return StoreStatus::Unavailable;
    // One statement counts the side's lines in the window and inserts, so servers sharing the
    // file never pass the bound either (a line that is not JSON counts for nobody).
    Statement insert = prepareOnce(
        db_,
        "INSERT INTO chat_lines(game_id, doc) SELECT ?1, ?2 WHERE ?3 = 0 OR (SELECT COUNT(*) "
        "FROM chat_lines WHERE game_id = ?1 AND json_valid(doc) AND json_extract(doc, '$.side') "
        "= ?4 AND json_extract(doc, '$.at') > ?5) < ?3");
    Statement trim = prepareOnce(
        db_,
        "DELETE FROM chat_lines WHERE game_id = ?1 AND seq NOT IN (SELECT seq FROM chat_lines "
        "WHERE game_id = ?1 ORDER BY seq DESC LIMIT ?2)");
    if (!insert || !trim) return StoreStatus::Unavailable;
    bindText(insert.get(), 1, gameId);
    bindText(insert.get(), 2, line);
    sqlite3_bind_int64(insert.get(), 3, static_cast<sqlite3_int64>(quota.maxLines));
    bindText(insert.get(), 4, quota.side);
    sqlite3_bind_int64(insert.get(), 5, quota.sinceMs);
    if (sqlite3_step(insert.get()) != SQLITE_DONE) return StoreStatus::Unavailable;
    if (sqlite3_changes(db_) == 0) return StoreStatus::LimitReached;
    bindText(trim.get(), 1, gameId);
    sqlite3_bind_int64(trim.get(), 2, static_cast<sqlite3_int64>(keep));
    if (sqlite3_step(trim.get()) != SQLITE_DONE) return StoreStatus::Unavailable;
    return StoreStatus::Ok;
}

ChatReadResult SqliteGameStore::chatLines(std::string_view gameId) {
    std::lock_guard lock(mutex_);
    if (!lobbyTablesLocked()) return {StoreStatus::Unavailable, {}};
    Statement statement =
        prepareOnce(db_, "SELECT doc FROM chat_lines WHERE game_id = ?1 ORDER BY seq");
    if (!statement) return {StoreStatus::Unavailable, {}};
    bindText(statement.get(), 1, gameId);
    ChatReadResult result;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW)
        result.lines.push_back(columnText(statement.get(), 0));
    if (rc != SQLITE_DONE) return {StoreStatus::Unavailable, {}};
    return result;
}

KeyClaimResult SqliteGameStore::claimKey(std::string_view key, const std::string& doc,
                                         std::chrono::seconds keep, std::int64_t nowMs) {
    std::lock_guard lock(mutex_);
    if (!lobbyTablesLocked()) return {};
    // The expired keys go first (a day's keys of one server: no index on expires_at needed).
    Statement prune = prepareOnce(db_, "DELETE FROM idempotency_keys WHERE expires_at <= ?1");
    Statement insert = prepareOnce(db_,
                                   "INSERT INTO idempotency_keys(key, expires_at, doc) "
                                   "VALUES(?1, ?2, ?3) ON CONFLICT(key) DO NOTHING");
    Statement held = prepareOnce(db_, "SELECT doc FROM idempotency_keys WHERE key = ?1");
    if (!prune || !insert || !held) return {};
    sqlite3_bind_int64(prune.get(), 1, nowMs);
    if (sqlite3_step(prune.get()) != SQLITE_DONE) return {};
    bindText(insert.get(), 1, key);
    sqlite3_bind_int64(insert.get(), 2,
                       nowMs + std::chrono::duration_cast<std::chrono::milliseconds>(keep).count());
    bindText(insert.get(), 3, doc);
    if (sqlite3_step(insert.get()) != SQLITE_DONE) return {};
    if (sqlite3_changes(db_) == 1) return {StoreStatus::Ok, true, doc};
    bindText(held.get(), 1, key);
    if (sqlite3_step(held.get()) != SQLITE_ROW) return {};
    return {StoreStatus::Ok, false, columnText(held.get(), 0)};
}

}  // namespace outpost::server
