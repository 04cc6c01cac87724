// Issue 16, item 5: a stored move is never answered with an error because the engine could not
// reply at once; the reply is owed, and delivered by this replica or, after a drain or a crash,
// by any replica that reads the game.
#include <catch2/catch.hpp>

#include "games/engine_replies.h"
#include "games/game_json.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using Verb = boost::beast::http::verb;

namespace {

std::size_t storedMoves(GameStore& store, const std::string& id) {
    auto read = store.get(id);
    return read.game ? read.game->moves.size() : 0;
}

bool eventuallyMoves(GameStore& store, const std::string& id, std::size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (std::chrono::steady_clock::now() < deadline) {
        if (storedMoves(store, id) >= count) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
}

}  // namespace

TEST_CASE(
    "engine replies: a move on a draining replica is accepted (202) and another replica "
    "delivers the reply",
    "[server][games]") {
    auto store = std::make_shared<MemoryGameStore>();
    HandlerFixture draining(testConfig(), store);
    auto [id, token] =
        draining.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
    draining.context.draining = true;
    draining.context.pool->beginDrain();

    // With "wait", the answer that would come after the engine's reply.
    auto moved =
        draining.call(Verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4","wait":true})",
                      {{"Authorization", "Bearer " + token}});
    REQUIRE(moved->status() == 202);
    REQUIRE(moved->json()["enginePending"] == true);
    REQUIRE(moved->json()["moves"].size() == 1);
    REQUIRE(storedMoves(*store, id) == 1);  // the move is stored, not lost
    // A retry of the same move is what used to fail with not_your_turn: the game says whose
    // turn it is and the client need not retry at all.
    REQUIRE(moved->json()["turn"] == "black");

    ServerConfig config = testConfig();
    config.engineReplyGraceMs = 0;
    HandlerFixture other(config, store);
    // The board reconnects to another replica and reads the game: that replica takes the reply
    // up once it is overdue.
    auto read = other.call(Verb::get, "/api/v1/games/" + id);
    REQUIRE(read->status() == 200);
    REQUIRE(eventuallyMoves(*store, id, 2));
    REQUIRE(other.control->started.load() == 1);
    REQUIRE(draining.control->started.load() == 0);
}

TEST_CASE(
    "engine replies: a replica whose clients follow the game takes up a reply its replica "
    "never delivers, without a read",
    "[server][games]") {
    // The board follows the game on one replica (a stream), its moves go to another, which then
    // drains (or dies) with the reply owed. The change reaches the first replica on the bus:
    // that is enough for it to take the reply up once it is overdue.
    auto store = std::make_shared<MemoryGameStore>();
    HandlerFixture draining(testConfig(), store);
    auto [id, token] =
        draining.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
    ServerConfig config = testConfig();
    config.engineReplyGraceMs = 0;
    HandlerFixture other(config, store);
    auto stream = other.call(Verb::get, "/api/v1/games/" + id + "/stream", "", {}, false);
    REQUIRE(stream->wait(1));
    draining.context.draining = true;
    draining.context.pool->beginDrain();
    auto moved = draining.call(Verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})",
                               {{"Authorization", "Bearer " + token}});
    REQUIRE(moved->status() / 100 == 2);
    REQUIRE(storedMoves(*store, id) == 1);
    // The event as the bus brings it from the draining replica (each fixture has its own bus).
    const GameRecord owed = *store->get(id).game;
    other.bus->publish(GameEvent{GameEvent::Kind::GameChanged, id, owed.version,
                                 gameEventPayload(owed, nowEpochMs())});
    REQUIRE(eventuallyMoves(*store, id, 2));
    REQUIRE(other.control->started.load() == 1);
    REQUIRE(draining.control->started.load() == 0);
    stream->disconnect();
}

