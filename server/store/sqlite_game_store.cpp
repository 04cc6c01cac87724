#include "store/sqlite_game_store.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "games/game_clock.h"
#include "store/clock_deadline.h"
#include "store/game_record_json.h"
#include "store/sqlite_text.h"

namespace outpost::server {

namespace {

struct StatementFinalizer {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
// A statement used once (at open), finalized whatever path the code takes.
using OneShotStatement = std::unique_ptr<sqlite3_stmt, StatementFinalizer>;

// Resets a prepared statement when the scope ends, whatever path the code took.
class StatementScope {
  public:
    explicit StatementScope(sqlite3_stmt* statement) : statement_(statement) {}
    ~StatementScope() {
        sqlite3_reset(statement_);
        sqlite3_clear_bindings(statement_);
    }
    StatementScope(const StatementScope&) = delete;
    StatementScope& operator=(const StatementScope&) = delete;

  private:
    sqlite3_stmt* statement_;
};

std::int64_t updatedAt(const GameRecord& game) {
    return game.updatedAtMs != 0 ? game.updatedAtMs : nowEpochMs();
}

// The columns every write sets, numbered alike in the INSERT and the UPDATE:
// ?1 id, ?2 version, ?3 status, ?4 updated_at, ?5 doc, ?7 clock_deadline (NULL: no running clock).
constexpr int kClockDeadlineParameter = 7;
void bindWrittenColumns(sqlite3_stmt* statement, const GameRecord& game, const std::string& doc) {
    bindText(statement, 1, game.id);
    sqlite3_bind_int64(statement, 2, static_cast<sqlite3_int64>(game.version));
    bindText(statement, 3, game.status);
    sqlite3_bind_int64(statement, 4, updatedAt(game));
    bindText(statement, 5, doc);
    if (const auto deadline = clockDeadlineMs(game)) {
        sqlite3_bind_int64(statement, kClockDeadlineParameter, *deadline);
    } else {
        sqlite3_bind_null(statement, kClockDeadlineParameter);
    }
}

}  // namespace

SqliteGameStore::SqliteGameStore(SqliteStoreOptions options) : options_(std::move(options)) {
    const std::filesystem::path folder = std::filesystem::path(options_.path).parent_path();
    std::error_code folderError;
    if (!folder.empty()) std::filesystem::create_directories(folder, folderError);
    if (folderError) {
        throw std::runtime_error("cannot create the folder '" + folder.string() +
                                 "' of SQLite database '" + options_.path +
                                 "': " + folderError.message());
    }
    int rc =
        sqlite3_open_v2(options_.path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        throw std::runtime_error("cannot open SQLite database '" + options_.path + "': " + message);
    }
    try {
        // SQLite opens a write-protected file read-only without a word; every move would fail.
        if (sqlite3_db_readonly(db_, "main") == 1) {
            throw std::runtime_error("SQLite database '" + options_.path +
                                     "' is read-only for this process");
        }
        sqlite3_busy_timeout(db_, static_cast<int>(options_.busyTimeout.count()));
        // WAL: readers do not block the writer, and a commit is one append to the log.
        exec("PRAGMA journal_mode=WAL");
        // FULL: the log is fsynced at every commit, so an acknowledged move survives a power cut,
        // not only a process crash (which NORMAL would already survive).
        exec("PRAGMA synchronous=FULL");
        exec(
            "CREATE TABLE IF NOT EXISTS games ("
            " id TEXT PRIMARY KEY,"
            " version INTEGER NOT NULL,"
            " status TEXT NOT NULL,"
            " created_at INTEGER NOT NULL,"
            " updated_at INTEGER NOT NULL,"
            " doc TEXT NOT NULL)");
        // Pruning reads finished games by age: a partial index holds exactly those, so the
        // DELETE touches only what it removes, however many ongoing games there are. (It
        // replaces the (status, updated_at) index of earlier versions, which `<>` cannot use.)
        exec("DROP INDEX IF EXISTS games_finished");
        exec(
            "CREATE INDEX IF NOT EXISTS games_finished_by_age ON games(updated_at)"
            " WHERE status <> 'ongoing'");
        // And abandoned games, by the age of their last change, the same way.
        exec(
            "CREATE INDEX IF NOT EXISTS games_unfinished_by_age ON games(updated_at)"
            " WHERE status = 'ongoing'");
        exec(
            "CREATE TABLE IF NOT EXISTS game_reviews ("
            " game_id TEXT PRIMARY KEY,"
            " doc TEXT NOT NULL)");
        exec(
            "CREATE TABLE IF NOT EXISTS pasted_reviews ("
            " id TEXT PRIMARY KEY,"
            " updated_at INTEGER NOT NULL,"
            " doc TEXT NOT NULL)");
        exec("CREATE INDEX IF NOT EXISTS pasted_reviews_by_age ON pasted_reviews(updated_at)");
        addClockDeadlineColumn();
        // One row that readiness rewrites after a failure, to learn whether writes work again.
        exec(
            "CREATE TABLE IF NOT EXISTS write_probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL)");
        // The running clocks by deadline: a replica re-arms the flag falls from it.
        exec(
            "CREATE INDEX IF NOT EXISTS games_running_clocks ON games(clock_deadline)"
            " WHERE clock_deadline IS NOT NULL");
        statements_.insert = prepare(
            "INSERT INTO games(id, version, status, updated_at, doc, created_at, clock_deadline)"
            " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        statements_.select = prepare("SELECT doc FROM games WHERE id = ?1");
        statements_.update = prepare(
            "UPDATE games SET version = ?2, status = ?3, updated_at = ?4, doc = ?5,"
            " clock_deadline = ?7 WHERE id = ?1 AND version = ?6");
        statements_.exists = prepare("SELECT 1 FROM games WHERE id = ?1");
        statements_.count = prepare("SELECT COUNT(*) FROM games");
        statements_.prune =
            prepare("DELETE FROM games WHERE status <> 'ongoing' AND updated_at < ?1");
        statements_.pruneUnfinished =
            prepare("DELETE FROM games WHERE status = 'ongoing' AND updated_at < ?1");
        statements_.putGameReview = prepare(
            "INSERT OR REPLACE INTO game_reviews(game_id, doc)"
            " SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)");
        statements_.getGameReview = prepare("SELECT doc FROM game_reviews WHERE game_id = ?1");
        statements_.putReview = prepare(
            "INSERT OR REPLACE INTO pasted_reviews(id, updated_at, doc) VALUES(?1, ?2, ?3)");
        statements_.getReview = prepare("SELECT doc FROM pasted_reviews WHERE id = ?1");
        statements_.pruneGameReviews = prepare(
            "DELETE FROM game_reviews WHERE NOT EXISTS"
            " (SELECT 1 FROM games WHERE games.id = game_reviews.game_id)");
        statements_.prunePastedReviews =
            prepare("DELETE FROM pasted_reviews WHERE updated_at < ?1");
        statements_.probe = prepare("INSERT OR REPLACE INTO write_probe(id, at) VALUES(1, ?1)");
        statements_.runningClocks = prepare(
            "SELECT doc FROM games WHERE clock_deadline IS NOT NULL AND clock_deadline <= ?1"
            " ORDER BY clock_deadline LIMIT ?2");
        pruneLocked();
    } catch (const std::runtime_error& error) {
        close();
        // Name the file: "database is locked" alone does not say which one, or that another
        // process holds it.
        const std::string what = error.what();
        if (what.find(options_.path) != std::string::npos) throw;
        throw std::runtime_error("SQLite database '" + options_.path + "': " + what);
    } catch (...) {
        close();
        throw;
    }
}

SqliteGameStore::~SqliteGameStore() {
    close();
}

void SqliteGameStore::close() {
    for (sqlite3_stmt* statement :
         {statements_.insert, statements_.select, statements_.update, statements_.exists,
          statements_.count, statements_.prune, statements_.pruneUnfinished,
          statements_.putGameReview, statements_.getGameReview, statements_.putReview,
          statements_.getReview, statements_.pruneGameReviews, statements_.prunePastedReviews,
          statements_.runningClocks, statements_.probe}) {
        sqlite3_finalize(statement);  // a no-op on the null of a statement never prepared
    }
    sqlite3_close(db_);
}

void SqliteGameStore::exec(const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error(std::string("SQLite: ") + sql + ": " + message);
    }
}

sqlite3_stmt* SqliteGameStore::prepare(const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr) !=
        SQLITE_OK) {
        throw std::runtime_error(std::string("SQLite: ") + sql + ": " + sqlite3_errmsg(db_));
    }
    return statement;
}

