// Issue 14, faults: Redis goes away in the middle of games and comes back. Requests that need the
// store get 503 store_unavailable and change nothing, /readyz says not ready; when Redis is back
// (restarted from its append-only file) the replicas reconnect by themselves, no acknowledged
// move is lost, and the subscribers of a replica get the moves made meanwhile on another one,
// also those published while that replica's event bus was cut off (pub/sub does not replay
// them: the bus resyncs the games it subscribes to again from the store).
#include <catch2/catch.hpp>

#include "fake_searcher.h"
#include "server.h"
#include "store/redis_event_bus.h"
#include "store/redis_game_store.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using namespace std::chrono_literals;
using Verb = boost::beast::http::verb;
using outpost::test::eventually;
using outpost::test::RedisServerProcess;
using outpost::test::TcpProxy;

namespace {

// Short timeouts keep the outage's requests quick; the bus retries often.
constexpr auto kRedisTimeout = 500ms;
constexpr auto kBusMaxReconnectDelay = 200ms;
// How long a subscriber may wait for a move once Redis is back.
constexpr auto kCatchUp = 5s;
constexpr int kNoKeepAliveMs = 600'000;

struct Replica {
    std::shared_ptr<RedisEventBus> bus;
    std::unique_ptr<Server> server;
};

// storeUrl / busUrl: where this replica's store and event bus reach Redis.
Replica startReplica(const std::string& storeUrl, const std::string& busUrl) {
    RedisStoreOptions storeOptions;
    storeOptions.url = storeUrl;
    storeOptions.timeout = kRedisTimeout;
    RedisBusOptions busOptions;
    busOptions.url = busUrl;
    busOptions.timeout = kRedisTimeout;
    busOptions.maxReconnectDelay = kBusMaxReconnectDelay;
    ServerConfig config = outpost::test::liveReplicaConfig();
    config.store = "redis";
    // No keep-alive lines on the streams: a subscriber that gets nothing times out.
    config.streamKeepAliveMs = kNoKeepAliveMs;
    Replica replica;
    replica.bus = std::make_shared<RedisEventBus>(busOptions);
    ServerParts parts;
    parts.store = std::make_shared<RedisGameStore>(storeOptions);
    parts.bus = replica.bus;
    parts.searchers = fakeSearchers(std::make_shared<FakeControl>());
    replica.server = std::make_unique<Server>(config, std::move(parts));
    replica.server->start();
    return replica;
}

std::map<std::string, std::string> bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}

// Reads stream lines until one shows the game with `moves` moves; false when none comes.
bool streamShows(HttpClient& stream, std::size_t moves) {
    const auto deadline = std::chrono::steady_clock::now() + kCatchUp;
    while (std::chrono::steady_clock::now() < deadline) {
        std::optional<std::string> line;
        try {
            line = stream.readLine(deadline - std::chrono::steady_clock::now());
        } catch (const std::exception&) {
            return false;  // timed out
        }
        if (!line) return false;
        const auto message = nlohmann::json::parse(*line);
        const std::string type = message.value("type", "");
        if (type == "gameFull" && message["game"]["moves"].size() == moves) return true;
        if (type == "gameState" && message["moveCount"] == moves) return true;
    }
    return false;
}

unsigned status(unsigned short port, Verb verb, const std::string& target,
                const std::string& body = "",
                const std::map<std::string, std::string>& headers = {},
                std::string* code = nullptr) {
    HttpClient client(port);
    auto result = client.request(verb, target, body, headers);
    if (code && result.status >= 400) *code = result.json()["error"].value("code", "");
    return result.status;
}

}  // namespace

