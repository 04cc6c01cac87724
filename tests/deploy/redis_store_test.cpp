// The shared store and event bus against a private redis-server: the retention as expiry, pub/sub
// from one replica to another, and recovery after Redis restarts. Skipped with a warning when
// redis-server is not installed. The atomic compare-and-set across replicas (separate store
// objects), replayed writes and racing writers are the store contract (store_contract_test.cpp).
#include <hiredis/hiredis.h>

#include <catch2/catch.hpp>
#include <set>

#include "store/redis_event_bus.h"
#include "store/redis_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::EventCollector;
using outpost::test::eventually;
using outpost::test::RedisServerProcess;
using outpost::test::sampleGame;

namespace {

RedisStoreOptions storeOptions(const RedisServerProcess& redis) {
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    return options;
}

RedisBusOptions busOptions(const RedisServerProcess& redis) {
    RedisBusOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    options.maxReconnectDelay = 200ms;
    return options;
}

#define REQUIRE_REDIS(redis)                                             \
    if (!(redis).available()) {                                          \
        WARN("redis-server is not installed; Redis store test skipped"); \
        return;                                                          \
    }                                                                    \
    REQUIRE((redis).start())

GameEvent moveEvent(const std::string& gameId, std::uint64_t version, const std::string& move) {
    GameEvent event;
    event.kind = GameEvent::Kind::GameChanged;
    event.gameId = gameId;
    event.version = version;
    event.payload =
        R"({"type":"game","game":{"id":")" + gameId + R"(","moves":[")" + move + R"("]}})";
    return event;
}

}  // namespace

TEST_CASE("REDIS_URL parsing", "[deploy][redis]") {
    std::string error;
    auto plain = parseRedisUrl("redis://cache:6380/2", &error);
    REQUIRE(plain);
    CHECK(plain->host == "cache");
    CHECK(plain->port == 6380);
    CHECK(plain->database == 2);
    auto secret = parseRedisUrl("redis://:s3cret@10.0.0.5", &error);
    REQUIRE(secret);
    CHECK(secret->password == "s3cret");
    CHECK(secret->host == "10.0.0.5");
    CHECK(secret->port == 6379);
    auto local = parseRedisUrl("unix:///run/redis.sock?db=1", &error);
    REQUIRE(local);
    CHECK(local->unixSocket == "/run/redis.sock");
    CHECK(local->database == 1);
    CHECK_FALSE(parseRedisUrl("http://x", &error));
    CHECK_FALSE(parseRedisUrl("redis://host:99999", &error));
    CHECK_THROWS(RedisGameStore(RedisStoreOptions{"nonsense", "outpost:", 100ms, 0s}));
}

TEST_CASE("Redis event encoding round-trips", "[deploy][redis]") {
    GameEvent event = moveEvent("abc", 7, "e2e4");
    event.kind = GameEvent::Kind::EngineInfo;
    GameEvent decoded;
    REQUIRE(RedisEventBus::decode("abc", RedisEventBus::encode(event), &decoded));
    CHECK(decoded.kind == event.kind);
    CHECK(decoded.gameId == "abc");
    CHECK(decoded.version == 7);
    CHECK(decoded.payload == event.payload);
    CHECK_FALSE(RedisEventBus::decode("abc", "X1\n{}", &decoded));
    CHECK_FALSE(RedisEventBus::decode("abc", "G\n{}", &decoded));
}

