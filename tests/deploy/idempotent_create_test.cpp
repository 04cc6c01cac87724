// A game creation retried with its Idempotency-Key on another replica, both on one private
// redis-server (games/idempotent_create.h): the retry gets the first replica's game, even when
// the first answer was lost; two replicas racing with one key make one game. Skipped with a
// warning when redis-server is not installed.
#include <hiredis/hiredis.h>

#include <catch2/catch.hpp>
#include <thread>

#include "../server/test_support.h"
#include "store/redis_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::server::testing::HandlerFixture;
using outpost::server::testing::RecordingSink;
using outpost::server::testing::testConfig;
using outpost::test::RedisServerProcess;
using Verb = boost::beast::http::verb;

namespace {

std::shared_ptr<GameStore> redisStore(const RedisServerProcess& redis) {
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    return std::make_shared<RedisGameStore>(options);
}

std::shared_ptr<RecordingSink> create(HandlerFixture& replica, const std::string& key,
                                      const std::string& body, bool wait = true) {
    return replica.call(Verb::post, "/api/v1/games", body, {{"Idempotency-Key", key}}, wait);
}

}  // namespace

TEST_CASE("Redis: a creation retried with its Idempotency-Key on another replica gets its game",
          "[deploy][redis][idempotency]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; the idempotent creation test is skipped");
        return;
    }
    REQUIRE(redis.start());
    HandlerFixture a(testConfig(), redisStore(redis));
    HandlerFixture b(testConfig(), redisStore(redis));
    const std::string body = R"({"engine":{"side":"none"},"clock":{"initial":300,"increment":2}})";

    // The first answer is lost on its way back; the retry reaches another replica.
    auto first = create(a, "c1f4b8e2-7d5a-4f0e-b3c9-1a2b3c4d5e6f", body);
    REQUIRE(first->status() == 201);
    auto retry = create(b, "c1f4b8e2-7d5a-4f0e-b3c9-1a2b3c4d5e6f", body);
    REQUIRE(retry->status() == 201);
    CHECK(std::string(retry->response()["Idempotent-Replayed"]) == "true");
    for (const char* field : {"id", "playerToken", "inviteToken", "playerSide"}) {
        INFO(field);
        CHECK(retry->json().at(field) == first->json().at(field));
    }
    CHECK(a.context.store->count() == 1);

    // Another body with that key, on either replica: refused.
    auto other = create(b, "c1f4b8e2-7d5a-4f0e-b3c9-1a2b3c4d5e6f", R"({"engine":{"side":"none"}})");
    CHECK(other->status() == 422);
    CHECK(other->errorCode() == "idempotency_key_reused");

    // The store keeps the key a day, by a hash: neither the key nor a token is in it.
    auto keys = outpost::test::runRedis(redis.port(), {"KEYS", "outpost:idem:*"});
    REQUIRE(keys);
    REQUIRE(keys->elements == 1);
    const std::string name(keys->element[0]->str, keys->element[0]->len);
    CHECK(name.find("c1f4b8e2") == std::string::npos);
    auto ttl = outpost::test::runRedis(redis.port(), {"TTL", name});
    REQUIRE(ttl);
    CHECK(ttl->integer > 23 * 3600);
    CHECK(ttl->integer <= 24 * 3600);
    auto doc = outpost::test::runRedis(redis.port(), {"GET", name});
    REQUIRE(doc);
    const std::string stored(doc->str, doc->len);
    CHECK(stored.find(first->json().at("playerToken").get<std::string>()) == std::string::npos);
    CHECK(stored.find(first->json().at("inviteToken").get<std::string>()) == std::string::npos);

    // Both replicas at once with a new key, several times each: one game.
    std::vector<std::shared_ptr<RecordingSink>> sinks;
    for (int i = 0; i < 6; ++i)
        sinks.push_back(create(i % 2 == 0 ? a : b, "race-key-0042", body, false));
    for (auto& sink : sinks) {
        REQUIRE(sink->wait());
        CHECK(sink->status() == 201);
        CHECK(sink->json().at("id") == sinks.front()->json().at("id"));
    }
    CHECK(a.context.store->count() == 2);
}
