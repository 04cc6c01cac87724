// Issue 16, item 6: unfinished games nobody touches expire (abandoned games), as finished games
// do after their retention; a game still being played is kept, whatever its age.
#include <hiredis/hiredis.h>

#include <catch2/catch.hpp>

#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "store/store_selection.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::RedisServerProcess;
using outpost::test::sampleGame;
using outpost::test::TempDir;

namespace {
std::int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}
}  // namespace

TEST_CASE("Abandoned games: the server's default removes unfinished games after 30 days",
          "[deploy][hardening]") {
    const StoreSettings settings = storeSettingsFor(ServerConfig{});
    CHECK(settings.unfinishedRetention == std::chrono::hours(24 * 30));
    CHECK(settings.finishedRetention == kKeepFinishedForever);
}

TEST_CASE("Abandoned games: SQLite deletes unfinished games untouched for the retention",
          "[deploy][sqlite][hardening]") {
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    options.unfinishedRetention = std::chrono::hours(24);
    SqliteGameStore store(options);
    REQUIRE(store.create(sampleGame("abandoned")) == StoreStatus::Ok);  // last changed in 2023
    GameRecord active = sampleGame("active");
    active.updatedAtMs = nowMs();
    REQUIRE(store.create(active) == StoreStatus::Ok);
    GameRecord oldFinished = sampleGame("old-finished");
    oldFinished.status = "resigned";
    oldFinished.result = "0-1";
    REQUIRE(store.create(oldFinished) == StoreStatus::Ok);

    CHECK(store.pruneFinished() == 1);
    CHECK(store.get("abandoned").status == StoreStatus::NotFound);
    CHECK(store.get("active").status == StoreStatus::Ok);
    CHECK(store.get("old-finished").status == StoreStatus::Ok);  // finished: kept forever here

    // Zero keeps unfinished games, however old.
    SqliteStoreOptions keep = options;
    keep.unfinishedRetention = kKeepForever;
    SqliteGameStore keeping(keep);
    REQUIRE(keeping.create(sampleGame("old-but-kept")) == StoreStatus::Ok);
    CHECK(keeping.pruneFinished() == 0);
    CHECK(keeping.get("old-but-kept").status == StoreStatus::Ok);
}

TEST_CASE("Abandoned games: Redis sets the unfinished retention as expiry, renewed by each move",
          "[deploy][redis][hardening]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis abandoned-game test skipped");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    options.unfinishedRetention = 7200s;
    options.finishedRetention = 3600s;
    RedisGameStore store(options);
    RedisConnectionPool pool(*parseRedisUrl(redis.url(), nullptr), 1000ms);
    auto ttlOf = [&](const std::string& id) {
        RedisReplyPtr ttl = pool.command({"TTL", "outpost:game:" + id});
        REQUIRE(ttl);
        return ttl->integer;
    };
    GameRecord game = sampleGame("playing");
    REQUIRE(store.create(game) == StoreStatus::Ok);
    CHECK(ttlOf("playing") > 7100);
    CHECK(ttlOf("playing") <= 7200);
    // A move renews it (EXPIRE again, not PERSIST).
    REQUIRE(pool.command({"EXPIRE", "outpost:game:playing", "100"}));
    GameRecord moved = game;
    moved.moves = {"e2e4"};
    moved.version = 2;
    REQUIRE(store.update(moved, 1) == StoreStatus::Ok);
    CHECK(ttlOf("playing") > 7100);
    // Finished: the finished retention.
    GameRecord resigned = moved;
    resigned.status = "resigned";
    resigned.result = "1-0";
    resigned.version = 3;
    REQUIRE(store.update(resigned, 2) == StoreStatus::Ok);
    CHECK(ttlOf("playing") > 3500);
    CHECK(ttlOf("playing") <= 3600);

    // Zero keeps unfinished games: no expiry.
    RedisStoreOptions keep = options;
    keep.unfinishedRetention = kKeepForever;
    RedisGameStore keeping(keep);
    REQUIRE(keeping.create(sampleGame("kept")) == StoreStatus::Ok);
    CHECK(ttlOf("kept") == -1);
}