TEST_CASE("Redis store: finished games get the retention as expiry", "[deploy][redis]") {
    RedisServerProcess redis;
    REQUIRE_REDIS(redis);
    RedisStoreOptions options = storeOptions(redis);
    options.finishedRetention = 3600s;
    RedisGameStore store(options);
    GameRecord game = sampleGame("ending");
    REQUIRE(store.create(game) == StoreStatus::Ok);
    GameRecord resigned = game;
    resigned.status = "resigned";
    resigned.result = "1-0";
    resigned.version = 2;
    REQUIRE(store.update(resigned, 1) == StoreStatus::Ok);

    RedisConnectionPool pool(*parseRedisUrl(redis.url(), nullptr), 1000ms);
    auto ttlOf = [&](const std::string& id) {
        RedisReplyPtr ttl = pool.command({"TTL", "outpost:game:" + id});
        REQUIRE(ttl);
        return ttl->integer;
    };
    CHECK(ttlOf("ending") > 3500);
    CHECK(ttlOf("ending") <= 3600);

    // A game stored finished at its creation (an imported ended game) expires as well.
    GameRecord imported = sampleGame("imported");
    imported.status = "checkmate";
    imported.result = "1-0";
    REQUIRE(store.create(imported) == StoreStatus::Ok);
    CHECK(ttlOf("imported") > 3500);
    CHECK(ttlOf("ongoing-one") == -2);  // no such key
    REQUIRE(store.create(sampleGame("ongoing-one")) == StoreStatus::Ok);
    CHECK(ttlOf("ongoing-one") == -1);  // ongoing: no expiry

    // The default retention keeps finished games forever: no expiry at all.
    RedisStoreOptions keepAll = storeOptions(redis);
    REQUIRE(keepAll.finishedRetention == kKeepFinishedForever);
    RedisGameStore forever(keepAll);
    REQUIRE(forever.create(sampleGame("kept")) == StoreStatus::Ok);
    GameRecord keptEnded = sampleGame("kept");
    keptEnded.status = "resigned";
    keptEnded.result = "0-1";
    keptEnded.version = 2;
    REQUIRE(forever.update(keptEnded, 1) == StoreStatus::Ok);
    CHECK(ttlOf("kept") == -1);
}

TEST_CASE(
    "Redis store: a write sent to a Redis that hangs is unanswered, not unavailable, and runs "
    "when Redis resumes, and one that never reached Redis is unavailable",
    "[deploy][redis]") {
    RedisServerProcess redis;
    REQUIRE_REDIS(redis);
    RedisStoreOptions options = storeOptions(redis);
    options.timeout = 300ms;
    RedisGameStore store(options);
    GameRecord game = sampleGame("hung-write");
    REQUIRE(store.create(game) == StoreStatus::Ok);
    GameRecord moved = game;
    moved.moves = {"e2e4"};
    moved.version = game.version + 1;

    // SIGSTOP: the kernel still takes the connection and the script, Redis runs it later. The
    // server must not answer "nothing changed" (store_unavailable) for it.
    redis.pause();
    const StoreStatus hung = store.update(moved, game.version);
    redis.resume();
    CHECK(hung == StoreStatus::Unanswered);
    REQUIRE(eventually([&] {
        const StoreReadResult read = store.get(game.id);
        return read.status == StoreStatus::Ok && read.game->version == moved.version;
    }));

    // Redis gone: the connection is refused (or reset), nothing reached it.
    redis.kill();
    GameRecord next = moved;
    next.moves.push_back("e7e5");
    next.version = moved.version + 1;
    CHECK(store.update(next, moved.version) == StoreStatus::Unavailable);
}

TEST_CASE("Redis event bus: a subscriber on replica A sees events published on B",
          "[deploy][redis]") {
    // Collectors first: they must outlive the buses whose threads call into them.
    EventCollector watched;
    EventCollector other;
    RedisServerProcess redis;
    REQUIRE_REDIS(redis);
    RedisEventBus replicaA(busOptions(redis));
    RedisEventBus replicaB(busOptions(redis));
    REQUIRE(eventually([&] { return replicaA.listening() && replicaB.listening(); }));

    auto subscription = replicaA.subscribe("g1", [&](const GameEvent& e) { watched.add(e); });
    replicaA.subscribe("g2", [&](const GameEvent& e) { other.add(e); });
    replicaB.publish(moveEvent("g1", 2, "e2e4"));
    auto events = watched.waitFor(1, 5s);
    REQUIRE(events.size() == 1);
    CHECK(events[0].gameId == "g1");
    CHECK(events[0].version == 2);
    CHECK(events[0].payload == moveEvent("g1", 2, "e2e4").payload);

    // Events of the replica's own publishing come back the same way.
    replicaA.publish(moveEvent("g1", 3, "e7e5"));
    REQUIRE(watched.waitFor(2, 5s).size() == 2);

    replicaA.unsubscribe(subscription);
    replicaB.publish(moveEvent("g1", 4, "g1f3"));
    replicaB.publish(moveEvent("g2", 1, "a2a3"));
    REQUIRE(other.waitFor(1, 5s).size() == 1);  // g2 arrived, so g1's event has been handled
    CHECK(watched.waitFor(3, 100ms).size() == 2);
}

