// Redis with replicas and Sentinel (issues 28, 34): the flags, and how the primary is found: by
// the answer of a majority of the sentinels, never one alone, and the Redis password only ever
// sent there. What a game write waits for is write_guard_test.cpp; the failover itself, with
// sentinels and kill -9, is tests/deploy/failover_test.py.
#include "store/sentinel.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "config.h"
#include "fake_sentinel.h"
#include "store/redis_game_store.h"
#include "store/store_selection.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::eventually;
using outpost::test::FakeSentinel;
using outpost::test::RedisServerProcess;

namespace {

RedisReplyPtr run(int port, const std::vector<std::string>& args) {
    return outpost::test::runRedis(port, args);
}

ServerConfig parse(std::vector<const char*> args) {
    args.insert(args.begin(), "outpost-server");
    std::function<const char*(const char*)> noEnv = [](const char*) -> const char* {
        return nullptr;
    };
    ConfigParseResult parsed = parseConfig(static_cast<int>(args.size()), args.data(), &noEnv);
    REQUIRE(parsed.config);
    return *parsed.config;
}

}  // namespace

TEST_CASE("Sentinel: the list of sentinels", "[deploy][sentinel]") {
    const auto sentinels = parseSentinelList("10.0.0.1:26380, sentinel-2 ,sentinel-3:1");
    REQUIRE(sentinels.size() == 3);
    CHECK(sentinels[0].host == "10.0.0.1");
    CHECK(sentinels[0].port == 26380);
    CHECK(sentinels[1].host == "sentinel-2");
    CHECK(sentinels[1].port == 26379);  // Sentinel's own port when none is given
    CHECK(sentinels[2].port == 1);
    CHECK_THROWS_AS(parseSentinelList(""), std::invalid_argument);
    CHECK_THROWS_AS(parseSentinelList("a:0"), std::invalid_argument);
    CHECK_THROWS_AS(parseSentinelList("a:x"), std::invalid_argument);
    CHECK_THROWS_AS(parseSentinelList(":26379"), std::invalid_argument);
}

TEST_CASE("Sentinel: flags, and one replica ack by default with sentinels only",
          "[deploy][sentinel]") {
    const ServerConfig plain = parse({"--store", "redis"});
    CHECK(storeSettingsFor(plain).redisMinReplicaAcks == 0);
    CHECK(storeSettingsFor(plain).redisSentinels.empty());

    const ServerConfig sentinel =
        parse({"--store", "redis", "--redis-sentinels", "s1:26379,s2:26379,s3:26379",
               "--redis-master-name", "games", "--redis-replica-ack-timeout", "250"});
    const StoreSettings settings = storeSettingsFor(sentinel);
    CHECK(settings.redisSentinels == std::vector<std::string>{"s1:26379", "s2:26379", "s3:26379"});
    CHECK(settings.redisMasterName == "games");
    CHECK(settings.redisMinReplicaAcks == 1);
    CHECK(settings.redisReplicaAckTimeout == 250ms);

    CHECK(settings.redisSentinelPassword.empty());
    CHECK(settings.redisReplicaMaxLagSeconds == 10);
    CHECK_FALSE(settings.redisAllowUnreplicatedWrites);

    CHECK(storeSettingsFor(parse({"--store", "redis", "--redis-sentinels", "s1",
                                  "--redis-min-replica-acks", "0"}))
              .redisMinReplicaAcks == 0);
    const StoreSettings guarded = storeSettingsFor(
        parse({"--store", "redis", "--redis-sentinels", "s1", "--redis-sentinel-password", "pw",
               "--redis-replica-max-lag", "3", "--redis-allow-unreplicated-writes", "true"}));
    CHECK(guarded.redisSentinelPassword == "pw");
    CHECK(guarded.redisReplicaMaxLagSeconds == 3);
    CHECK(guarded.redisAllowUnreplicatedWrites);
    CHECK(storeSettingsFor(parse({"--store", "redis", "--redis-min-replica-acks", "2"}))
              .redisMinReplicaAcks == 2);
}

TEST_CASE("Sentinel: no sentinel answers, so the store is unavailable, not wrong",
          "[deploy][sentinel]") {
    // Nothing listens on these ports: the start-up question goes unanswered, the server starts
    // (not ready) and its operations report Unavailable.
    StoreSettings settings;
    settings.redisUrl = "redis://127.0.0.1:" + std::to_string(outpost::test::freeLoopbackPort());
    settings.redisSentinels = {"127.0.0.1:" + std::to_string(outpost::test::freeLoopbackPort())};
    settings.redisMinReplicaAcks = 1;
    StoreSelection selection = selectGameStores(settings);
    CHECK(selection.description.rfind("redis-sentinel:outpost@", 0) == 0);
    CHECK(selection.store->get("a").status == StoreStatus::Unavailable);
    CHECK_FALSE(selection.store->healthy());
}

TEST_CASE("Sentinel: no replica acks with sentinels is the unreplicated mode, asked by name",
          "[deploy][sentinel]") {
    StoreSettings settings;
    settings.redisUrl = "redis://127.0.0.1:" + std::to_string(outpost::test::freeLoopbackPort());
    settings.redisSentinels = {"127.0.0.1:" + std::to_string(outpost::test::freeLoopbackPort())};
    settings.redisMinReplicaAcks = 0;
    CHECK_THROWS_AS(selectGameStores(settings), std::invalid_argument);
    settings.redisAllowUnreplicatedWrites = true;
    CHECK(selectGameStores(settings).store);
}

