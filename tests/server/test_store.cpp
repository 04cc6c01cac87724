// The stored JSON, the in-process event bus and the subscriber registry. What every GameStore
// does (create, compare-and-set, racing updates, listings) is the store contract, checked on the
// memory store beside SQLite and Redis: tests/deploy/store_contract_test.cpp.
#include <catch2/catch.hpp>
#include <vector>

#include "store/game_record_json.h"
#include "store/memory_game_store.h"
#include "store/subscriber_registry.h"

using namespace outpost::server;

namespace {
GameRecord sampleGame(const std::string& id) {
    GameRecord game;
    game.id = id;
    game.whiteTokenHash = "0123456789abcdef";
    game.initialFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    game.moves = {"e2e4", "e7e5"};
    game.engine.side = "black";
    game.engine.level = 3;
    game.engine.limits = LimitsSpec{4, 100, std::nullopt};
    game.clock = ClockState{60000, 1000, 59000, 60000, 1234, true};
    game.createdAtMs = 1;
    game.updatedAtMs = 2;
    return game;
}
}  // namespace

TEST_CASE("stored JSON round-trips every field", "[server][store]") {
    GameRecord game = sampleGame("json");
    game.status = "resigned";
    game.result = "0-1";
    game.winner = "black";
    REQUIRE(gameRecordFromStoredJson(toStoredJson(game)) == game);
    GameRecord plain;
    plain.id = "p";
    plain.initialFen = game.initialFen;
    REQUIRE(gameRecordFromStoredJson(toStoredJson(plain)) == plain);
}

TEST_CASE("memory event bus delivers to the game's subscribers until unsubscribed",
          "[server][store]") {
    MemoryEventBus bus;
    std::vector<std::string> a, b;
    auto subA = bus.subscribe("g", [&](const GameEvent& e) { a.push_back(e.payload); });
    auto subB = bus.subscribe("h", [&](const GameEvent& e) { b.push_back(e.payload); });
    REQUIRE(subA != 0);
    REQUIRE(subA != subB);
    bus.publish({GameEvent::Kind::GameChanged, "g", 2, "one"});
    bus.publish({GameEvent::Kind::EngineInfo, "h", 2, "two"});
    bus.unsubscribe(subA);
    bus.publish({GameEvent::Kind::GameChanged, "g", 3, "three"});
    REQUIRE(a == std::vector<std::string>{"one"});
    REQUIRE(b == std::vector<std::string>{"two"});
    // A handler may unsubscribe itself without deadlocking.
    GameEventBus::SubscriptionId self = 0;
    int calls = 0;
    self = bus.subscribe("g", [&](const GameEvent&) {
        ++calls;
        bus.unsubscribe(self);
    });
    bus.publish({GameEvent::Kind::GameChanged, "g", 4, "x"});
    bus.publish({GameEvent::Kind::GameChanged, "g", 5, "y"});
    REQUIRE(calls == 1);
    bus.unsubscribe(subB);
}

TEST_CASE("subscriber registry: several subscribers per game, each removed alone",
          "[server][store]") {
    // The one registry both buses use (MemoryEventBus in process, RedisEventBus for what
    // arrives from Redis).
    SubscriberRegistry registry;
    std::vector<std::string> seen;
    auto first = registry.add("g", [&](const GameEvent& e) { seen.push_back("1:" + e.payload); });
    auto second = registry.add("g", [&](const GameEvent& e) { seen.push_back("2:" + e.payload); });
    registry.add("other", [&](const GameEvent& e) { seen.push_back("o:" + e.payload); });
    registry.dispatch({GameEvent::Kind::GameChanged, "g", 2, "a"});
    registry.remove(first);
    registry.remove(first);   // twice: no effect
    registry.remove(999999);  // unknown: no effect
    registry.dispatch({GameEvent::Kind::GameChanged, "g", 3, "b"});
    registry.dispatch({GameEvent::Kind::GameChanged, "none", 3, "c"});
    registry.remove(second);
    registry.dispatch({GameEvent::Kind::GameChanged, "g", 4, "d"});
    REQUIRE(seen == std::vector<std::string>{"1:a", "2:a", "2:b"});
}
