// The index of running clocks every backend keeps (GameStore::runningClocks): games whose flag
// falls by a given time, soonest first, bounded; a game leaves it when its clock stops. A SQLite
// file of an earlier version gets the index filled in for the games it has.
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "store/game_record_json.h"
#include "store/memory_game_store.h"
#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using outpost::test::RedisServerProcess;
using outpost::test::sampleGame;
using outpost::test::TempDir;

TEST_CASE("faults: the running-clock index lists games by deadline", "[deploy][faults]") {
    TempDir dir;
    SqliteStoreOptions sqliteOptions;
    sqliteOptions.path = (dir.path() / "games.db").string();
    auto check = [](GameStore& store) {
        GameRecord idle = sampleGame("idle");  // no clock
        REQUIRE(store.create(idle) == StoreStatus::Ok);
        GameRecord later = sampleGame("later");
        later.clock = ClockState{60000, 0, 60000, 9000, 1'000'000, true};
        later.moves = {"e2e4"};  // Black to move: its 9 s count
        REQUIRE(store.create(later) == StoreStatus::Ok);
        GameRecord sooner = sampleGame("sooner");
        sooner.clock = ClockState{60000, 0, 5000, 60000, 1'000'000, true};  // White to move
        REQUIRE(store.create(sooner) == StoreStatus::Ok);
        StoreManyResult due = store.runningClocks(1'000'000 + 60000, 10);
        REQUIRE(due.status == StoreStatus::Ok);
        REQUIRE(due.games.size() == 2);
        CHECK(due.games[0].id == "sooner");
        CHECK(due.games[1].id == "later");
        CHECK(store.runningClocks(1'000'000 + 6000, 10).games.size() == 1);
        CHECK(store.runningClocks(1'000'000 + 60000, 1).games.size() == 1);
        // Ended: it leaves the index.
        GameRecord resigned = sooner;
        resigned.status = "resigned";
        resigned.clock->running = false;
        resigned.version = 2;
        REQUIRE(store.update(resigned, 1) == StoreStatus::Ok);
        due = store.runningClocks(1'000'000 + 60000, 10);
        REQUIRE(due.games.size() == 1);
        CHECK(due.games[0].id == "later");
    };
    MemoryGameStore memory;
    check(memory);
    SqliteGameStore sqlite(sqliteOptions);
    check(sqlite);
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; the Redis index is not checked");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions redisOptions;
    redisOptions.url = redis.url();
    RedisGameStore redisStore(redisOptions);
    check(redisStore);
}

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
