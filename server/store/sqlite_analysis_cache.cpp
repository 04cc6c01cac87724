#include "store/sqlite_analysis_cache.h"

#include <initializer_list>
#include <stdexcept>
#include <string_view>

#include "store/sqlite_text.h"

namespace outpost::server {

namespace {

// analysis_slots (without made_at) held slots of an older rule: dropped, they are only
// searched again.
constexpr const char* kSchema = R"sql(
DROP TABLE IF EXISTS analysis_slots;
CREATE TABLE IF NOT EXISTS analysis_slots_v2 (
  position TEXT NOT NULL, multipv INTEGER NOT NULL, depth INTEGER NOT NULL, doc TEXT NOT NULL,
  made_at INTEGER NOT NULL, PRIMARY KEY (position, multipv)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analysis_recency (position TEXT PRIMARY KEY, used INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS analysis_recency_used ON analysis_recency (used);
)sql";

// The next tick of the use counter (the index makes max() one lookup).
constexpr std::string_view kNextUse = "(SELECT coalesce(max(used), 0) + 1 FROM analysis_recency)";
// The positions beyond the capacity (?1), least recently used first.
constexpr std::string_view kEvicted =
    "(SELECT position FROM analysis_recency ORDER BY used LIMIT max(0, (SELECT count(*) FROM "
    "analysis_recency) - ?1))";

std::string concat(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view part : parts) out += part;
    return out;
}

// Binds text that outlives the statement's use (SQLITE_TRANSIENT would copy it).
// Runs a statement that returns no rows and resets it; true when it worked.
bool step(sqlite3_stmt* statement) {
    const int status = sqlite3_step(statement);
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    return status == SQLITE_DONE;
}

}  // namespace

SqliteAnalysisCache::SqliteAnalysisCache(SqliteAnalysisCacheOptions options)
    : options_(std::move(options)) {
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(options_.path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        const std::string reason = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error("cannot open the analysis cache in " + options_.path + ": " +
                                 reason);
    }
    sqlite3_busy_timeout(db_, static_cast<int>(options_.busyTimeout.count()));
    if (!exec("PRAGMA synchronous=OFF") || !exec(kSchema)) {
        const std::string reason = sqlite3_errmsg(db_);
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error("cannot create the analysis cache tables in " + options_.path +
                                 ": " + reason);
    }
    statements_.selectSlots =
        prepare("SELECT multipv, depth, doc, made_at FROM analysis_slots_v2 WHERE position = ?1");
    statements_.touch =
        prepare(concat({"UPDATE analysis_recency SET used = ", kNextUse, " WHERE position = ?1"}));
    statements_.deleteSlots = prepare("DELETE FROM analysis_slots_v2 WHERE position = ?1");
    statements_.insertSlot = prepare(
        "INSERT INTO analysis_slots_v2 (position, multipv, depth, doc, made_at) VALUES (?1, "
        "?2, ?3, ?4, ?5)");
    statements_.upsertRecency =
        prepare(concat({"INSERT INTO analysis_recency (position, used) VALUES (?1, ", kNextUse,
                        ") ON CONFLICT (position) DO UPDATE SET used = excluded.used"}));
    statements_.evictSlots =
        prepare(concat({"DELETE FROM analysis_slots_v2 WHERE position IN ", kEvicted}));
    statements_.evictRecency =
        prepare(concat({"DELETE FROM analysis_recency WHERE position IN ", kEvicted}));
    statements_.count = prepare("SELECT count(*) FROM analysis_recency");
}

SqliteAnalysisCache::~SqliteAnalysisCache() {
    for (sqlite3_stmt* statement :
         {statements_.selectSlots, statements_.touch, statements_.deleteSlots,
          statements_.insertSlot, statements_.upsertRecency, statements_.evictSlots,
          statements_.evictRecency, statements_.count}) {
        sqlite3_finalize(statement);
    }
    sqlite3_close(db_);
}

sqlite3_stmt* SqliteAnalysisCache::prepare(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
        throw std::runtime_error(std::string("analysis cache: cannot prepare a statement: ") +
                                 sqlite3_errmsg(db_));
    }
    return statement;
}