StoreStatus SqliteGameStore::create(const GameRecord& game) {
    const std::string doc = toStoredJson(game).dump();
    std::lock_guard lock(mutex_);
    sqlite3_stmt* statement = statements_.insert;
    {
        StatementScope scope(statement);
        bindWrittenColumns(statement, game, doc);
        sqlite3_bind_int64(statement, 6, game.createdAtMs != 0 ? game.createdAtMs : nowEpochMs());
        int rc = sqlite3_step(statement);
        if (rc == SQLITE_CONSTRAINT) return StoreStatus::AlreadyExists;
        writesFailing_ = rc != SQLITE_DONE;
        if (writesFailing_) {
            rollBackIfOpenLocked();
            return StoreStatus::Unavailable;
        }
    }
    pruneIfDueLocked();
    return StoreStatus::Ok;
}

StoreStatus SqliteGameStore::readDocLocked(std::string_view id, std::string* doc) {
    sqlite3_stmt* statement = statements_.select;
    StatementScope scope(statement);
    bindText(statement, 1, id);
    int rc = sqlite3_step(statement);
    if (rc == SQLITE_DONE) return StoreStatus::NotFound;
    readsFailing_ = rc != SQLITE_ROW;
    if (readsFailing_) return StoreStatus::Unavailable;
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    doc->assign(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, 0)));
    return StoreStatus::Ok;
}

