// Chat between the players (games/chat.h), rematch (games/rematch.h), the creator's colour and
// each move's clock in the Game JSON. Handlers without sockets.
#include <catch2/catch.hpp>
#include <set>

#include "games/chat.h"
#include "games/rematch.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

struct People {
    HandlerFixture& f;
    std::string id;
    std::string white;
    std::string black;

    explicit People(HandlerFixture& fixture,
                    const nlohmann::json& body = {{"engine", {{"side", "none"}}}})
        : f(fixture) {
        auto created = f.call(verb::post, "/api/v1/games", body.dump())->json();
        id = created.at("id");
        const bool creatorWhite = created.at("playerSide") == "white";
        white = created.at(creatorWhite ? "playerToken" : "inviteToken");
        black = created.at(creatorWhite ? "inviteToken" : "playerToken");
    }
    std::shared_ptr<RecordingSink> post(const std::string& action, const std::string& token,
                                        const std::string& body = "") {
        return f.call(verb::post, "/api/v1/games/" + id + "/" + action, body, as(token));
    }
    std::shared_ptr<RecordingSink> say(const std::string& token, const std::string& text) {
        return post("chat", token, nlohmann::json{{"text", text}}.dump());
    }
};

}  // namespace

TEST_CASE("chat: the text is trimmed and bounded", "[server][chat]") {
    auto text = [](const std::string& value) { return chatText({{"text", value}}); };
    CHECK(std::get<std::string>(text("  hi there \n")) == "hi there");
    CHECK(std::holds_alternative<ApiError>(text("   ")));
    CHECK(std::holds_alternative<ApiError>(text(std::string(141, 'a'))));
    CHECK(std::holds_alternative<std::string>(text(std::string(140, 'a'))));
    // 140 characters of two bytes each are 140 characters.
    std::string accents;
    for (int i = 0; i < 140; ++i) accents += "\xc3\xa9";
    CHECK(std::holds_alternative<std::string>(text(accents)));
    CHECK(
        std::holds_alternative<ApiError>(text("a\x01"
                                              "b")));
    // A right-to-left override (U+202E) or isolate (U+2066) would reorder what is shown; the
    // right-to-left mark (U+200F) and Hebrew text are fine.
    CHECK(
        std::holds_alternative<ApiError>(text("gg \xe2\x80\xae"
                                              "evol")));
    CHECK(
        std::holds_alternative<ApiError>(text("\xe2\x81\xa6"
                                              "x")));
    CHECK(std::holds_alternative<std::string>(
        text("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d \xe2\x80\x8f!")));
    // Unicode's white space is trimmed as ASCII's is: a line of no-break (U+00A0), ideographic
    // (U+3000) or other spaces, or a byte-order mark, is empty; so is a lone line separator.
    CHECK(std::holds_alternative<ApiError>(text("\xc2\xa0\xc2\xa0")));
    CHECK(std::holds_alternative<ApiError>(text("\xe3\x80\x80")));
    CHECK(std::holds_alternative<ApiError>(text("\xef\xbb\xbf \xe2\x80\xa8")));
    CHECK(std::get<std::string>(text("\xe3\x80\x80gg\xc2\xa0\xe2\x80\x83")) == "gg");
    // Within a line they stay; 140 characters are counted once trimmed.
    CHECK(std::get<std::string>(text("g\xc2\xa0g")) == "g\xc2\xa0g");
    CHECK(std::holds_alternative<std::string>(text("\xe3\x80\x80" + std::string(140, 'a'))));
    // The C1 control characters are control characters too (U+0085 breaks the line, U+009B is
    // a terminal's escape), and so are the line and paragraph separators within a line.
    CHECK(
        std::holds_alternative<ApiError>(text("a\xc2\x85"
                                              "b")));
    CHECK(
        std::holds_alternative<ApiError>(text("a\xc2\x9b"
                                              "31mb")));
    CHECK(
        std::holds_alternative<ApiError>(text("a\xe2\x80\xa8"
                                              "b")));
    CHECK(std::holds_alternative<ApiError>(text("a\nb")));
    // The character after them is fine (U+00A1).
    CHECK(std::holds_alternative<std::string>(text("\xc2\xa1hola!")));
    CHECK(std::holds_alternative<ApiError>(chatText({{"text", 5}})));
    CHECK(std::holds_alternative<ApiError>(chatText({{"text", "x"}, {"more", 1}})));

    // The rate: kChatBurstLines lines of a side within the window, then a wait.
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < kChatBurstLines; ++i)
        lines.push_back(nlohmann::json{{"side", "white"}, {"at", 1000 + i}}.dump());
    CHECK(chatRetryAfter(lines, "white", 2000).has_value());
    CHECK_FALSE(chatRetryAfter(lines, "black", 2000).has_value());
    CHECK_FALSE(chatRetryAfter(lines, "white", 1000 + kChatWindowMs).has_value());
}

