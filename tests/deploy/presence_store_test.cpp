// Presence entries (games/presence.h) in every store: each replica's entry replaced by its next
// one, every replica's read back with its age on the store's clock (Redis's TIME), removed when
// the game ends, and in Redis a key that expires; offers in the stored game.
#include <hiredis/hiredis.h>

#include <catch2/catch.hpp>

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

// Entries compared without their age (which the store sets on reading).
bool sameReport(PresenceEntry a, const PresenceEntry& b) {
    a.ageMs = b.ageMs;
    return a == b;
}

void checkPresenceRoundTrip(GameStore& store) {
    CHECK(store.getPresence("g").status == StoreStatus::Ok);
    CHECK(store.getPresence("g").entries.empty());
    const PresenceEntry first{"replica-a", true, false, 0, kNeverSeen};
    const PresenceEntry second{"replica-b", false, false, kNeverSeen, 2000};
    REQUIRE(store.putPresence("g", first) == StoreStatus::Ok);
    REQUIRE(store.putPresence("g", second) == StoreStatus::Ok);
    // Replica a's next report replaces its first.
    const PresenceEntry left{"replica-a", false, false, 3000, kNeverSeen};
    REQUIRE(store.putPresence("g", left) == StoreStatus::Ok);
    PresenceReadResult read = store.getPresence("g");
    REQUIRE(read.status == StoreStatus::Ok);
    REQUIRE(read.entries.size() == 2);
    auto byReplica = [&](const std::string& replica) {
        for (const PresenceEntry& entry : read.entries)
            if (entry.replica == replica) return entry;
        return PresenceEntry{};
    };
    CHECK(sameReport(byReplica("replica-a"), left));
    CHECK(sameReport(byReplica("replica-b"), second));
    // Each entry's age on the store's clock: just written.
    for (const PresenceEntry& entry : read.entries) {
        CHECK(entry.ageMs >= 0);
        CHECK(entry.ageMs < 5000);
    }
    CHECK(store.getPresence("other").entries.empty());
    // A game's entries go at once when it ends.
    REQUIRE(store.putPresence("other", first) == StoreStatus::Ok);
    REQUIRE(store.removePresence("other") == StoreStatus::Ok);
    CHECK(store.getPresence("other").entries.empty());
    CHECK(store.getPresence("g").entries.size() == 2);

    // The offers are part of the stored game.
    GameRecord game = sampleGame("offered");
    game.drawOffer = "white";
    game.takebackOffer = "black";
    REQUIRE(store.create(game) == StoreStatus::Ok);
    const GameRecord stored = *store.get("offered").game;
    CHECK(stored.drawOffer == "white");
    CHECK(stored.takebackOffer == "black");
}

}  // namespace

TEST_CASE("memory and SQLite stores: presence entries per replica, offers kept",
          "[deploy][sqlite][presence]") {
    MemoryGameStore memory;
    checkPresenceRoundTrip(memory);
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    SqliteGameStore sqlite(options);
    checkPresenceRoundTrip(sqlite);
}

TEST_CASE("Redis store: presence entries per replica in one expiring hash, offers kept",
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
    checkPresenceRoundTrip(store);
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
    for (const PresenceEntry& entry : store.getPresence("g").entries) {
        if (entry.replica != "stamped") continue;
        CHECK(entry.ageMs >= 5000);
        CHECK(entry.ageMs < 10000);
        CHECK(entry.whiteIdleMs == 100);
        CHECK(entry.blackIdleMs == kNeverSeen);
    }
    REQUIRE(store.removePresence("g") == StoreStatus::Ok);
    CHECK(store.getPresence("g").entries.empty());
}
