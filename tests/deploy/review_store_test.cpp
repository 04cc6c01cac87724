// Reviews in the persistent stores: kept with the game and deleted with it (SQLite pruning,
// Redis expiry), pasted games' reviews kept for the unfinished retention, and a second replica
// on the same store serving the review the first one made.
#include <hiredis/hiredis.h>

#include <catch2/catch.hpp>
#include <thread>

#include "fake_searcher.h"
#include "server.h"
#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::RedisServerProcess;
using outpost::test::sampleGame;
using outpost::test::TempDir;

namespace {

GameRecord finishedLongAgo(const std::string& id) {
    GameRecord game = sampleGame(id);  // last changed in 2023
    game.status = "resigned";
    game.result = "0-1";
    game.winner = "black";
    return game;
}

// A game "reviewed" with its review, and a pasted game's review "pasted1". What every store does
// with reviews (replaced by the next, none without its game, left alone by a game update) is the
// store contract (store_contract_test.cpp).
void storeReviews(GameStore& store) {
    REQUIRE(store.create(sampleGame("reviewed")) == StoreStatus::Ok);
    REQUIRE(store.putGameReview("reviewed", R"({"id":"reviewed.1"})") == StoreStatus::Ok);
    REQUIRE(store.getGameReview("reviewed").status == StoreStatus::Ok);
    REQUIRE(store.putReview("pasted1", R"({"id":"pasted1"})") == StoreStatus::Ok);
}

// A replica with scripted searchers on `store`, on an ephemeral port.
struct Replica {
    explicit Replica(std::shared_ptr<GameStore> store) {
        ServerConfig config = outpost::test::liveReplicaConfig();
        config.store = "sqlite";
        ServerParts parts;
        parts.store = std::move(store);
        parts.searchers = testing::fakeSearchers(std::make_shared<testing::FakeControl>());
        server = std::make_unique<Server>(config, std::move(parts));
        server->start();
    }
    ~Replica() {
        server->shutdown();
        server->wait();
    }
    unsigned short port() const { return server->port(); }
    std::unique_ptr<Server> server;
};

}  // namespace

TEST_CASE("SQLite store: reviews are kept with their game and pruned with it",
          "[deploy][sqlite][review]") {
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    {
        SqliteGameStore store(options);
        storeReviews(store);
        REQUIRE(store.create(finishedLongAgo("old")) == StoreStatus::Ok);
        REQUIRE(store.putGameReview("old", R"({"id":"old.1"})") == StoreStatus::Ok);
    }
    // Reopened with a retention: the old game goes, and its review with it; a pasted review
    // lives as long as an unfinished game.
    options.finishedRetention = std::chrono::hours(1);
    options.unfinishedRetention = 1s;
    options.pruneInterval = std::chrono::hours(1);
    SqliteGameStore store(options);
    CHECK(store.get("old").status == StoreStatus::NotFound);
    CHECK(store.getGameReview("old").status == StoreStatus::NotFound);
    CHECK(store.getGameReview("reviewed").status == StoreStatus::NotFound);  // game abandoned
    REQUIRE(store.create(sampleGame("fresh")) == StoreStatus::Ok);
    REQUIRE(store.putReview("recent", "{}") == StoreStatus::Ok);
    CHECK(store.getReview("recent").status == StoreStatus::Ok);
    std::this_thread::sleep_for(1100ms);
    store.pruneFinished();
    CHECK(store.getReview("recent").status == StoreStatus::NotFound);
}

TEST_CASE("Redis store: a review lives in its game's key and expires with it",
          "[deploy][redis][review]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis review test skipped");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    options.finishedRetention = 3600s;
    options.unfinishedRetention = 7200s;
    RedisGameStore store(options);
    storeReviews(store);

    RedisConnectionPool pool(*parseRedisUrl(redis.url(), nullptr), 1000ms);
    RedisReplyPtr ttl = pool.command({"TTL", "outpost:review:pasted1"});
    REQUIRE(ttl);
    CHECK(ttl->integer > 7000);
    // The game's key goes (expiry, or pruning by hand): its review is gone with it.
    REQUIRE(pool.command({"DEL", "outpost:game:reviewed"}));
    CHECK(store.getGameReview("reviewed").status == StoreStatus::NotFound);
    // And a late review write does not bring the key back.
    CHECK(store.putGameReview("reviewed", "{}") == StoreStatus::NotFound);
    RedisReplyPtr exists = pool.command({"EXISTS", "outpost:game:reviewed"});
    CHECK(exists->integer == 0);
}

TEST_CASE("a second replica on the same store serves the review the first one made",
          "[deploy][sqlite][review]") {
    using outpost::server::testing::HttpClient;
    using verb = outpost::server::testing::bhttp::verb;
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    Replica first(std::make_shared<SqliteGameStore>(options));
    Replica second(std::make_shared<SqliteGameStore>(options));
    HttpClient a(first.port());
    HttpClient b(second.port());

    auto created = a.request(verb::post, "/api/v1/games", "{}").json();
    const std::string id = created["id"];
    REQUIRE(a.request(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})",
                      {{"Authorization", "Bearer " + std::string(created["playerToken"])}})
                .status == 200);
    auto started = a.request(verb::post, "/api/v1/games/" + id + "/review");
    REQUIRE((started.status == 202 || started.status == 200));  // 200: done already
    const std::string reviewId = started.json()["id"];
    nlohmann::json done;
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    do {
        std::this_thread::sleep_for(10ms);
        done = a.request(verb::get, "/api/v1/reviews/" + reviewId).json();
    } while (done["status"] == "running" && std::chrono::steady_clock::now() < deadline);
    REQUIRE(done["status"] == "done");

    // The store write follows the end of the review on the store executor: wait for it.
    outpost::server::testing::HttpResult onB;
    for (int attempt = 0; attempt < 200; ++attempt) {
        onB = b.request(verb::get, "/api/v1/reviews/" + reviewId);
        if (onB.status == 200) break;
        std::this_thread::sleep_for(10ms);
    }
    REQUIRE(onB.status == 200);
    CHECK(onB.json() == done);
    CHECK(b.request(verb::get, "/api/v1/games/" + id + "/review").json() == done);
    // B reuses it rather than reviewing the same version again.
    auto again = b.request(verb::post, "/api/v1/games/" + id + "/review");
    CHECK(again.status == 200);
    CHECK(again.json()["id"] == reviewId);
    CHECK(b.request(verb::get, "/api/v1/games/" + id + "/pgn?review=1").body.find("[%eval") !=
          std::string::npos);
}