TEST_CASE("faults: Redis restarts in the middle of games and nothing acknowledged is lost",
          "[deploy][faults][redis]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; test skipped");
        return;
    }
    REQUIRE(redis.start());  // --appendonly yes --appendfsync always (test_support.cpp)
    Replica a = startReplica(redis.url(), redis.url());
    Replica b = startReplica(redis.url(), redis.url());
    const auto portA = a.server->port();
    const auto portB = b.server->port();

    HttpClient setup(portA);
    auto created = setup.request(Verb::post, "/api/v1/games", R"({"engine":{"side":"none"}})");
    REQUIRE(created.status == 201);
    const std::string id = created.json()["id"];
    const std::string white = created.json()["playerToken"];
    const std::string black = created.json()["inviteToken"];
    const std::string moves = "/api/v1/games/" + id + "/moves";
    REQUIRE(status(portA, Verb::post, moves, R"({"move":"e2e4"})", bearer(white)) == 200);

    // A subscriber on replica B follows the game.
    HttpClient stream(portB);
    stream.send(Verb::get, "/api/v1/games/" + id + "/stream");
    stream.readStreamHeader();
    REQUIRE(stream.streamStatus() == 200);
    REQUIRE(streamShows(stream, 1));

    redis.kill();
    std::string code;
    CHECK(status(portA, Verb::post, moves, R"({"move":"e7e5"})", bearer(black), &code) == 503);
    CHECK(code == "store_unavailable");
    CHECK(status(portB, Verb::get, "/api/v1/games/" + id, "", {}, &code) == 503);
    CHECK(code == "store_unavailable");
    CHECK(status(portA, Verb::get, "/readyz") == 503);
    CHECK(status(portB, Verb::get, "/readyz") == 503);
    CHECK(status(portA, Verb::get, "/healthz") == 200);  // alive: not restarted for this

    REQUIRE(redis.start());  // the same folder: the append-only file
    // Ready again by themselves, with no request in between.
    REQUIRE(eventually([&] { return status(portA, Verb::get, "/readyz") == 200; }));
    REQUIRE(eventually([&] { return status(portB, Verb::get, "/readyz") == 200; }));
    HttpClient reader(portB);
    auto game = reader.request(Verb::get, "/api/v1/games/" + id);
    REQUIRE(game.status == 200);
    // The acknowledged move survived; the refused one left nothing behind.
    CHECK(game.json()["moves"] == nlohmann::json::array({"e2e4"}));
    CHECK(game.json()["version"] == 2);

    // Play goes on at once on A; B's subscriber sees it.
    REQUIRE(status(portA, Verb::post, moves, R"({"move":"e7e5"})", bearer(black)) == 200);
    CHECK(streamShows(stream, 2));
    stream.close();
}

TEST_CASE(
    "faults: a replica cut off from Redis catches its subscribers up with the moves made "
    "meanwhile",
    "[deploy][faults][redis]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; test skipped");
        return;
    }
    REQUIRE(redis.start());
    TcpProxy partition(redis.port());
    Replica a = startReplica(redis.url(), redis.url());
    // B's event bus reaches Redis through the proxy, which the test cuts.
    Replica b = startReplica(redis.url(), partition.redisUrl());
    REQUIRE(eventually([&] { return b.bus->listening(); }));

    HttpClient setup(a.server->port());
    auto created = setup.request(Verb::post, "/api/v1/games", R"({"engine":{"side":"none"}})");
    REQUIRE(created.status == 201);
    const std::string id = created.json()["id"];
    const std::string white = created.json()["playerToken"];
    const std::string black = created.json()["inviteToken"];
    const std::string moves = "/api/v1/games/" + id + "/moves";

    HttpClient stream(b.server->port());
    stream.send(Verb::get, "/api/v1/games/" + id + "/stream");
    stream.readStreamHeader();
    REQUIRE(stream.streamStatus() == 200);
    REQUIRE(streamShows(stream, 0));
    WsClient watcher(b.server->port());
    watcher.send({{"type", "subscribe"}, {"gameId", id}});
    REQUIRE(watcher.readType("gameFull")["game"]["moves"].empty());
    REQUIRE(eventually([&] { return b.bus->subscribedGames().count(id) == 1; }));

    partition.cut();
    REQUIRE(eventually([&] { return !b.bus->listening(); }));
    // Moves on A while B hears nothing: published, and lost for B.
    REQUIRE(status(a.server->port(), Verb::post, moves, R"({"move":"e2e4"})", bearer(white)) ==
            200);
    REQUIRE(status(a.server->port(), Verb::post, moves, R"({"move":"e7e5"})", bearer(black)) ==
            200);

    partition.restore();
    // B reconnects by itself, subscribes again, and sends the game as stored.
    CHECK(streamShows(stream, 2));
    CHECK(watcher.readType("gameState")["moveCount"] == 2);
    stream.close();
    watcher.close();
}