TEST_CASE("Sentinel: the primary is the one a majority of the sentinels names",
          "[deploy][sentinel]") {
    FakeSentinel first("10.0.0.1", 6379);
    FakeSentinel second("10.0.0.1", 6379);
    FakeSentinel third("10.0.0.2", 6380);
    std::vector<RedisEndpoint> sentinels =
        parseSentinelList(first.address() + "," + second.address() + "," + third.address());
    SentinelVerdict verdict = askSentinelsForPrimary(sentinels, "outpost", 1000ms);
    REQUIRE(verdict.primary);
    CHECK(verdict.primary->host == "10.0.0.1");
    CHECK(verdict.primary->port == 6379);
    CHECK(verdict.answered == 3);
    CHECK(verdict.agreeing == 2);

    // One of three names a primary, whichever answers first: no majority, no primary.
    second.name("", 0);
    third.name("", 0);
    verdict = askSentinelsForPrimary(sentinels, "outpost", 1000ms);
    CHECK_FALSE(verdict.primary);
    CHECK(verdict.answered == 1);
    // Three different answers: none.
    second.name("10.0.0.3", 6379);
    third.name("10.0.0.2", 6379);
    verdict = askSentinelsForPrimary(sentinels, "outpost", 1000ms);
    CHECK_FALSE(verdict.primary);
    CHECK(verdict.answered == 3);
    CHECK(verdict.agreeing == 1);
    // A majority of those configured, not of those that answer: two down, one answering.
    sentinels.push_back(
        parseSentinelList("127.0.0.1:" + std::to_string(outpost::test::freeLoopbackPort()))
            .front());
    second.name("10.0.0.1", 6379);
    third.name("10.0.0.1", 6379);
    verdict = askSentinelsForPrimary(sentinels, "outpost", 1000ms);
    REQUIRE(verdict.primary);  // 3 of 4
    CHECK(verdict.primary->host == "10.0.0.1");
}

TEST_CASE(
    "Sentinel: sentinels with a password, and the Redis password sent only where a "
    "majority points",
    "[deploy][sentinel]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Sentinel password test skipped");
        return;
    }
    REQUIRE(redis.start());
    REQUIRE(run(redis.port(), {"CONFIG", "SET", "requirepass", "redis-secret"}));
    // A host that one sentinel names (stale, or lying), and the URL's own host: either would
    // learn the password from a client that trusted it.
    FakeSentinel decoy("", 0);
    FakeSentinel first("127.0.0.1", redis.port(), "sentinel-secret");
    FakeSentinel second("127.0.0.1", redis.port(), "sentinel-secret");
    FakeSentinel third("127.0.0.1", decoy.port(), "sentinel-secret");
    SentinelOptions options;
    options.sentinels =
        parseSentinelList(first.address() + "," + second.address() + "," + third.address());
    for (RedisEndpoint& sentinel : options.sentinels) sentinel.password = "sentinel-secret";
    options.timeout = 1000ms;
    RedisEndpoint base;
    base.port = decoy.port();
    base.password = "redis-secret";
    {
        RedisPrimary primary(base, options, {});
        CHECK(primary.endpoint().port == redis.port());
        std::string error;
        CHECK(primary.connect(1000ms, &error));
    }
    for (const FakeSentinel* sentinel : {&first, &second, &third}) {
        const auto commands = sentinel->commands();
        REQUIRE_FALSE(commands.empty());
        CHECK(commands.front() == std::vector<std::string>{"AUTH", "sentinel-secret"});
        for (const auto& command : commands)
            CHECK(std::find(command.begin(), command.end(), "redis-secret") == command.end());
    }
    CHECK(decoy.commands().empty());

    // No majority (one names Redis, one the decoy, one nothing): the server connects nowhere, the
    // URL's host included.
    second.name("", 0);
    RedisPrimary undecided(base, options, {});
    CHECK(undecided.generation() == 0);
    std::string error;
    CHECK_FALSE(undecided.connect(1000ms, &error));
    CHECK(error.find("majority") != std::string::npos);
    CHECK(decoy.commands().empty());
}

TEST_CASE("Sentinel: one sentinel's +switch-master is followed once a majority confirms it",
          "[deploy][sentinel]") {
    FakeSentinel first("10.0.0.1", 6379);
    FakeSentinel second("10.0.0.1", 6379);
    FakeSentinel third("10.0.0.1", 6379);
    SentinelOptions options;
    options.sentinels =
        parseSentinelList(first.address() + "," + second.address() + "," + third.address());
    options.timeout = 1000ms;
    RedisPrimary primary(RedisEndpoint{}, options, {});
    REQUIRE(primary.endpoint().host == "10.0.0.1");
    // The watcher subscribes to the first sentinel.
    REQUIRE(eventually(
        [&] {
            for (const auto& command : first.commands())
                if (!command.empty() && command[0] == "SUBSCRIBE") return true;
            return false;
        },
        5000ms));
    first.name("10.0.0.9", 6379);
    first.announce("outpost 10.0.0.1 6379 10.0.0.9 6379");
    // Announced by one: not followed.
    std::this_thread::sleep_for(600ms);
    CHECK(primary.endpoint().host == "10.0.0.1");
    CHECK(primary.changes() == 0);
    // A second sentinel learns it: followed at once, not at the next periodic check.
    second.name("10.0.0.9", 6379);
    CHECK(eventually([&] { return primary.endpoint().host == "10.0.0.9"; }, 2000ms));
    CHECK(primary.changes() == 1);
}
