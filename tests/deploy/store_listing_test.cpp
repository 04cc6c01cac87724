// GameStore::getMany, the listing of a client's recent games: what retention does to a listing
// (pruned SQLite rows, expired Redis keys are absent) and a Redis that is down. The listing's
// contract itself (the order asked, unknown ids absent, the latest version) is checked on every
// backend by the store contract (store_contract_test.cpp).
#include <catch2/catch.hpp>

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

GameRecord finishedGame(const std::string& id) {
    GameRecord game = sampleGame(id);
    game.status = "resigned";
    game.result = "1-0";
    game.winner = "white";
    return game;
}

}  // namespace

TEST_CASE("Listing by ids: SQLite store, pruned games are absent", "[deploy][listing][sqlite]") {
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    options.finishedRetention = std::chrono::hours(1);
    SqliteGameStore store(options);
    REQUIRE(store.create(sampleGame("alpha")) == StoreStatus::Ok);

    // sampleGame() was last changed in 2023, long past the hour.
    REQUIRE(store.create(finishedGame("old-finished")) == StoreStatus::Ok);
    CHECK(store.getMany({"old-finished"}).games.size() == 1);
    REQUIRE(store.pruneFinished() == 1);
    CHECK(idsOf(store.getMany({"old-finished", "alpha"})) == std::vector<std::string>{"alpha"});
}

TEST_CASE("Listing by ids: Redis store, expired games are absent, Redis down is Unavailable",
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
    REQUIRE(store.create(sampleGame("alpha")) == StoreStatus::Ok);

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