StoreReadResult SqliteGameStore::get(std::string_view id) {
    std::string doc;
    StoreStatus status;
    {
        std::lock_guard lock(mutex_);
        status = readDocLocked(id, &doc);
    }
    if (status != StoreStatus::Ok) return {status, std::nullopt};
    std::optional<GameRecord> game = parseStoredGame(doc);
    if (!game) return {StoreStatus::Corrupt, std::nullopt};
    return {StoreStatus::Ok, std::move(game)};
}

StoreManyResult SqliteGameStore::getMany(const std::vector<std::string>& ids) {
    // One primary-key lookup per id under one lock; the documents are parsed outside it.
    std::vector<std::string> docs;
    {
        std::lock_guard lock(mutex_);
        for (const std::string& id : ids) {
            std::string doc;
            StoreStatus status = readDocLocked(id, &doc);
            if (status == StoreStatus::Unavailable) return {status, {}};
            if (status == StoreStatus::Ok) docs.push_back(std::move(doc));
        }
    }
    StoreManyResult result;
    for (const std::string& doc : docs) {
        std::optional<GameRecord> game = parseStoredGame(doc);
        if (game) result.games.push_back(std::move(*game));  // a damaged one is left out
    }
    return result;
}

StoreStatus SqliteGameStore::update(const GameRecord& game, std::uint64_t expectedVersion) {
    const std::string doc = toStoredJson(game).dump();
    std::lock_guard lock(mutex_);
    {
        sqlite3_stmt* statement = statements_.update;
        StatementScope scope(statement);
        bindWrittenColumns(statement, game, doc);
        sqlite3_bind_int64(statement, 6, static_cast<sqlite3_int64>(expectedVersion));
        int rc = sqlite3_step(statement);
        writesFailing_ = rc != SQLITE_DONE;
        if (writesFailing_) {
            rollBackIfOpenLocked();
            return StoreStatus::Unavailable;
        }
        if (sqlite3_changes(db_) == 1) {
            pruneIfDueLocked();
            return StoreStatus::Ok;
        }
    }
    // No row changed: either the game does not exist or its version moved on.
    sqlite3_stmt* statement = statements_.exists;
    StatementScope scope(statement);
    bindText(statement, 1, game.id);
    int rc = sqlite3_step(statement);
    if (rc == SQLITE_ROW) return StoreStatus::VersionConflict;
    if (rc == SQLITE_DONE) return StoreStatus::NotFound;
    readsFailing_ = true;
    return StoreStatus::Unavailable;
}

