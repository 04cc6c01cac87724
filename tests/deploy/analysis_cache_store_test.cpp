// The analysis cache's shared backends: Redis (two objects stand for two replicas) and the
// SQLite file (two connections, as two processes would open it). The same contract as the
// memory store (tests/server/test_analysis_cache.cpp): the slot rule, and the LRU bound really
// holds in the backend. Redis: skipped with a warning when redis-server is not installed.
#include <hiredis/hiredis.h>

#include <catch2/catch.hpp>
#include <memory>

#include "store/redis_analysis_cache.h"
#include "store/sqlite_analysis_cache.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::RedisServerProcess;
using outpost::test::TempDir;

namespace {

using Factory = std::function<std::shared_ptr<AnalysisCacheStore>(std::size_t capacity)>;

// What every backend must do; `make` gives another handle on the same backing store.
void checkContract(const Factory& make) {
    auto replicaA = make(3);
    auto replicaB = make(3);
    CHECK(replicaA->get("p1").status == StoreStatus::NotFound);

    // Written on one replica, read on the other.
    REQUIRE(replicaA->put("p1", {1, 10, R"({"depth":10})"}) == StoreStatus::Ok);
    AnalysisCacheRead read = replicaB->get("p1");
    REQUIRE(read.status == StoreStatus::Ok);
    REQUIRE(read.slots.size() == 1);
    CHECK(read.slots[0].multipv == 1);
    CHECK(read.slots[0].depth == 10);
    CHECK(read.slots[0].doc == R"({"depth":10})");

    // Shallower changes nothing, deeper replaces, more lines at less depth is kept beside.
    REQUIRE(replicaB->put("p1", {1, 8, "shallow"}) == StoreStatus::Ok);
    CHECK(replicaA->get("p1").slots.at(0).doc == R"({"depth":10})");
    REQUIRE(replicaB->put("p1", {1, 14, "deep"}) == StoreStatus::Ok);
    REQUIRE(replicaB->put("p1", {3, 12, "three"}) == StoreStatus::Ok);
    read = replicaA->get("p1");
    REQUIRE(read.slots.size() == 2);
    for (const AnalysisSlot& slot : read.slots) {
        CHECK(slot.doc == (slot.multipv == 1 ? "deep" : "three"));
    }
    // A deeper three-line analysis covers both.
    REQUIRE(replicaA->put("p1", {3, 15, "all"}) == StoreStatus::Ok);
    read = replicaB->get("p1");
    REQUIRE(read.slots.size() == 1);
    CHECK(read.slots[0].doc == "all");

    // LRU over both replicas: p1 used last of the first three, so p2 goes when p4 comes.
    REQUIRE(replicaA->put("p2", {1, 10, "two"}) == StoreStatus::Ok);
    REQUIRE(replicaB->put("p3", {1, 10, "three"}) == StoreStatus::Ok);
    REQUIRE(replicaB->get("p1").status == StoreStatus::Ok);
    REQUIRE(replicaA->put("p4", {1, 10, "four"}) == StoreStatus::Ok);
    CHECK(replicaA->size() == 3);
    CHECK(replicaB->get("p2").status == StoreStatus::NotFound);
    for (const char* kept : {"p1", "p3", "p4"}) {
        INFO(kept);
        CHECK(replicaA->get(kept).status == StoreStatus::Ok);
    }
    // Many more positions: still bounded.
    for (int i = 0; i < 20; ++i) {
        REQUIRE(replicaB->put("many" + std::to_string(i), {1, 10, "x"}) == StoreStatus::Ok);
    }
    CHECK(replicaA->size() == 3);
    CHECK(replicaA->get("many19").status == StoreStatus::Ok);
    CHECK(replicaA->get("p1").status == StoreStatus::NotFound);

    // Age: when it was made is kept, and a slot a day old yields to a shallower one.
    const std::int64_t made = 1'700'000'000;
    const std::int64_t maxAge = kAnalysisSlotMaxAge.count();
    REQUIRE(replicaA->put("aged", {1, 20, "old", made}) == StoreStatus::Ok);
    CHECK(replicaB->get("aged").slots.at(0).madeAt == made);
    REQUIRE(replicaB->put("aged", {1, 8, "fresh", made + maxAge - 1}) == StoreStatus::Ok);
    CHECK(replicaA->get("aged").slots.at(0).doc == "old");
    REQUIRE(replicaB->put("aged", {1, 8, "fresh", made + maxAge}) == StoreStatus::Ok);
    read = replicaA->get("aged");
    REQUIRE(read.slots.size() == 1);
    CHECK(read.slots[0].doc == "fresh");
    CHECK(read.slots[0].madeAt == made + maxAge);
}

}  // namespace

TEST_CASE("analysis cache in Redis: shared by replicas, slot rule, LRU bound", "[deploy][redis]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis analysis cache test skipped");
        return;
    }
    REQUIRE(redis.start());
    checkContract([&](std::size_t capacity) {
        RedisAnalysisCacheOptions options;
        options.url = redis.url();
        options.timeout = 1000ms;
        options.capacity = capacity;
        return std::make_shared<RedisAnalysisCache>(options);
    });

    // The bound holds in Redis itself: the evicted position's hash is gone, not only its rank.
    redisContext* raw = redisConnect("127.0.0.1", redis.port());
    REQUIRE(raw);
    auto* keys = static_cast<redisReply*>(redisCommand(raw, "KEYS outpost:analysis:pos:*"));
    REQUIRE(keys);
    CHECK(keys->elements == 3);
    freeReplyObject(keys);
    redisFree(raw);
}

TEST_CASE("analysis cache in Redis: unavailable while Redis is down", "[deploy][redis]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis analysis cache test skipped");
        return;
    }
    RedisAnalysisCacheOptions options;
    options.url = redis.url();  // nothing listens yet
    options.timeout = 300ms;
    options.capacity = 10;
    RedisAnalysisCache cache(options);
    CHECK(cache.get("p").status == StoreStatus::Unavailable);
    CHECK(cache.put("p", {1, 10, "x"}) == StoreStatus::Unavailable);
}

TEST_CASE("analysis cache in SQLite: shared by connections to the file, slot rule, LRU bound",
          "[deploy][sqlite]") {
    TempDir dir;
    const std::string path = (dir.path() / "games.db").string();
    checkContract([&](std::size_t capacity) {
        SqliteAnalysisCacheOptions options;
        options.path = path;
        options.capacity = capacity;
        return std::make_shared<SqliteAnalysisCache>(options);
    });
    // Reopened: what was kept is still there.
    SqliteAnalysisCacheOptions options;
    options.path = path;
    options.capacity = 3;
    SqliteAnalysisCache reopened(options);
    CHECK(reopened.size() == 3);
    CHECK(reopened.get("many19").status == StoreStatus::Ok);
}
