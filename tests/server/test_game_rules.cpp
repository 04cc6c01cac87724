// The rules that used to be written twice (games/finisher.h, games/undo.h, games/sides.h): each
// case here failed while a copy of a rule did something else than the other copy.
#include <catch2/catch.hpp>

#include "games/finisher.h"
#include "games/sides.h"
#include "games/undo.h"
#include "recording_outbox.h"
#include "test_support.h"
#include "ws/ws_connection.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

constexpr std::int64_t kInitialMs = 60'000;
// How long the player has been thinking when it takes back (set in the stored clock).
constexpr std::int64_t kThoughtMs = 5'000;

// The stored game, its clock's turn moved back by `ms` (as if the side to move had thought that
// long), stored again.
void thinkFor(HandlerFixture& f, const std::string& id, std::int64_t ms) {
    GameRecord game = *f.context.store->get(id).game;
    REQUIRE(game.clock);
    REQUIRE(game.clock->running);
    const std::uint64_t before = game.version;
    game.clock->turnStartedAtMs -= ms;
    game.version += 1;
    REQUIRE(f.context.store->update(game, before) == StoreStatus::Ok);
}

}  // namespace

TEST_CASE("takeback: against the engine the time used stays used and the move clocks go",
          "[server][games][clock]") {
    HandlerFixture f;
    auto [id, token] = f.createGame(
        {{"engine", {{"side", "black"}, {"level", 1}}}, {"clock", {{"initial", kInitialMs}}}});
    const std::string base = "/api/v1/games/" + id;
    REQUIRE(f.call(verb::post, base + "/moves", R"({"move":"e4"})", as(token))->status() / 100 ==
            2);
    REQUIRE(eventually([&] { return f.call(verb::get, base)->json()["moves"].size() == 2; }));
    REQUIRE(f.context.store->get(id).game->moveClocksMs.size() == 2);
    thinkFor(f, id, kThoughtMs);

    auto back = f.call(verb::post, base + "/takeback", "", as(token));
    REQUIRE(back->status() == 200);
    CHECK(back->json()["moves"].empty());
    const GameRecord stored = *f.context.store->get(id).game;
    // The plies taken back take their clocks with them (the takeback between people did; this
    // one left them behind).
    CHECK(stored.moveClocksMs.empty());
    // White thought kThoughtMs before taking back: that time is spent (it was given back).
    REQUIRE(stored.clock);
    CHECK(stored.clock->whiteMs <= kInitialMs - kThoughtMs);
    CHECK(stored.clock->whiteMs > kInitialMs - 2 * kThoughtMs);
    CHECK(back->json()["clock"]["white"].get<std::int64_t>() <= kInitialMs - kThoughtMs);
}