void SqliteGameStore::addClockDeadlineColumn() {
    bool present = false;
    {
        OneShotStatement columns(prepare("PRAGMA table_info(games)"));
        constexpr int kNameColumn = 1;
        while (sqlite3_step(columns.get()) == SQLITE_ROW) {
            const auto* name =
                reinterpret_cast<const char*>(sqlite3_column_text(columns.get(), kNameColumn));
            if (name && std::string_view(name) == "clock_deadline") present = true;
        }
    }
    if (present) return;
    // A file of an earlier version: add the column, and fill it for the games it has, in one
    // transaction (all or nothing).
    exec("BEGIN IMMEDIATE");
    try {
        exec("ALTER TABLE games ADD COLUMN clock_deadline INTEGER");
        OneShotStatement ongoing(prepare("SELECT id, doc FROM games WHERE status = 'ongoing'"));
        OneShotStatement set(prepare("UPDATE games SET clock_deadline = ?2 WHERE id = ?1"));
        while (sqlite3_step(ongoing.get()) == SQLITE_ROW) {
            const auto* doc = reinterpret_cast<const char*>(sqlite3_column_text(ongoing.get(), 1));
            std::optional<GameRecord> game = parseStoredGame(std::string_view(
                doc, static_cast<std::size_t>(sqlite3_column_bytes(ongoing.get(), 1))));
            const auto deadline = game ? clockDeadlineMs(*game) : std::nullopt;
            if (!deadline) continue;
            sqlite3_bind_value(set.get(), 1, sqlite3_column_value(ongoing.get(), 0));
            sqlite3_bind_int64(set.get(), 2, *deadline);
            const int rc = sqlite3_step(set.get());
            sqlite3_reset(set.get());
            if (rc != SQLITE_DONE) {
                throw std::runtime_error(std::string("SQLite: filling clock_deadline: ") +
                                         sqlite3_errmsg(db_));
            }
        }
        ongoing.reset();
        set.reset();
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

StoreManyResult SqliteGameStore::runningClocks(std::int64_t untilMs, std::size_t limit) {
    std::vector<std::string> docs;
    {
        std::lock_guard lock(mutex_);
        sqlite3_stmt* statement = statements_.runningClocks;
        StatementScope scope(statement);
        sqlite3_bind_int64(statement, 1, untilMs);
        sqlite3_bind_int64(statement, 2, static_cast<sqlite3_int64>(limit));
        int rc;
        while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
            docs.emplace_back(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, 0)));
        }
        if (rc != SQLITE_DONE) return {StoreStatus::Unavailable, {}};
    }
    StoreManyResult result;
    for (const std::string& doc : docs) {
        std::optional<GameRecord> game = parseStoredGame(doc);
        if (game) result.games.push_back(std::move(*game));
    }
    return result;
}

std::uint64_t SqliteGameStore::count() {
    std::lock_guard lock(mutex_);
    sqlite3_stmt* statement = statements_.count;
    StatementScope scope(statement);
    if (sqlite3_step(statement) != SQLITE_ROW) return 0;
    return static_cast<std::uint64_t>(sqlite3_column_int64(statement, 0));
}

bool SqliteGameStore::healthy() {
    std::lock_guard lock(mutex_);
    if (!writesFailing_ && !readsFailing_) return true;
    // The last write (or read) failed: a full disk, a lock held too long, an I/O error. A read
    // that works since says nothing about writes, and a replica that is not ready gets no
    // requests, so readiness cannot wait for a move to succeed: it tries a write of its own,
    // and is ready again as soon as that works.
    sqlite3_stmt* statement = statements_.probe;
    StatementScope scope(statement);
    sqlite3_bind_int64(statement, 1, nowEpochMs());
    writesFailing_ = sqlite3_step(statement) != SQLITE_DONE;
    readsFailing_ = writesFailing_;
    rollBackIfOpenLocked();
    return !writesFailing_;
}