TEST_CASE("chat: players post lines, the stream carries them, the history keeps them",
          "[server][chat]") {
    HandlerFixture f;
    People game(f);
    auto stream = f.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", {}, false);
    REQUIRE(stream->wait(1));  // gameFull

    auto anonymous = f.call(verb::post, "/api/v1/games/" + game.id + "/chat", R"({"text":"hi"})");
    CHECK(anonymous->status() == 401);
    CHECK(game.say("wrong-token", "hi")->status() == 403);
    auto empty = game.say(game.white, "   ");
    CHECK(empty->status() == 422);
    CHECK(game.say(game.white, std::string(141, 'x'))->status() == 422);

    const std::string markup = "<img src=x onerror=alert(1)> <b>hi</b>";
    auto posted = game.say(game.black, "  " + markup + "  ");
    REQUIRE(posted->status() == 201);
    CHECK(posted->json()["type"] == "chatLine");
    CHECK(posted->json()["side"] == "black");
    CHECK(posted->json()["text"] == markup);  // kept as given: the client shows it as text
    REQUIRE(stream->wait(2));
    const auto line = nlohmann::json::parse(stream->lines()[1]);
    CHECK(line["type"] == "chatLine");
    CHECK(line["gameId"] == game.id);
    CHECK(line["text"] == markup);
    CHECK(line["at"].is_number_integer());

    // White's burst runs out; Black may still talk.
    for (std::size_t i = 0; i < kChatBurstLines; ++i)
        REQUIRE(game.say(game.white, "line " + std::to_string(i))->status() == 201);
    auto limited = game.say(game.white, "one more");
    CHECK(limited->status() == 429);
    CHECK(limited->errorCode() == "rate_limited");
    // The store refused the line (ChatQuota); the wait is read from the kept lines.
    const int retryAfter =
        std::stoi(std::string(limited->response()[boost::beast::http::field::retry_after]));
    CHECK(retryAfter >= 1);
    CHECK(retryAfter <= kChatWindowMs / 1000);
    CHECK(game.say(game.black, "still here")->status() == 201);

    auto history = f.call(verb::get, "/api/v1/games/" + game.id + "/chat");
    REQUIRE(history->status() == 200);
    const auto lines = history->json()["lines"];
    REQUIRE(lines.size() == kChatBurstLines + 2);
    CHECK(lines[0]["text"] == markup);
    CHECK(lines.back()["text"] == "still here");
    CHECK(f.call(verb::get, "/api/v1/games/nope/chat")->status() == 404);
    // A line is no change of the game.
    CHECK(f.call(verb::get, "/api/v1/games/" + game.id)->json()["version"] == 1);
    stream->disconnect();  // the exchange ends: the stream unsubscribes (and frees what it holds)
    CHECK(f.bus->active() == 0);
}

TEST_CASE("chat: the history keeps the last lines only", "[server][chat]") {
    auto store = std::make_shared<MemoryGameStore>();
    for (std::size_t i = 0; i < kChatKeptLines + 5; ++i)
        REQUIRE(store->appendChat("g", std::to_string(i), kChatKeptLines) == StoreStatus::Ok);
    auto kept = store->chatLines("g");
    REQUIRE(kept.lines.size() == kChatKeptLines);
    CHECK(kept.lines.front() == "5");
}