TEST_CASE("Redis store and bus recover when Redis restarts", "[deploy][redis]") {
    EventCollector events;
    RedisServerProcess redis;
    REQUIRE_REDIS(redis);
    RedisGameStore store(storeOptions(redis));
    RedisEventBus bus(busOptions(redis));
    REQUIRE(eventually([&] { return bus.listening(); }));
    REQUIRE(store.create(sampleGame("durable")) == StoreStatus::Ok);

    redis.kill();
    CHECK(store.get("durable").status == StoreStatus::Unavailable);
    CHECK_FALSE(store.healthy());
    REQUIRE(eventually([&] { return !bus.listening(); }));

    REQUIRE(redis.start());  // same folder: the append-only file brings the game back
    REQUIRE(eventually([&] { return store.healthy(); }));
    StoreReadResult read = store.get("durable");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(read.game->id == "durable");

    REQUIRE(eventually([&] { return bus.listening(); }));
    bus.subscribe("durable", [&](const GameEvent& e) { events.add(e); });
    bus.publish(moveEvent("durable", 2, "e2e4"));
    CHECK(events.waitFor(1, 5s).size() == 1);
}

// Issue 16, item 10: a replica receives the events of the games its clients follow, no others.
TEST_CASE("Redis event bus subscribes per game, not to every game's events", "[deploy][redis]") {
    EventCollector watched;
    RedisServerProcess redis;
    REQUIRE_REDIS(redis);
    RedisEventBus bus(busOptions(redis));
    REQUIRE(eventually([&] { return bus.listening(); }));
    RedisConnectionPool admin(parseRedisUrlOrThrow(redis.url()), 1000ms);
    auto channels = [&] {
        std::set<std::string> names;
        RedisReplyPtr reply = admin.command({"PUBSUB", "CHANNELS", "*"});
        if (reply && reply->type == REDIS_REPLY_ARRAY) {
            for (std::size_t i = 0; i < reply->elements; ++i)
                names.insert(std::string(reply->element[i]->str, reply->element[i]->len));
        }
        return names;
    };
    CHECK(channels().empty());
    const auto one = bus.subscribe("g1", [&](const GameEvent& e) { watched.add(e); });
    const auto two = bus.subscribe("g1", [&](const GameEvent& e) { watched.add(e); });
    // subscribe() returned: Redis confirmed the channel.
    CHECK(bus.subscribedGames() == std::set<std::string>{"g1"});
    CHECK(channels() == std::set<std::string>{"outpost:events:g1"});
    bus.publish(moveEvent("g1", 2, "e2e4"));
    bus.publish(moveEvent("g9", 1, "a2a3"));  // nobody here follows g9
    REQUIRE(watched.waitFor(2, 5s).size() == 2);
    bus.unsubscribe(one);
    CHECK(channels() == std::set<std::string>{"outpost:events:g1"});  // one subscriber left
    bus.unsubscribe(two);
    REQUIRE(eventually([&] { return channels().empty(); }));
}

// Issue 16, item 4: PUBLISH used to run on the caller's thread (a searcher reporting progress).
TEST_CASE("Redis event bus: publish never waits for a hung Redis", "[deploy][redis]") {
    RedisServerProcess redis;
    REQUIRE_REDIS(redis);
    RedisBusOptions options = busOptions(redis);
    options.maxQueuedEvents = 50;
    RedisEventBus bus(options);
    REQUIRE(eventually([&] { return bus.listening(); }));
    redis.pause();
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; ++i) {
        GameEvent info = moveEvent("g1", 2, "e2e4");
        info.kind = GameEvent::Kind::EngineInfo;
        bus.publish(info);
    }
    const auto took = std::chrono::steady_clock::now() - started;
    redis.resume();
    CHECK(took < 500ms);                // a single PUBLISH to a hung Redis waits its 1 s timeout
    CHECK(bus.droppedEvents() >= 100);  // the bounded queue kept 50 (or so) of them
}