TEST_CASE(
    "engine replies: on a clock a reply is overdue once the engine's hard time bound and the "
    "grace have passed",
    "[server][games]") {
    ServerConfig config = testConfig();
    config.engineReplyGraceMs = 3000;
    config.maxMovetimeMs = 60000;
    GameRecord game;
    game.engine.side = "black";
    game.updatedAtMs = 1'000'000;
    game.clock = ClockState{30000, 0, 29000, 30000, game.updatedAtMs, true};
    // Black's search with 30 s and no increment stops at 3 x 30 s / 12 = 7.5 s at the latest
    // (search/timeman.cpp): taken up 7.5 s + the grace after the move, not at half the time
    // (15 s + 3 s), so the engine keeps 19.5 s of its 30 s to make the move.
    CHECK(replyDeadlineMs(game, config) == game.updatedAtMs + 7500 + 3000);
    game.clock->incrementMs = 2000;  // 30 s + 2: 30 % of the time left, 9 s
    CHECK(replyDeadlineMs(game, config) == game.updatedAtMs + 9000 + 3000);
    game.clock->blackMs = 600000;  // a long clock: the movetime cap bounds it
    CHECK(replyDeadlineMs(game, config) == game.updatedAtMs + 60000 + 3000);
    game.engine.side = "white";  // the engine's own clock counts, not the player's
    game.clock->whiteMs = 20000;
    game.clock->incrementMs = 0;
    CHECK(replyDeadlineMs(game, config) == game.updatedAtMs + 4998 + 3000);
    game.clock->whiteMs = -5;  // a flag already down: no time, just the grace
    CHECK(replyDeadlineMs(game, config) == game.updatedAtMs + 1 + 3000);
    game.clock.reset();
    game.engine.level = 1;  // no clock: the level's time
    CHECK(replyDeadlineMs(game, config) == game.updatedAtMs + levelMovetimeMs(1) + 3000);
}

TEST_CASE(
    "engine replies: on a clock, a replica takes up the reply of a replica that died "
    "mid-search once that search must have ended, not before",
    "[server][games]") {
    // Replica A stores the player's move and starts the engine's search, which never ends there
    // (A died mid-search: its searcher is held). Replica B reads the game (the board
    // reconnected there) and takes the reply up once A's search must have stopped: the hard
    // bound of the engine's time management for its 6 s (1.5 s), plus the grace.
    auto store = std::make_shared<MemoryGameStore>();
    HandlerFixture dead(testConfig(), store);
    dead.control->closeGate();
    auto [id, token] = dead.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}},
                                                      {"clock", {{"initial", 6000}}}});
    auto moved = dead.call(Verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})",
                           {{"Authorization", "Bearer " + token}});
    REQUIRE(moved->status() / 100 == 2);
    REQUIRE(dead.control->waitStarted(1));
    const GameRecord owed = *store->get(id).game;
    REQUIRE(owed.moves.size() == 1);

    ServerConfig config = testConfig();
    config.engineReplyGraceMs = 200;
    HandlerFixture other(config, store);
    other.control->closeGate();  // to see when its search starts
    REQUIRE(other.call(Verb::get, "/api/v1/games/" + id)->status() == 200);
    REQUIRE(other.control->waitStarted(1, std::chrono::seconds(10)));
    const std::int64_t takenUpAfter = nowEpochMs() - owed.updatedAtMs;
    other.control->openGate();
    REQUIRE(eventuallyMoves(*store, id, 2));
    // Not while A's search could still run (1.5 s + 0.2 s) ...
    CHECK(takenUpAfter >= 1700);
    // ... and well before half the engine's 6 s and the grace (3.2 s), the old deadline.
    CHECK(takenUpAfter < 2900);
    CHECK(store->get(id).game->status == "ongoing");  // Black's flag (6 s) did not fall
}