bool SqliteAnalysisCache::exec(const char* sql) {
    return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

bool SqliteAnalysisCache::readSlotsLocked(const std::string& position,
                                          std::vector<AnalysisSlot>& slots) {
    sqlite3_stmt* select = statements_.selectSlots;
    bindText(select, 1, position);
    int status;
    while ((status = sqlite3_step(select)) == SQLITE_ROW) {
        AnalysisSlot slot;
        slot.multipv = sqlite3_column_int(select, 0);
        slot.depth = sqlite3_column_int(select, 1);
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(select, 2));
        slot.doc.assign(text ? text : "",
                        static_cast<std::size_t>(sqlite3_column_bytes(select, 2)));
        slot.madeAt = sqlite3_column_int64(select, 3);
        slots.push_back(std::move(slot));
    }
    sqlite3_reset(select);
    sqlite3_clear_bindings(select);
    return status == SQLITE_DONE;
}

AnalysisCacheRead SqliteAnalysisCache::get(const std::string& position) {
    std::lock_guard lock(mutex_);
    AnalysisCacheRead read;
    if (!readSlotsLocked(position, read.slots)) return {StoreStatus::Unavailable, {}};
    if (read.slots.empty()) return {StoreStatus::NotFound, {}};
    bindText(statements_.touch, 1, position);
    step(statements_.touch);  // a lost touch only makes the position look older
    read.status = StoreStatus::Ok;
    return read;
}

bool SqliteAnalysisCache::writeLocked(const std::string& position, const AnalysisSlot& slot) {
    std::vector<AnalysisSlot> slots;
    if (!readSlotsLocked(position, slots)) return false;
    if (mergeAnalysisSlot(slots, slot)) {
        bindText(statements_.deleteSlots, 1, position);
        if (!step(statements_.deleteSlots)) return false;
        for (const AnalysisSlot& kept : slots) {
            sqlite3_stmt* insert = statements_.insertSlot;
            bindText(insert, 1, position);
            sqlite3_bind_int(insert, 2, kept.multipv);
            sqlite3_bind_int(insert, 3, kept.depth);
            bindText(insert, 4, kept.doc);
            sqlite3_bind_int64(insert, 5, kept.madeAt);
            if (!step(insert)) return false;
        }
    }
    bindText(statements_.upsertRecency, 1, position);
    if (!step(statements_.upsertRecency)) return false;
    const auto capacity = static_cast<sqlite3_int64>(options_.capacity);
    sqlite3_bind_int64(statements_.evictSlots, 1, capacity);
    if (!step(statements_.evictSlots)) return false;
    sqlite3_bind_int64(statements_.evictRecency, 1, capacity);
    return step(statements_.evictRecency);
}

StoreStatus SqliteAnalysisCache::put(const std::string& position, const AnalysisSlot& slot) {
    if (options_.capacity == 0) return StoreStatus::Ok;
    std::lock_guard lock(mutex_);
    if (!exec("BEGIN IMMEDIATE")) return StoreStatus::Unavailable;
    if (!writeLocked(position, slot)) {
        exec("ROLLBACK");
        return StoreStatus::Unavailable;
    }
    if (!exec("COMMIT")) {
        exec("ROLLBACK");
        return StoreStatus::Unavailable;
    }
    return StoreStatus::Ok;
}

std::uint64_t SqliteAnalysisCache::size() {
    std::lock_guard lock(mutex_);
    std::uint64_t count = 0;
    if (sqlite3_step(statements_.count) == SQLITE_ROW)
        count = static_cast<std::uint64_t>(sqlite3_column_int64(statements_.count, 0));
    sqlite3_reset(statements_.count);
    return count;
}

}  // namespace outpost::server