void SqliteGameStore::rollBackIfOpenLocked() {
    // SQLite may leave the transaction of a failed statement open (SQLITE_FULL, SQLITE_IOERR):
    // end it, so the next statement starts clean and the file keeps only what was committed.
    if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

std::uint64_t SqliteGameStore::pruneFinished() {
    std::lock_guard lock(mutex_);
    return pruneLocked();
}

void SqliteGameStore::pruneIfDueLocked() {
    if (std::chrono::steady_clock::now() - lastPrune_ >= options_.pruneInterval) pruneLocked();
}

std::uint64_t SqliteGameStore::pruneLocked() {
    lastPrune_ = std::chrono::steady_clock::now();
    const std::uint64_t games =
        deleteOlderLocked(statements_.prune, options_.finishedRetention) +
        deleteOlderLocked(statements_.pruneUnfinished, options_.unfinishedRetention);
    // A game's review goes with the game; a pasted game's review lives as long as an unfinished
    // game.
    {
        StatementScope scope(statements_.pruneGameReviews);
        sqlite3_step(statements_.pruneGameReviews);
    }
    deleteOlderLocked(statements_.prunePastedReviews, options_.unfinishedRetention);
    return games;
}

StoreDocResult SqliteGameStore::readOneLocked(sqlite3_stmt* statement, std::string_view key) {
    StatementScope scope(statement);
    bindText(statement, 1, key);
    int rc = sqlite3_step(statement);
    if (rc == SQLITE_DONE) return {StoreStatus::NotFound, {}};
    readsFailing_ = rc != SQLITE_ROW;
    if (readsFailing_) return {StoreStatus::Unavailable, {}};
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    return {StoreStatus::Ok,
            std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, 0)))};
}

StoreStatus SqliteGameStore::putGameReview(std::string_view gameId, const std::string& doc) {
    std::lock_guard lock(mutex_);
    sqlite3_stmt* statement = statements_.putGameReview;
    StatementScope scope(statement);
    bindText(statement, 1, gameId);
    bindText(statement, 2, doc);
    int rc = sqlite3_step(statement);
    writesFailing_ = rc != SQLITE_DONE;
    if (writesFailing_) {
        rollBackIfOpenLocked();
        return StoreStatus::Unavailable;
    }
    return sqlite3_changes(db_) == 0 ? StoreStatus::NotFound : StoreStatus::Ok;
}

StoreDocResult SqliteGameStore::getGameReview(std::string_view gameId) {
    std::lock_guard lock(mutex_);
    return readOneLocked(statements_.getGameReview, gameId);
}

StoreStatus SqliteGameStore::putReview(std::string_view reviewId, const std::string& doc) {
    std::lock_guard lock(mutex_);
    {
        sqlite3_stmt* statement = statements_.putReview;
        StatementScope scope(statement);
        bindText(statement, 1, reviewId);
        sqlite3_bind_int64(statement, 2, nowEpochMs());
        bindText(statement, 3, doc);
        int rc = sqlite3_step(statement);
        writesFailing_ = rc != SQLITE_DONE;
        if (writesFailing_) {
            rollBackIfOpenLocked();
            return StoreStatus::Unavailable;
        }
    }
    pruneIfDueLocked();
    return StoreStatus::Ok;
}

StoreDocResult SqliteGameStore::getReview(std::string_view reviewId) {
    std::lock_guard lock(mutex_);
    return readOneLocked(statements_.getReview, reviewId);
}

std::uint64_t SqliteGameStore::deleteOlderLocked(sqlite3_stmt* statement,
                                                 std::chrono::seconds retention) {
    if (retention <= kKeepForever) return 0;
    const std::int64_t cutoff =
        nowEpochMs() - std::chrono::duration_cast<std::chrono::milliseconds>(retention).count();
    StatementScope scope(statement);
    sqlite3_bind_int64(statement, 1, cutoff);
    if (sqlite3_step(statement) != SQLITE_DONE) return 0;
    return static_cast<std::uint64_t>(sqlite3_changes(db_));
}

}  // namespace outpost::server