TEST_CASE("takeback: the undo keeps each side's time and reopens a game the position ended",
          "[server][games][clock]") {
    GameRecord game;
    game.initialFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // Fool's mate: White is mated.
    game.moves = {"f2f3", "e7e5", "g2g4", "d8h4"};
    game.moveClocksMs = {60'000, 60'000, 59'000, 58'000};
    game.clock = ClockState{kInitialMs, 0, 50'000, 40'000, 1'000, false};
    game.status = "checkmate";
    game.result = "0-1";
    game.winner = "black";
    game.drawOffer = "white";
    undoPlies(game, 2, 10'000);
    CHECK(game.moves.size() == 2);
    CHECK(game.moveClocksMs.size() == 2);
    CHECK(game.status == "ongoing");
    CHECK(game.result == "*");
    CHECK(game.winner.empty());
    CHECK(game.drawOffer.empty());
    CHECK(game.version == 2);
    CHECK(game.updatedAtMs == 10'000);
    // The clock had stopped at the end: nothing is taken from anyone; it runs again.
    CHECK(game.clock->whiteMs == 50'000);
    CHECK(game.clock->blackMs == 40'000);
    CHECK(game.clock->running);
    CHECK(game.clock->turnStartedAtMs == 10'000);
}

TEST_CASE("finisher: every ending reads the running clock first, stops it and clears the offers",
          "[server][games][clock]") {
    GameRecord game;
    game.initialFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    game.moves = {"e2e4", "e7e5"};
    game.clock = ClockState{kInitialMs, 0, 50'000, 40'000, 1'000, true};
    game.takebackOffer = "black";
    // White to move since 1'000: at 4'000 it has used 3'000.
    REQUIRE(whiteToPlay(game));
    for (const GameEnd& end : {resignation(true), drawAgreed(), abandonment(false, true),
                               abortion(""), outOfTime(true, true)}) {
        GameRecord ended = game;
        finish(ended, end, 4'000);
        INFO(end.status);
        CHECK(ended.status == end.status);
        CHECK(ended.clock->whiteMs == 47'000);
        CHECK(ended.clock->blackMs == 40'000);
        CHECK_FALSE(ended.clock->running);
        CHECK(ended.takebackOffer.empty());
        CHECK(ended.version == game.version + 1);
    }
    CHECK(resignation(true).winner == "black");
    CHECK(abandonment(false, true).result == "0-1");
    CHECK(abandonment(false, false).status == "draw");
    CHECK(outOfTime(true, false).reason == "insufficient_material");
}

TEST_CASE("sides: whose turn from the record, the engine's turn and the side a token acts for",
          "[server][games]") {
    GameRecord game;
    game.initialFen = "8/8/8/8/8/8/8/K6k b - - 0 1";
    CHECK_FALSE(whiteToPlay(game));
    game.moves = {"h1g1"};
    CHECK(whiteToPlay(game));
    game.engine.side = "white";
    CHECK(enginesTurn(game));
    CHECK(owesEngineReply(game));
    game.status = "resigned";
    CHECK_FALSE(owesEngineReply(game));
    CHECK_FALSE(actsForWhite(game, "anything"));  // against the engine: the player's side
}

TEST_CASE("move request: REST and WebSocket parse a move alike",
          "[server][handlers][websocket][games]") {
    HandlerFixture f;
    // (Plain copies: clang 15 does not let a lambda capture a structured binding.)
    const auto created = f.createGame();
    const std::string id = created.first;
    const std::string token = created.second;
    const std::string base = "/api/v1/games/" + id;
    auto outbox = std::make_shared<RecordingOutbox>();
    auto connection = std::make_shared<WsConnection>(f.context, ClientInfo{"127.0.0.1"}, outbox);
    const auto viaWs = [&](nlohmann::json message) {
        const std::size_t before = outbox->messages().size();
        message["type"] = "move";
        message["gameId"] = id;
        message["token"] = token;
        connection->onMessage(message.dump());
        REQUIRE(outbox->waitFor(before + 1));
        return outbox->messages().back();
    };
    const auto viaRest = [&](const nlohmann::json& body) {
        return f.call(verb::post, base + "/moves", body.dump(), as(token))->json()["error"];
    };
    // A field no move has: refused by both (the WebSocket took it and played the move).
    for (const nlohmann::json& bad :
         {nlohmann::json{{"move", "e4"}, {"promotion", "q"}}, nlohmann::json{{"version", 1}},
          nlohmann::json{{"move", "e4"}, {"version", -1}},
          nlohmann::json{{"move", "e4"}, {"wait", "yes"}}}) {
        INFO(bad.dump());
        const nlohmann::json rest = viaRest(bad);
        const nlohmann::json ws = viaWs(bad);
        CHECK(rest["code"] == "bad_request");
        CHECK(ws["type"] == "error");
        CHECK(ws["code"] == rest["code"]);
        CHECK(ws["message"] == rest["message"]);
    }
    CHECK(f.context.store->get(id).game->moves.empty());
    const nlohmann::json played = viaWs({{"id", 3}, {"move", "e4"}, {"version", 1}});
    CHECK(played["type"] == "game");
    CHECK(played["id"] == 3);
    CHECK(played["game"]["moves"].size() == 1);
    connection->onClose();
}