TEST_CASE(
    "engine replies: a live replica slower than the deadline and the one that takes its reply "
    "up store one engine move between them",
    "[server][games]") {
    // Replica A's search for the reply outlives the deadline (a long queue, a stalled host):
    // replica B takes the reply up while A still searches. Both searches end; the store's
    // compare-and-set on the game's version lets exactly one engine move in, whichever ends
    // first, and the other replica answers with the game as stored.
    for (const bool slowFinishesFirst : {false, true}) {
        auto store = std::make_shared<MemoryGameStore>();
        HandlerFixture slow(testConfig(), store);
        slow.control->closeGate();
        auto [id, token] =
            slow.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
        auto moved =
            slow.call(Verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4","wait":true})",
                      {{"Authorization", "Bearer " + token}}, false);
        REQUIRE(slow.control->waitStarted(1));
        const std::string reply = replyKey(id, store->get(id).game->version);

        ServerConfig config = testConfig();
        config.engineReplyGraceMs = 0;
        HandlerFixture other(config, store);
        other.control->closeGate();
        REQUIRE(other.call(Verb::get, "/api/v1/games/" + id)->status() == 200);
        REQUIRE(other.control->waitStarted(1));  // two searches for the one reply

        HandlerFixture& first = slowFinishesFirst ? slow : other;
        HandlerFixture& second = slowFinishesFirst ? other : slow;
        first.control->openGate();
        REQUIRE(eventuallyMoves(*store, id, 2));
        const GameRecord stored = *store->get(id).game;
        second.control->openGate();
        // The second search's result handed to the store and dropped there (its replica no
        // longer computes the reply).
        const auto until = std::chrono::steady_clock::now() + kWait;
        while (second.context.replies.contains(reply) && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        REQUIRE_FALSE(second.context.replies.contains(reply));
        REQUIRE(moved->wait());
        REQUIRE(moved->status() == 200);
        // The waiting player gets the engine's move, whoever stored it.
        CHECK(moved->json()["moves"].size() == 2);
        const GameRecord after = *store->get(id).game;
        CHECK(after.moves.size() == 2);
        CHECK(after.version == stored.version);
        CHECK(slow.control->finished.load() == 1);
        CHECK(other.control->finished.load() == 1);
    }
}

TEST_CASE(
    "engine replies: a game where the engine moves first, created while draining, gets "
    "its first move from another replica",
    "[server][games]") {
    auto store = std::make_shared<MemoryGameStore>();
    HandlerFixture draining(testConfig(), store);
    draining.context.pool->beginDrain();
    auto created =
        draining.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"white","level":1}})");
    REQUIRE(created->status() == 201);
    const std::string id = created->json()["id"];
    ServerConfig config = testConfig();
    config.engineReplyGraceMs = 0;
    HandlerFixture other(config, store);
    REQUIRE(other.call(Verb::get, "/api/v1/games/" + id)->status() == 200);
    REQUIRE(eventuallyMoves(*store, id, 1));
}

TEST_CASE(
    "engine replies: the replica that stored the move delivers an owed reply itself once "
    "a searcher frees up",
    "[server][games]") {
    ServerConfig config = testConfig();
    config.searchThreads = 1;
    config.queueSize = 0;
    config.perClientSearches = 1;
    HandlerFixture f(config);
    f.control->closeGate();
    // An analysis holds the only searcher; the analysis queue has no room.
    auto analysis = f.call(Verb::post, "/api/v1/analysis", R"({"limits":{"depth":2}})", {}, false);
    REQUIRE(f.control->waitStarted(1));
    auto [id, token] = f.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
    auto moved =
        f.call(Verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"d4","wait":true})",
               {{"Authorization", "Bearer " + token}}, false);
    // Queued for the searcher, before any analysis: not refused (it used to be 503/429).
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    REQUIRE_FALSE(moved->ended());
    f.control->openGate();
    REQUIRE(moved->wait());
    REQUIRE(moved->status() == 200);
    REQUIRE(moved->json()["engineMove"]["move"].is_string());
    REQUIRE(analysis->wait());
}

// Issue 14, past the knee: the server degrades by admission. While the running games' replies
// wait, a new game against the engine is refused with 503 at_capacity and Retry-After; a move in
// a running game is still served, and a game between people is still created.
TEST_CASE("engine replies: new games are refused at capacity, running games keep their replies",
          "[server][games]") {
    ServerConfig config = testConfig();
    config.searchThreads = 1;
    config.admitGameWaitMs = 20;
    config.retryAfterSeconds = 3;
    HandlerFixture f(config);
    auto [first, firstToken] =
        f.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
    auto [second, secondToken] =
        f.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
    f.control->closeGate();
    auto busy =
        f.call(Verb::post, "/api/v1/games/" + first + "/moves", R"({"move":"e4","wait":true})",
               {{"Authorization", "Bearer " + firstToken}}, false);
    REQUIRE(f.control->waitStarted(1));
    auto queued =
        f.call(Verb::post, "/api/v1/games/" + second + "/moves", R"({"move":"d4","wait":true})",
               {{"Authorization", "Bearer " + secondToken}}, false);
    std::this_thread::sleep_for(std::chrono::milliseconds(60));  // the queued reply waits

    auto refused = f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"black","level":2}})");
    REQUIRE(refused->status() == 503);
    REQUIRE(refused->json()["error"]["code"] == "at_capacity");
    REQUIRE(refused->response()[boost::beast::http::field::retry_after] == "3");
    auto people = f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"none"}})");
    REQUIRE(people->status() == 201);
    // Bad input is still told apart from a busy server.
    auto invalid = f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"black","level":9}})");
    REQUIRE(invalid->status() == 422);

    f.control->openGate();
    REQUIRE(busy->wait());
    REQUIRE(queued->wait());
    REQUIRE(busy->status() == 200);
    REQUIRE(queued->status() == 200);
    REQUIRE(queued->json()["engineMove"]["move"].is_string());
}

