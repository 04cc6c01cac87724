// The analysis cache in the SQLite file of the game store (--store sqlite), in tables of its
// own: analysis_slots_v2 (position, lines -> depth, doc, made_at) and analysis_recency (position ->
// a use counter, indexed), bounded by positions: each put() deletes the least recently used
// positions beyond the capacity in the same transaction.
//
// A connection of its own with synchronous=OFF: a cached analysis lost in a power cut is only
// searched again, so its writes (a get() also writes its use) skip the fsync that game writes
// need. Processes sharing the file share the cache (SQLite's locks and busy timeout).
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

#include "store/analysis_cache_store.h"

namespace outpost::server {

struct SqliteAnalysisCacheOptions {
    std::string path;          // the database file (the game store's)
    std::size_t capacity = 0;  // positions kept
    std::chrono::milliseconds busyTimeout{5000};
};

class SqliteAnalysisCache final : public AnalysisCacheStore {
  public:
    // Opens the file and creates the tables; throws std::runtime_error naming the file and the
    // reason when it cannot.
    explicit SqliteAnalysisCache(SqliteAnalysisCacheOptions options);
    ~SqliteAnalysisCache() override;
    SqliteAnalysisCache(const SqliteAnalysisCache&) = delete;
    SqliteAnalysisCache& operator=(const SqliteAnalysisCache&) = delete;

    AnalysisCacheRead get(const std::string& position) override;
    StoreStatus put(const std::string& position, const AnalysisSlot& slot) override;
    std::uint64_t size() override;

  private:
    struct Statements {
        sqlite3_stmt* selectSlots = nullptr;
        sqlite3_stmt* touch = nullptr;
        sqlite3_stmt* deleteSlots = nullptr;
        sqlite3_stmt* insertSlot = nullptr;
        sqlite3_stmt* upsertRecency = nullptr;
        sqlite3_stmt* evictSlots = nullptr;
        sqlite3_stmt* evictRecency = nullptr;
        sqlite3_stmt* count = nullptr;
    };
    sqlite3_stmt* prepare(const std::string& sql);
    bool exec(const char* sql);
    // The slots of `position`; false on a database error. The caller holds mutex_.
    bool readSlotsLocked(const std::string& position, std::vector<AnalysisSlot>& slots);
    // put()'s writes inside its transaction; false on a database error.
    bool writeLocked(const std::string& position, const AnalysisSlot& slot);

    SqliteAnalysisCacheOptions options_;
    std::mutex mutex_;
    sqlite3* db_ = nullptr;
    Statements statements_;
};

}  // namespace outpost::server
