// Presence entries (games/presence.h) in Redis: one hash per game that expires, a damaged field
// left out, and ages measured on Redis's clock (TIME) alone. What every store does with presence
// (each replica's entry replaced by its next one, every replica's read back with its age on the
// store's clock, removed when the game ends) is the store contract (store_contract_test.cpp).
#include <hiredis/hiredis.h>

#include <catch2/catch.hpp>

#include "store/redis_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::RedisServerProcess;

TEST_CASE("Redis store: presence entries per replica in one expiring hash, aged on Redis's clock",
          "[deploy][redis][presence]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis presence test skipped");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    RedisGameStore store(options);
    REQUIRE(store.putPresence("g", {"replica-a", true, false, 0, kNeverSeen}) == StoreStatus::Ok);
    REQUIRE(store.putPresence("g", {"replica-b", false, false, kNeverSeen, 2000}) ==
            StoreStatus::Ok);
    REQUIRE(store.getPresence("g").entries.size() == 2);
    RedisConnectionPool pool(*parseRedisUrl(redis.url(), nullptr), 1000ms);
    RedisReplyPtr ttl = pool.command({"TTL", "outpost:presence:g"});
    REQUIRE(ttl);
    CHECK(ttl->integer > 3600);
    CHECK(ttl->integer <= std::chrono::duration_cast<std::chrono::seconds>(kPresenceKeep).count());
    // A damaged field is left out, the others still read.
    REQUIRE(pool.command({"HSET", "outpost:presence:g", "broken", "not,an,entry"}));
    CHECK(store.getPresence("g").entries.size() == 2);
    // The age is measured on Redis's clock (TIME) alone: an entry stamped 5 s before Redis's now
    // reads 5 s old, whatever the reading process's clock says.
    RedisReplyPtr time = pool.command({"TIME"});
    REQUIRE(time);
    REQUIRE(time->elements == 2);
    const std::int64_t redisMs =
        std::stoll(time->element[0]->str) * 1000 + std::stoll(time->element[1]->str) / 1000;
    REQUIRE(pool.command(
        {"HSET", "outpost:presence:g", "stamped", "0,0,100,-1," + std::to_string(redisMs - 5000)}));
    bool stampedRead = false;
    for (const PresenceEntry& entry : store.getPresence("g").entries) {
        if (entry.replica != "stamped") continue;
        stampedRead = true;
        CHECK(entry.ageMs >= 5000);
        CHECK(entry.ageMs < 10000);
        CHECK(entry.whiteIdleMs == 100);
        CHECK(entry.blackIdleMs == kNeverSeen);
    }
    CHECK(stampedRead);
    REQUIRE(store.removePresence("g") == StoreStatus::Ok);
    CHECK(store.getPresence("g").entries.empty());
    RedisReplyPtr exists = pool.command({"EXISTS", "outpost:presence:g"});
    REQUIRE(exists);
    CHECK(exists->integer == 0);
}
