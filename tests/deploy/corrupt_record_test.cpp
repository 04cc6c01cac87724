// Issue 16, item 3: a game record damaged in the store (written by something else: an illegal
// move in its list, or a document that is not JSON at all) answers a clear error for that game,
// on every route that reads it, and takes nothing else down. The records are written straight
// into SQLite and Redis, past the store's own code.
#include <hiredis/hiredis.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "../server/test_support.h"
#include "store/game_record_json.h"
#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::server::testing::HandlerFixture;
using outpost::server::testing::testConfig;
using outpost::test::RedisServerProcess;
using outpost::test::sampleGame;
using outpost::test::TempDir;

namespace {

// A game whose third move is illegal, as JSON the store would otherwise accept.
std::string illegalMoveDoc(const std::string& id) {
    GameRecord game = sampleGame(id);
    game.engine.side = "none";
    game.moves = {"e2e4", "e7e5", "e1e3"};
    return toStoredJson(game).dump();
}

constexpr const char* kBrokenJson = R"({"id":"broken-json","moves":["e2e4")";

void checkCorrupt(HandlerFixture& f, const std::string& id) {
    for (const std::string suffix : {"", "/pgn", "/stream"}) {
        INFO(id << suffix);
        auto sink = f.call(http::verb::get, "/api/v1/games/" + id + suffix);
        CHECK(sink->status() == 500);
        CHECK(sink->errorCode() == "corrupt_game");
    }
    auto move = f.call(http::verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"d2d4"})",
                       {{"Authorization", "Bearer token-" + id}});
    CHECK(move->status() == 500);
    CHECK(move->errorCode() == "corrupt_game");
}

void checkServesOn(HandlerFixture& f, const std::string& goodId) {
    auto good = f.call(http::verb::get, "/api/v1/games/" + goodId);
    CHECK(good->status() == 200);
    // The listing leaves the damaged games out instead of failing as a whole.
    auto listed = f.call(http::verb::get, "/api/v1/games?ids=illegal-move,broken-json," + goodId);
    REQUIRE(listed->status() == 200);
    const auto games = listed->json()["games"];
    REQUIRE(games.size() == 1);
    CHECK(games[0]["id"] == goodId);
    CHECK(f.bus->waitNoSubscriptions());
}

}  // namespace

TEST_CASE("Corrupt records: SQLite rows that do not replay or do not parse",
          "[deploy][sqlite][hardening]") {
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    auto store = std::make_shared<SqliteGameStore>(options);
    {
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(options.path.c_str(), &db) == SQLITE_OK);
        for (const auto& [id, doc] : std::vector<std::pair<std::string, std::string>>{
                 {"illegal-move", illegalMoveDoc("illegal-move")}, {"broken-json", kBrokenJson}}) {
            sqlite3_stmt* insert = nullptr;
            REQUIRE(sqlite3_prepare_v2(db,
                                       "INSERT INTO games(id, version, status, created_at, "
                                       "updated_at, doc) VALUES(?1, 1, 'ongoing', 1, 1, ?2)",
                                       -1, &insert, nullptr) == SQLITE_OK);
            sqlite3_bind_text(insert, 1, id.c_str(), -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(insert, 2, doc.c_str(), -1, SQLITE_TRANSIENT);
            CHECK(sqlite3_step(insert) == SQLITE_DONE);
            sqlite3_finalize(insert);
        }
        sqlite3_close(db);
    }
    CHECK(store->get("broken-json").status == StoreStatus::Corrupt);
    HandlerFixture f(testConfig(), store);
    const std::string good = f.createGame().first;
    checkCorrupt(f, "illegal-move");
    checkCorrupt(f, "broken-json");
    checkServesOn(f, good);
}

TEST_CASE("Corrupt records: Redis hashes that do not replay or do not parse",
          "[deploy][redis][hardening]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; Redis corrupt-record test skipped");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    auto store = std::make_shared<RedisGameStore>(options);
    RedisConnectionPool pool(*parseRedisUrl(redis.url(), nullptr), 1000ms);
    for (const auto& [id, doc] : std::vector<std::pair<std::string, std::string>>{
             {"illegal-move", illegalMoveDoc("illegal-move")}, {"broken-json", kBrokenJson}}) {
        RedisReplyPtr reply =
            pool.command({"HSET", "outpost:game:" + id, "version", "1", "doc", doc});
        REQUIRE(reply);
        CHECK(reply->type == REDIS_REPLY_INTEGER);
    }
    CHECK(store->get("broken-json").status == StoreStatus::Corrupt);
    HandlerFixture f(testConfig(), store);
    const std::string good = f.createGame().first;
    checkCorrupt(f, "illegal-move");
    checkCorrupt(f, "broken-json");
    checkServesOn(f, good);
}
