// The index of running clocks (GameStore::runningClocks) in a SQLite file of an earlier version:
// filled in for the games it has. What the index lists on every backend (by deadline, soonest
// first, bounded, a game leaving it when its clock stops) is the store contract
// (store_contract_test.cpp).
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "store/game_record_json.h"
#include "store/sqlite_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using outpost::test::sampleGame;
using outpost::test::TempDir;

TEST_CASE("faults: a SQLite file of an earlier version gets its running clocks indexed",
          "[deploy][faults][sqlite]") {
    TempDir dir;
    const std::string path = (dir.path() / "games.db").string();
    GameRecord running = sampleGame("running");
    running.clock = ClockState{60000, 0, 4000, 60000, 2'000'000, true};
    {
        // The table as earlier versions wrote it: no clock_deadline column.
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
        const std::string doc = toStoredJson(running).dump();
        const std::string sql =
            "CREATE TABLE games (id TEXT PRIMARY KEY, version INTEGER NOT NULL, status TEXT NOT "
            "NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, doc TEXT NOT NULL);"
            "INSERT INTO games VALUES('running', 1, 'ongoing', 1, 2, '" +
            doc + "');";
        REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
    }
    SqliteStoreOptions options;
    options.path = path;
    SqliteGameStore store(options);
    StoreManyResult due = store.runningClocks(2'000'000 + 4000, 10);
    REQUIRE(due.status == StoreStatus::Ok);
    REQUIRE(due.games.size() == 1);
    CHECK(due.games[0] == running);
    CHECK(store.runningClocks(2'000'000 + 3999, 10).games.empty());
}
