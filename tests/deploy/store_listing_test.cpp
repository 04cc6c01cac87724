// GameStore::getMany, the listing of a client's recent games, on every backend: the same
// contract checked on memory, SQLite and Redis, plus what retention does to a listing.
#include <catch2/catch.hpp>
#include <thread>

#include "store/memory_game_store.h"
#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::RedisServerProcess;
using outpost::test::sampleGame;
using outpost::test::TempDir;

namespace {

std::vector<std::string> idsOf(const StoreManyResult& result) {
    std::vector<std::string> ids;
    for (const GameRecord& game : result.games) ids.push_back(game.id);
    return ids;
}

// The contract every backend keeps: found games in the order asked, unknown ids absent, the
// latest version of each, and nothing asked, nothing found.
void checkGetMany(GameStore& store) {
    for (const char* id : {"alpha", "beta", "gamma"}) {
        REQUIRE(store.create(sampleGame(id)) == StoreStatus::Ok);
    }
    GameRecord moved = sampleGame("beta");
    moved.moves = {"e2e4"};
    moved.version = 2;
    REQUIRE(store.update(moved, 1) == StoreStatus::Ok);

    StoreManyResult listed = store.getMany({"gamma", "nobody", "beta", "alpha"});
    REQUIRE(listed.status == StoreStatus::Ok);
    REQUIRE(idsOf(listed) == std::vector<std::string>{"gamma", "beta", "alpha"});
    CHECK(listed.games[1] == moved);
    CHECK(listed.games[0] == sampleGame("gamma"));

    StoreManyResult nothing = store.getMany({});
    CHECK(nothing.status == StoreStatus::Ok);
    CHECK(nothing.games.empty());
    StoreManyResult unknown = store.getMany({"x", "y"});
    CHECK(unknown.status == StoreStatus::Ok);
    CHECK(unknown.games.empty());
}

GameRecord finishedGame(const std::string& id) {
    GameRecord game = sampleGame(id);
    game.status = "resigned";
    game.result = "1-0";
    game.winner = "white";
    return game;
}

}  // namespace

TEST_CASE("Listing by ids: memory store", "[deploy][listing]") {
    MemoryGameStore store;
    checkGetMany(store);
}

TEST_CASE("Listing by ids: SQLite store, and pruned games are absent",
          "[deploy][listing][sqlite]") {
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    options.finishedRetention = std::chrono::hours(1);
    SqliteGameStore store(options);
    checkGetMany(store);

    // sampleGame() was last changed in 2023, long past the hour.
    REQUIRE(store.create(finishedGame("old-finished")) == StoreStatus::Ok);
    CHECK(store.getMany({"old-finished"}).games.size() == 1);
    REQUIRE(store.pruneFinished() == 1);
    CHECK(idsOf(store.getMany({"old-finished", "alpha"})) == std::vector<std::string>{"alpha"});
}

TEST_CASE("Listing by ids: Redis store, one round trip, expired games are absent",
          "[deploy][listing][redis]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis listing test skipped");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    options.finishedRetention = 1s;
    RedisGameStore store(options);
    checkGetMany(store);

    REQUIRE(store.create(sampleGame("ending")) == StoreStatus::Ok);
    GameRecord ended = finishedGame("ending");
    ended.version = 2;
    REQUIRE(store.update(ended, 1) == StoreStatus::Ok);
    CHECK(store.getMany({"ending"}).games.size() == 1);
    REQUIRE(
        outpost::test::eventually([&] { return store.getMany({"ending"}).games.empty(); }, 5000ms));
    CHECK(idsOf(store.getMany({"ending", "alpha"})) == std::vector<std::string>{"alpha"});

    redis.kill();
    CHECK(store.getMany({"alpha"}).status == StoreStatus::Unavailable);
}
