// Issue 16, item 4, the probe: with Redis hung (SIGSTOP), requests that need the store wait on
// the store executor, while /healthz, answered by the I/O threads, stays fast.
#include <catch2/catch.hpp>
#include <future>

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

TEST_CASE("Redis hung: /healthz answers at once while store requests wait", "[deploy][redis]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; test skipped");
        return;
    }
    REQUIRE(redis.start());
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
    auto control = std::make_shared<FakeControl>();
    parts.searchers = fakeSearchers(control);
    Server server(config, std::move(parts));
    server.start();

    HttpClient setup(server.port());
    auto created = setup.request(Verb::post, "/api/v1/games", R"({"engine":{"side":"none"}})");
    REQUIRE(created.status == 201);
    const std::string id = created.json()["id"];

    redis.pause();
    // Requests that need the store, on connections of their own: each holds a store thread.
    std::vector<std::future<int>> stuck;
    for (int i = 0; i < 6; ++i) {
        stuck.push_back(std::async(std::launch::async, [&, i] {
            HttpClient client(server.port());
            const char* target = i % 2 ? "/readyz" : nullptr;
            auto result = target ? client.request(Verb::get, target)
                                 : client.request(Verb::get, "/api/v1/games/" + id);
            return static_cast<int>(result.status);
        }));
    }
    std::this_thread::sleep_for(200ms);
    HttpClient probe(server.port());
    std::chrono::steady_clock::duration worst{};
    for (int i = 0; i < 10; ++i) {
        const auto started = std::chrono::steady_clock::now();
        auto health = probe.request(Verb::get, "/healthz");
        worst = std::max(worst, std::chrono::steady_clock::now() - started);
        REQUIRE(health.status == 200);
    }
    const auto worstMs = std::chrono::duration_cast<std::chrono::milliseconds>(worst).count();
    INFO("slowest /healthz while Redis hangs: " << worstMs << " ms");
    CHECK(worstMs < 100);  // 7.8 s before the store work moved off the I/O threads
    redis.resume();
    for (auto& request : stuck) {
        const int status = request.get();
        CHECK((status == 200 || status == 503));
    }
    server.shutdown();
    server.wait();
}