// Issue 14, past the knee: at most --max-engine-games games against the engine run at once on a
// replica; a finished game frees its place.
TEST_CASE("engine replies: the number of active games against the engine is bounded",
          "[server][games]") {
    ServerConfig config = testConfig();
    config.maxEngineGames = 2;
    HandlerFixture f(config);
    auto [first, firstToken] =
        f.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
    f.createGame(nlohmann::json{{"engine", {{"side", "white"}, {"level", 1}}}});
    auto refused = f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"black","level":1}})");
    REQUIRE(refused->status() == 503);
    REQUIRE(refused->json()["error"]["code"] == "at_capacity");
    REQUIRE_FALSE(refused->response()[boost::beast::http::field::retry_after].empty());
    // Games between people do not use the engine.
    REQUIRE(f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"none"}})")->status() == 201);
    auto resigned = f.call(Verb::post, "/api/v1/games/" + first + "/resign", "",
                           {{"Authorization", "Bearer " + firstToken}});
    REQUIRE(resigned->status() == 200);
    REQUIRE(
        f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"black","level":1}})")->status() ==
        201);
}

TEST_CASE("active games: idle games stop counting, finished ones at once", "[server][games]") {
    ActiveGames games(std::chrono::seconds(10));
    const auto t0 = ActiveGames::Clock::now();
    games.touch("a", {}, t0);
    games.touch("b", {}, t0 + std::chrono::seconds(5));
    REQUIRE(games.count(0, t0 + std::chrono::seconds(6)) == 2);
    REQUIRE(games.count(0, t0 + std::chrono::seconds(11)) == 1);  // "a" idle for 11 s
    games.finished("b");
    REQUIRE(games.count(0, t0 + std::chrono::seconds(11)) == 0);
}

TEST_CASE("active games: one owner's games count up to the cap", "[server][games]") {
    ActiveGames games(std::chrono::seconds(10));
    const auto t0 = ActiveGames::Clock::now();
    for (const char* id : {"a1", "a2", "a3", "a4"}) games.touch(id, "10.0.0.1", t0);
    games.touch("b1", "10.0.0.2", t0);
    games.touch("x", {}, t0);   // seen here only through a reply: no owner known
    games.touch("a1", {}, t0);  // a later touch without the owner keeps it
    REQUIRE(games.count(0, t0) == 6);
    REQUIRE(games.count(2, t0) == 4);  // a1..a4 count 2, b1 1, x 1
    REQUIRE(games.count(1, t0) == 3);
    games.finished("a1");
    games.finished("a2");
    games.finished("a3");
    REQUIRE(games.count(1, t0) == 3);
}

// One client that opens game after game and leaves them cannot lock the others out for the idle
// time: its games count up to its share (by default half the limit, at most kGamesPerSearcher).
TEST_CASE("engine replies: one client's idle games take only its share of the limit",
          "[server][games]") {
    ServerConfig config = testConfig();
    config.maxEngineGames = 4;
    config.perClientEngineGames = 0;  // the default: 2 of 4
    HandlerFixture f(config);
    f.clientAddress = "10.0.0.1";
    for (int i = 0; i < 5; ++i) {
        // Its own games are admitted: only two of them count.
        REQUIRE(f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"black","level":1}})")
                    ->status() == 201);
    }
    f.clientAddress = "10.0.0.2";
    for (int i = 0; i < 2; ++i) {
        REQUIRE(f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"black","level":1}})")
                    ->status() == 201);
    }
    // Now 4 count: the limit holds for everyone.
    f.clientAddress = "10.0.0.3";
    auto refused = f.call(Verb::post, "/api/v1/games", R"({"engine":{"side":"black","level":1}})");
    REQUIRE(refused->status() == 503);
    REQUIRE(refused->json()["error"]["code"] == "at_capacity");
}
