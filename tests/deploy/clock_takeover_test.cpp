// Issue 14, faults: a clock keeps running when the replica that armed it dies. Replica A stores
// a move that starts a clock and goes away before its flag watch fires (destroyed, as after a
// kill -9); replicas B and C, started on the same store, find the running clock in the store's
// index and end the game on time with no request, once. For every backend.
#include <catch2/catch.hpp>
#include <sstream>

#include "fake_searcher.h"
#include "server.h"
#include "store/memory_game_store.h"
#include "store/redis_event_bus.h"
#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using namespace std::chrono_literals;
using Verb = boost::beast::http::verb;
using outpost::test::eventually;
using outpost::test::RedisServerProcess;
using outpost::test::TempDir;

namespace {

// The clock of the game: the side to move has this long after the first move.
constexpr std::int64_t kClockMs = 1500;
// How late after its deadline the flag may be recorded: the sweep at start arms it at once, so
// only the watch's wake-up and one store round trip are in between.
constexpr std::int64_t kFlagToleranceMs = 1000;

using StoreFactory = std::function<std::shared_ptr<GameStore>()>;

std::int64_t epochMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::unique_ptr<Server> startReplica(std::shared_ptr<GameStore> store, std::ostream* log,
                                     std::int64_t clockSweepMs = ServerConfig().clockSweepMs) {
    ServerConfig config = outpost::test::liveReplicaConfig();
    config.clockSweepMs = clockSweepMs;
    // The clock starts with White's move (no first-move deadline): Black's flag is the one armed.
    // The first-move deadline's takeover is in tests/server/test_fair_play.cpp.
    config.firstMoveDeadlineMs = 0;
    ServerParts parts;
    parts.store = std::move(store);
    parts.bus = std::make_shared<MemoryEventBus>();
    parts.searchers = fakeSearchers(std::make_shared<FakeControl>());
    parts.log = log;
    auto server = std::make_unique<Server>(config, std::move(parts));
    server->start();
    return server;
}

int countLines(const std::string& log, const std::string& needle) {
    int count = 0;
    std::istringstream lines(log);
    for (std::string line; std::getline(lines, line);)
        if (line.find(needle) != std::string::npos) ++count;
    return count;
}

// A replica that stores a move starting a clock, and dies (is destroyed) before the flag falls.
struct ArmedGame {
    std::string id;
    std::int64_t deadline = 0;
};
ArmedGame armAndDie(std::shared_ptr<GameStore> store, std::ostream* log) {
    std::string id;
    std::int64_t deadline = 0;
    {
        auto replicaA = startReplica(std::move(store), log);
        HttpClient client(replicaA->port());
        auto created = client.request(
            Verb::post, "/api/v1/games",
            R"({"engine":{"side":"none"},"clock":{"initial":)" + std::to_string(kClockMs) + "}}");
        REQUIRE(created.status == 201);
        id = created.json()["id"];
        const std::string token = created.json()["playerToken"];
        const std::int64_t before = epochMs();
        auto moved = client.request(Verb::post, "/api/v1/games/" + id + "/moves",
                                    R"({"move":"e2e4"})", {{"Authorization", "Bearer " + token}});
        REQUIRE(moved.status == 200);
        deadline = before + kClockMs;  // Black's flag falls then (or a little later)
        client.close();
        replicaA->shutdown();
        replicaA->wait();
    }  // A is gone, its flag watch with it, well before the deadline
    REQUIRE(epochMs() < deadline);
    return {id, deadline};
}

// Waits (reading the store, never asking the server) until the game ended; checks it ended on
// time, by the flag, once.
void checkEndedOnTime(GameStore& store, const ArmedGame& armed) {
    const std::string& id = armed.id;
    const std::int64_t deadline = armed.deadline;
    REQUIRE(eventually(
        [&] {
            auto read = store.get(id);
            return read.game && read.game->status != "ongoing";
        },
        std::chrono::milliseconds(kClockMs + 3 * kFlagToleranceMs)));
    const std::int64_t endedAt = epochMs();
    GameRecord ended = *store.get(id).game;
    CHECK(ended.status == "timeout");
    CHECK(ended.winner == "white");
    CHECK(ended.version == 3);  // created, e2e4, the flag fall: recorded once
    CHECK(ended.updatedAtMs >= deadline);
    CHECK(endedAt <= deadline + kFlagToleranceMs);
    CHECK(ended.clock->blackMs == 0);
}

// identicalWritesMerge: the backend accepts a write that is byte for byte the one already stored
// as a replay (Redis: a command retried after a lost reply). Two replicas whose watches fire in
// the same millisecond write the same record; both see Ok, and it is one change all the same.
void checkTakeover(const StoreFactory& openStore, bool identicalWritesMerge = false) {
    std::ostringstream logA;
    std::ostringstream logB;
    std::ostringstream logC;
    const ArmedGame armed = armAndDie(openStore(), &logA);

    std::shared_ptr<GameStore> store = openStore();
    auto replicaB = startReplica(store, &logB);
    auto replicaC = startReplica(openStore(), &logC);
    // Nobody asks: the store is read directly (a GET would record the flag fall itself).
    checkEndedOnTime(*store, armed);
    replicaB->shutdown();
    replicaB->wait();
    replicaC->shutdown();
    replicaC->wait();
    replicaB.reset();
    replicaC.reset();
    CHECK(countLines(logA.str(), "\"flag_fall\"") == 0);
    const int fallsLogged =
        countLines(logB.str(), "\"flag_fall\"") + countLines(logC.str(), "\"flag_fall\"");
    if (identicalWritesMerge) {
        CHECK(fallsLogged >= 1);
        CHECK(fallsLogged <= 2);
    } else {
        CHECK(fallsLogged == 1);
    }
}

}  // namespace

TEST_CASE("faults: a running clock outlives its replica (memory store)", "[deploy][faults]") {
    auto shared = std::make_shared<MemoryGameStore>();
    checkTakeover([&] { return shared; });
}

TEST_CASE("faults: a running clock outlives its replica (SQLite)", "[deploy][faults]") {
    TempDir dir;
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    checkTakeover([&] { return std::make_shared<SqliteGameStore>(options); });
}

TEST_CASE("faults: a running clock outlives its replica (Redis)", "[deploy][faults][redis]") {
    RedisServerProcess redis;
    if (!redis.available()) {
        WARN("redis-server is not installed; test skipped");
        return;
    }
    REQUIRE(redis.start());
    RedisStoreOptions options;
    options.url = redis.url();
    options.timeout = 1000ms;
    checkTakeover([&] { return std::make_shared<RedisGameStore>(options); }, true);
}

TEST_CASE("faults: a replica already running takes a dead replica's clock up on its next sweep",
          "[deploy][faults]") {
    constexpr std::int64_t kShortSweepMs = 200;
    auto shared = std::make_shared<MemoryGameStore>();
    std::ostringstream logA;
    std::ostringstream logB;
    // B runs before the game exists: only its periodic sweep can find the clock.
    auto replicaB = startReplica(shared, &logB, kShortSweepMs);
    const ArmedGame armed = armAndDie(shared, &logA);
    checkEndedOnTime(*shared, armed);
    replicaB->shutdown();
    replicaB->wait();
    replicaB.reset();
    CHECK(countLines(logB.str(), "\"flag_fall\"") == 1);
}
