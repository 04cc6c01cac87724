// Lobby seeks and chat lines: kept in the SQLite file, a seek's Redis key expiring at its expiry,
// and two replicas over one Redis: a seek made on one is listed and accepted on the other, two
// acceptors on the two race and exactly one wins, the seeker's stream on the first hears of it,
// and a chat line posted on one is read on the other. What every store does with seeks and chat
// (compare-and-set, the open list oldest first, expiry, the kept lines) is the store contract
// (store_contract_test.cpp).
#include <catch2/catch.hpp>
#include <future>

#include "fake_searcher.h"
#include "server.h"
#include "store/redis_event_bus.h"
#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using namespace std::chrono_literals;
using Verb = boost::beast::http::verb;
using outpost::test::RedisServerProcess;
using outpost::test::TempDir;

using outpost::test::seekDoc;

namespace {

std::vector<std::string> ids(const SeekListResult& listed) {
    std::vector<std::string> out;
    for (const SeekDoc& seek : listed.seeks) out.push_back(seek.id);
    return out;
}

std::int64_t epochMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

TEST_CASE("SQLite store: lobby seeks and chat lines are kept in the file",
          "[deploy][sqlite][lobby]") {
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    const std::int64_t now = epochMs();
    const std::int64_t later = now + 3'600'000;
    {
        SqliteGameStore sqlite(options);
        REQUIRE(sqlite.createSeek(seekDoc("a", 1, true, now + 1, later)) == StoreStatus::Ok);
        REQUIRE(sqlite.createSeek(seekDoc("b", 1, true, now + 2, later)) == StoreStatus::Ok);
        REQUIRE(sqlite.updateSeek(seekDoc("a", 2, false, now + 1, later), 1) == StoreStatus::Ok);
        for (int i = 0; i < 7; ++i)
            REQUIRE(sqlite.appendChat("g", "line " + std::to_string(i), 5) == StoreStatus::Ok);
    }
    SqliteGameStore reopened(options);
    const auto read = reopened.getSeek("a");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(read.seek->version == 2);
    CHECK(read.seek->doc == seekDoc("a", 2, false, now + 1, later).doc);
    CHECK(ids(reopened.openSeeks(now, 10)) == std::vector<std::string>{"b"});
    const auto lines = reopened.chatLines("g").lines;
    REQUIRE(lines.size() == 5);
    CHECK(lines.front() == "line 2");
    CHECK(lines.back() == "line 6");
}

TEST_CASE("Redis store: a seek's key expires at its expiry and leaves the open list",
          "[deploy][redis][lobby]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis lobby test skipped");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    RedisGameStore store(options);
    const std::int64_t now = epochMs();
    REQUIRE(store.createSeek(seekDoc("b", 1, true, now + 2, now + 3'600'000)) == StoreStatus::Ok);
    // (Made "later" than b, so it is listed after it whatever the clock did meanwhile.)
    REQUIRE(store.createSeek(seekDoc("brief", 1, true, now + 10'000, now + 150)) ==
            StoreStatus::Ok);
    CHECK(ids(store.openSeeks(now, 10)) == std::vector<std::string>{"b", "brief"});
    REQUIRE(outpost::test::eventually(
        [&] { return store.getSeek("brief").status == StoreStatus::NotFound; }));
    CHECK(ids(store.openSeeks(epochMs(), 10)) == std::vector<std::string>{"b"});
}

TEST_CASE(
    "two replicas over one Redis: a seek made on one is accepted on the other, one of "
    "two racing acceptors wins, chat crosses over",
    "[deploy][redis][lobby]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis lobby test skipped");
        return;
    }
    REQUIRE(redis.start());
    auto replica = [&] {
        RedisStoreOptions storeOptions;
        storeOptions.url = redis.url();
        storeOptions.timeout = 1000ms;
        RedisBusOptions busOptions;
        busOptions.url = redis.url();
        busOptions.timeout = 1000ms;
        ServerConfig config = outpost::test::liveReplicaConfig();
        config.store = "redis";
        ServerParts parts;
        parts.store = std::make_shared<RedisGameStore>(storeOptions);
        parts.bus = std::make_shared<RedisEventBus>(busOptions);
        parts.searchers = fakeSearchers(std::make_shared<FakeControl>());
        auto server = std::make_unique<Server>(config, std::move(parts));
        server->start();
        return server;
    };
    auto a = replica();
    auto b = replica();
    HttpClient onA(a->port());
    HttpClient onB(b->port());

    for (int round = 0; round < 5; ++round) {
        auto made = onA.request(Verb::post, "/api/v1/seeks",
                                R"({"clock":{"initial":180000,"increment":2000}})");
        REQUIRE(made.status == 201);
        const std::string seekId = made.json()["id"];
        const std::string seekToken = made.json()["seekToken"];
        // The seeker follows it on A.
        HttpClient follower(a->port());
        follower.send(Verb::get, "/api/v1/seeks/" + seekId + "/stream", "",
                      {{"Authorization", "Bearer " + seekToken}});
        follower.readStreamHeader();
        REQUIRE(follower.streamStatus() == 200);
        auto first = follower.readLine();
        REQUIRE(first);
        CHECK(nlohmann::json::parse(*first)["type"] == "seek");

        // Listed on B.
        auto listed = onB.request(Verb::get, "/api/v1/seeks").json()["seeks"];
        bool found = false;
        for (const auto& seek : listed) found = found || seek["id"] == seekId;
        REQUIRE(found);

        // Two acceptors, one on each replica, at once.
        auto accept = [&](unsigned short port) {
            HttpClient client(port);
            return client.request(Verb::post, "/api/v1/seeks/" + seekId + "/accept");
        };
        auto one = std::async(std::launch::async, accept, a->port());
        auto two = std::async(std::launch::async, accept, b->port());
        const HttpResult x = one.get();
        const HttpResult y = two.get();
        REQUIRE((x.status == 201) + (y.status == 201) == 1);
        const HttpResult& winner = x.status == 201 ? x : y;
        const HttpResult& loser = x.status == 201 ? y : x;
        CHECK(loser.status == 409);
        CHECK(loser.json()["error"]["code"] == "seek_taken");
        const std::string gameId = winner.json()["id"];

        auto event = follower.readLine();
        REQUIRE(event);
        const auto accepted = nlohmann::json::parse(*event);
        CHECK(accepted["type"] == "seekAccepted");
        CHECK(accepted["gameId"] == gameId);
        const std::string seekerToken = accepted["playerToken"];
        const std::string seekerSide = accepted["playerSide"];
        CHECK(seekerSide != winner.json()["playerSide"]);

        // The game is on both replicas; chat posted on A is read on B.
        REQUIRE(onB.request(Verb::get, "/api/v1/games/" + gameId).status == 200);
        auto said =
            onA.request(Verb::post, "/api/v1/games/" + gameId + "/chat", R"({"text":"good luck"})",
                        {{"Authorization", "Bearer " + seekerToken}});
        REQUIRE(said.status == 201);
        CHECK(said.json()["side"] == seekerSide);
        auto lines = onB.request(Verb::get, "/api/v1/games/" + gameId + "/chat").json()["lines"];
        REQUIRE(lines.size() == 1);
        CHECK(lines[0]["text"] == "good luck");
    }
    a->shutdown();
    b->shutdown();
    a->wait();
    b->wait();
}