TEST_CASE("rematch: offered, declined, withdrawn, accepted with colours swapped",
          "[server][rematch]") {
    ServerConfig config = testConfig();
    config.firstMoveDeadlineMs = 30000;  // the server's default
    HandlerFixture f(config);
    People game(
        f, {{"engine", {{"side", "none"}}}, {"clock", {{"initial", 300000}, {"increment", 3000}}}});
    auto early = game.post("rematch/yes", game.white);
    CHECK(early->status() == 409);
    CHECK(early->errorCode() == "game_not_over");
    REQUIRE(game.post("moves", game.white, R"({"move":"e4"})")->status() == 200);
    REQUIRE(game.post("resign", game.black)->status() == 200);

    CHECK(game.post("rematch/no", game.white)->errorCode() == "no_rematch_offer");
    auto offered = game.post("rematch/yes", game.black);
    REQUIRE(offered->status() == 200);
    CHECK(offered->json()["rematch"]["offeredBy"] == "black");
    auto declined = game.post("rematch/no", game.white);
    REQUIRE(declined->status() == 200);
    CHECK_FALSE(declined->json().contains("rematch"));
    REQUIRE(game.post("rematch/yes", game.white)->json()["rematch"]["offeredBy"] == "white");
    CHECK_FALSE(game.post("rematch/no", game.white)->json().contains("rematch"));  // withdrawn
    REQUIRE(game.post("rematch/yes", game.white)->status() == 200);
    auto accepted = game.post("rematch/yes", game.black);
    REQUIRE(accepted->status() == 200);
    const auto answer = accepted->json();
    const std::string newId = answer["rematch"]["gameId"];
    CHECK(answer["rematch"]["game"]["id"] == newId);
    CHECK(answer["rematch"]["game"]["clock"]["initial"] == 300000);
    CHECK(answer["rematch"]["game"]["clock"]["increment"] == 3000);
    // Its clocks wait for both first moves, each with its deadline, as in any game between
    // people with a clock.
    CHECK(answer["rematch"]["game"]["clock"]["running"] == false);
    const auto deadline = answer["rematch"]["game"]["firstMoveDeadlineMs"].get<std::int64_t>();
    CHECK(deadline > 0);
    CHECK(deadline <= f.context.config.firstMoveDeadlineMs);
    // The old game names it.
    auto old = f.call(verb::get, "/api/v1/games/" + game.id)->json();
    CHECK(old["rematch"]["gameId"] == newId);
    // Saying yes again finds the same rematch.
    CHECK(game.post("rematch/yes", game.white)->json()["rematch"]["gameId"] == newId);

    // Colours swapped: the old Black token moves White now.
    const std::string moves = "/api/v1/games/" + newId + "/moves";
    CHECK(f.call(verb::post, moves, R"({"move":"d4"})", as(game.white))->status() == 409);
    CHECK(f.call(verb::post, moves, R"({"move":"d4"})", as(game.black))->status() == 200);
    CHECK(f.call(verb::post, moves, R"({"move":"d5"})", as(game.white))->status() == 200);
}

TEST_CASE("rematch: against the engine, yes makes it at once, the engine's side swapped",
          "[server][rematch]") {
    HandlerFixture f;
    auto [id, token] = f.createGame({{"engine", {{"side", "black"}, {"level", 3}}}});
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/resign", "", as(token))->status() == 200);
    auto made = f.call(verb::post, "/api/v1/games/" + id + "/rematch/yes", "", as(token));
    REQUIRE(made->status() == 200);
    const auto created = made->json()["rematch"]["game"];
    CHECK(created["engine"]["side"] == "white");
    CHECK(created["engine"]["level"] == 3);
    const std::string newId = created["id"];
    // The engine moves first; then the player's old token moves Black.
    f.control->openGate();
    REQUIRE(eventually(
        [&] { return f.call(verb::get, "/api/v1/games/" + newId)->json()["moves"].size() == 1; }));
    const auto game = f.call(verb::get, "/api/v1/games/" + newId)->json();
    REQUIRE(!game["legalMoves"].empty());
    const std::string reply = game["legalMoves"][0];
    CHECK(f.call(verb::post, "/api/v1/games/" + newId + "/moves",
                 nlohmann::json{{"move", reply}}.dump(), as(token))
              ->status() < 300);
}

TEST_CASE("games: the creator's colour between people, and each move's clock", "[server][games]") {
    HandlerFixture f;
    auto black =
        f.call(verb::post, "/api/v1/games", R"({"engine":{"side":"none"},"color":"black"})")
            ->json();
    CHECK(black["playerSide"] == "black");
    CHECK(black["inviteSide"] == "white");
    const std::string id = black["id"];
    CHECK(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})",
                 as(black["inviteToken"]))
              ->status() == 200);
    CHECK(f.call(verb::post, "/api/v1/games", R"({"color":"pink"})")->status() == 422);
    CHECK(f.call(verb::post, "/api/v1/games", R"({"engine":{"side":"black"},"color":"white"})")
              ->status() == 422);
    std::set<std::string> sides;
    for (int i = 0; i < 40 && sides.size() < 2; ++i) {
        sides.insert(
            f.call(verb::post, "/api/v1/games", R"({"engine":{"side":"none"},"color":"random"})")
                ->json()["playerSide"]
                .get<std::string>());
    }
    CHECK(sides.size() == 2);

    People timed(
        f, {{"engine", {{"side", "none"}}}, {"clock", {{"initial", 60000}, {"increment", 1000}}}});
    REQUIRE(timed.post("moves", timed.white, R"({"move":"e4"})")->status() == 200);
    REQUIRE(timed.post("moves", timed.black, R"({"move":"e5"})")->status() == 200);
    const auto game = f.call(verb::get, "/api/v1/games/" + timed.id)->json();
    REQUIRE(game["moveClocks"].size() == 2);
    CHECK(game["moveClocks"][0] == 61000);  // the first move takes no time, gains the increment
    CHECK(game["moveClocks"][1].get<std::int64_t>() <= 61000);
    CHECK(game["moveClocks"][1].get<std::int64_t>() > 50000);
}
