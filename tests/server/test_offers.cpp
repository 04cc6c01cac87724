// Offers and endings between people (games/offers.h) and presence (games/presence.h): draw
// offers, takebacks by consent, abort, claims against a side that is gone (on one replica and
// across two that share a store), and the engine's answer to a draw offer.
#include <catch2/catch.hpp>

#include "games/game_clock.h"
#include "games/offers.h"
#include "games/presence.h"
#include "recording_outbox.h"
#include "store/game_record_json.h"
#include "test_support.h"
#include "ws/ws_connection.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

// A game between people, and each side's token.
struct PeopleGame {
    HandlerFixture& f;
    std::string id;
    std::string white;
    std::string black;

    explicit PeopleGame(HandlerFixture& fixture,
                        const nlohmann::json& body = nlohmann::json::object())
        : f(fixture) {
        auto created = f.call(verb::post, "/api/v1/games", body.dump())->json();
        id = created.at("id");
        white = created.at("playerToken");
        black = created.at("inviteToken");
    }
    std::shared_ptr<RecordingSink> post(const std::string& action, const std::string& token,
                                        const std::string& body = "") {
        return f.call(verb::post, "/api/v1/games/" + id + "/" + action, body, as(token));
    }
    unsigned move(const std::string& token, const std::string& move) {
        return post("moves", token, nlohmann::json{{"move", move}}.dump())->status();
    }
    nlohmann::json get() { return f.call(verb::get, "/api/v1/games/" + id)->json(); }
};

// Short presence timings, so the tests see a player go and a grace end in a fraction of a second
// (a heartbeat of 100 ms leaves a live entry 300 ms: slack for a slow sanitizer build).
ServerConfig quickPresence(std::int64_t graceMs = 300) {
    ServerConfig config = testConfig();
    config.presenceHeartbeatMs = 100;
    config.playerGoneGraceMs = graceMs;
    return config;
}

// Plies from the start position that end nothing (each ply the first legal move that keeps the
// game going), for games past the engine's 40-ply rule.
std::vector<std::string> pliesThatEndNothing(std::size_t count) {
    std::string error;
    bool badMove = false;
    std::optional<ChessState> state = ChessState::load("", {}, error, badMove);
    std::vector<std::string> moves;
    while (state && moves.size() < count) {
        std::optional<std::string> chosen;
        for (const std::string& move : state->legalMoves()) {
            ChessState next = *state;
            next.play(move);
            if (next.outcome()) continue;
            chosen = move;
            break;
        }
        if (!chosen) break;
        state->play(*chosen);
        moves.push_back(*chosen);
    }
    return moves;
}

}  // namespace

TEST_CASE("offers: a draw is offered, declined, withdrawn and accepted", "[server][offers]") {
    HandlerFixture f;
    PeopleGame game(f);

    auto offered = game.post("draw/yes", game.white);
    REQUIRE(offered->status() == 200);
    CHECK(offered->json()["drawOffer"] == "white");
    CHECK(offered->json()["version"] == 2);
    // Offering again changes nothing.
    auto again = game.post("draw/yes", game.white);
    REQUIRE(again->status() == 200);
    CHECK(again->json()["version"] == 2);
    // Black declines.
    auto declined = game.post("draw/no", game.black);
    REQUIRE(declined->status() == 200);
    CHECK_FALSE(declined->json().contains("drawOffer"));
    CHECK(declined->json()["status"] == "ongoing");
    // Nothing to decline now.
    auto nothing = game.post("draw/no", game.black);
    CHECK(nothing->status() == 409);
    CHECK(nothing->errorCode() == "no_draw_offer");
    // White offers and withdraws it.
    REQUIRE(game.post("draw/yes", game.white)->json()["drawOffer"] == "white");
    auto withdrawn = game.post("draw/no", game.white);
    REQUIRE(withdrawn->status() == 200);
    CHECK_FALSE(withdrawn->json().contains("drawOffer"));
    // Black offers, White accepts.
    REQUIRE(game.post("draw/yes", game.black)->json()["drawOffer"] == "black");
    auto accepted = game.post("draw/yes", game.white);
    REQUIRE(accepted->status() == 200);
    const auto json = accepted->json();
    CHECK(json["status"] == "draw");
    CHECK(json["result"] == "1/2-1/2");
    CHECK(json["reason"] == "agreement");
    CHECK_FALSE(json.contains("winner"));
    CHECK_FALSE(json.contains("drawOffer"));
    // The stored game says so too.
    const GameRecord stored = *f.context.store->get(game.id).game;
    CHECK(stored.status == "draw");
    CHECK(stored.drawOffer.empty());
    // Over: every answer is refused.
    for (const char* action : {"draw/yes", "draw/no", "takeback/yes", "abort", "claim-victory"}) {
        auto over = game.post(action, game.black);
        CHECK(over->status() == 409);
        CHECK(over->errorCode() == "game_over");
    }
}

TEST_CASE("offers: refusals change nothing", "[server][offers]") {
    HandlerFixture f;
    PeopleGame game(f);
    auto noToken = f.call(verb::post, "/api/v1/games/" + game.id + "/draw/yes", "", {});
    CHECK(noToken->status() == 401);
    auto wrongToken = game.post("draw/yes", "not-a-token");
    CHECK(wrongToken->status() == 403);
    CHECK(wrongToken->errorCode() == "forbidden");
    auto unknown = f.call(verb::post, "/api/v1/games/nope/draw/yes", "", as(game.white));
    CHECK(unknown->status() == 404);
    auto badBody = game.post("draw/yes", game.white, R"({"please":true})");
    CHECK(badBody->status() == 400);
    auto badJson = game.post("abort", game.white, "{");
    CHECK(badJson->status() == 400);
    auto get = f.call(verb::get, "/api/v1/games/" + game.id + "/draw/yes");
    CHECK(get->status() == 405);
    auto noSuchAnswer =
        f.call(verb::post, "/api/v1/games/" + game.id + "/draw/maybe", "", as(game.white));
    CHECK(noSuchAnswer->status() == 404);
    const nlohmann::json after = game.get();
    CHECK(after["version"] == 1);
    CHECK_FALSE(after.contains("drawOffer"));
}

TEST_CASE("offers: a move clears both offers", "[server][offers]") {
    HandlerFixture f;
    PeopleGame game(f);
    REQUIRE(game.move(game.white, "e4") == 200);
    REQUIRE(game.post("takeback/yes", game.white)->json()["takebackOffer"] == "white");
    REQUIRE(game.post("draw/yes", game.white)->json()["drawOffer"] == "white");
    // Black plays on: both offers are declined by the move.
    REQUIRE(game.move(game.black, "e5") == 200);
    const nlohmann::json json = game.get();
    CHECK_FALSE(json.contains("drawOffer"));
    CHECK_FALSE(json.contains("takebackOffer"));
    const GameRecord stored = *f.context.store->get(game.id).game;
    CHECK(stored.drawOffer.empty());
    CHECK(stored.takebackOffer.empty());
}

TEST_CASE("offers: between people a takeback needs the other side's consent", "[server][offers]") {
    HandlerFixture f;
    PeopleGame game(f, {{"clock", {{"initial", 60000}, {"increment", 1000}}}});
    REQUIRE(game.move(game.white, "e4") == 200);
    // The old route no longer undoes alone.
    auto alone = game.post("takeback", game.white);
    CHECK(alone->status() == 409);
    CHECK(alone->errorCode() == "takeback_needs_consent");
    CHECK(game.get()["moves"].size() == 1);
    // Black has no move to take back.
    auto blackAsks = game.post("takeback/yes", game.black);
    CHECK(blackAsks->status() == 409);
    CHECK(blackAsks->errorCode() == "nothing_to_take_back");
    auto none = game.post("takeback/no", game.black);
    CHECK(none->errorCode() == "no_takeback_offer");

    // White asks right after its move; Black accepts: one ply.
    REQUIRE(game.post("takeback/yes", game.white)->json()["takebackOffer"] == "white");
    auto accepted = game.post("takeback/yes", game.black);
    REQUIRE(accepted->status() == 200);
    CHECK(accepted->json()["moves"].empty());
    CHECK_FALSE(accepted->json().contains("takebackOffer"));
    CHECK(accepted->json()["turn"] == "white");
    CHECK(accepted->json()["clock"]["running"] == false);
    CHECK(accepted->json()["clock"]["white"].get<std::int64_t>() > 0);

    // White asks after Black replied: White's move and Black's reply go (two plies).
    REQUIRE(game.move(game.white, "d4") == 200);
    REQUIRE(game.move(game.black, "d5") == 200);
    REQUIRE(game.post("takeback/yes", game.white)->status() == 200);
    auto declined = game.post("takeback/no", game.black);
    REQUIRE(declined->status() == 200);
    CHECK_FALSE(declined->json().contains("takebackOffer"));
    CHECK(declined->json()["moves"].size() == 2);
    REQUIRE(game.post("takeback/yes", game.white)->status() == 200);
    auto twoPlies = game.post("takeback/yes", game.black);
    REQUIRE(twoPlies->status() == 200);
    CHECK(twoPlies->json()["moves"].empty());
    CHECK(twoPlies->json()["turn"] == "white");

    // Black asks after its own move and withdraws.
    REQUIRE(game.move(game.white, "c4") == 200);
    REQUIRE(game.move(game.black, "c5") == 200);
    REQUIRE(game.post("takeback/yes", game.black)->json()["takebackOffer"] == "black");
    auto withdrawn = game.post("takeback/no", game.black);
    CHECK_FALSE(withdrawn->json().contains("takebackOffer"));
    // ... asks again, White accepts: Black's c5 alone goes, Black to move; clocks run.
    REQUIRE(game.post("takeback/yes", game.black)->status() == 200);
    auto one = game.post("takeback/yes", game.white);
    REQUIRE(one->status() == 200);
    CHECK(one->json()["moves"] == nlohmann::json::array({"c2c4"}));
    CHECK(one->json()["turn"] == "black");
    CHECK(one->json()["clock"]["running"] == true);
    const auto black = one->json()["clock"]["black"].get<std::int64_t>();
    CHECK(black > 0);
    CHECK(black <= 62000);

    // Not after the end (not even after a resignation).
    REQUIRE(game.post("resign", game.black)->status() == 200);
    auto over = game.post("takeback/yes", game.black);
    CHECK(over->status() == 409);
    CHECK(over->errorCode() == "game_over");
}

TEST_CASE("offers: against the engine takebacks need no consent and draws get an answer",
          "[server][offers]") {
    HandlerFixture f;
    auto [id, token] = f.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
    const std::string base = "/api/v1/games/" + id;
    REQUIRE(f.call(verb::post, base + "/moves", R"({"move":"e4"})", as(token))->status() / 100 ==
            2);
    REQUIRE(eventually([&] { return f.call(verb::get, base)->json()["moves"].size() == 2; }));
    // POST /takeback stays as it is; /takeback/yes does the same.
    auto back = f.call(verb::post, base + "/takeback/yes", "", as(token));
    REQUIRE(back->status() == 200);
    CHECK(back->json()["moves"].empty());
    CHECK(f.call(verb::post, base + "/takeback/no", "", as(token))->errorCode() ==
          "no_takeback_offer");
    CHECK(f.call(verb::post, base + "/draw/no", "", as(token))->errorCode() == "no_draw_offer");
    // Too early in the game: declined by the rule, no search.
    const int searchesBefore = f.control->started.load();
    auto early = f.call(verb::post, base + "/draw/yes", "", as(token));
    REQUIRE(early->status() == 200);
    CHECK(early->json()["status"] == "ongoing");
    CHECK(early->json()["drawOfferAnswer"]["accepted"] == false);
    CHECK(early->json()["drawOfferAnswer"]["reason"] == "too_early");
    CHECK_FALSE(early->json().contains("drawOffer"));
    CHECK(f.control->started.load() == searchesBefore);
    // Claims are between people.
    CHECK(f.call(verb::post, base + "/claim-victory", "", as(token))->errorCode() ==
          "not_between_people");
}

TEST_CASE("offers: the engine accepts a draw at or below its threshold, declines above",
          "[server][offers]") {
    HandlerFixture f;
    // 40 plies played in this game, White (the player) to move: past the minimum.
    const std::vector<std::string> moves = pliesThatEndNothing(kEngineDrawMinPlies);
    auto create = [&] {
        return f.createGame(
            nlohmann::json{{"moves", moves}, {"engine", {{"side", "black"}, {"level", 1}}}});
    };
    GameRecord setUp;
    setUp.moves = moves;
    REQUIRE(pliesPlayed(setUp) == kEngineDrawMinPlies);
    // The fake engine scores the side to move: +30 for White is -30 for the engine: it accepts.
    f.control->scorePerDepth = 10;
    {
        auto [id, token] = create();
        auto answer = f.call(verb::post, "/api/v1/games/" + id + "/draw/yes", "", as(token));
        REQUIRE(answer->status() == 200);
        const auto json = answer->json();
        CHECK(json["drawOfferAnswer"]["accepted"] == true);
        CHECK(json["drawOfferAnswer"]["engineCp"] == -30);
        CHECK(json["status"] == "draw");
        CHECK(json["reason"] == "agreement");
        CHECK(json["result"] == "1/2-1/2");
        // An agreed draw stands: a takeback is refused and changes nothing.
        const auto version = json["version"];
        auto back = f.call(verb::post, "/api/v1/games/" + id + "/takeback", "", as(token));
        CHECK(back->status() == 409);
        CHECK(back->errorCode() == "game_over");
        const auto after = f.call(verb::get, "/api/v1/games/" + id)->json();
        CHECK(after["status"] == "draw");
        CHECK(after["moves"].size() == moves.size());
        CHECK(after["version"] == version);
    }
    // -60 for White is +60 for the engine: it declines, and nothing changes.
    f.control->scorePerDepth = -20;
    {
        auto [id, token] = create();
        auto answer = f.call(verb::post, "/api/v1/games/" + id + "/draw/yes", "", as(token));
        REQUIRE(answer->status() == 200);
        const auto json = answer->json();
        CHECK(json["drawOfferAnswer"]["accepted"] == false);
        CHECK(json["drawOfferAnswer"]["engineCp"] == 60);
        CHECK(json["status"] == "ongoing");
        CHECK(json["version"] == 1);
    }
    CHECK(engineAcceptsDraw(kEngineDrawMinPlies, kEngineDrawAcceptCp));
    CHECK_FALSE(engineAcceptsDraw(kEngineDrawMinPlies, kEngineDrawAcceptCp + 1));
    CHECK_FALSE(engineAcceptsDraw(kEngineDrawMinPlies - 1, -500));
}

TEST_CASE("offers: abort before both sides have moved", "[server][offers]") {
    HandlerFixture f;
    {
        PeopleGame game(f);
        auto aborted = game.post("abort", game.black);
        REQUIRE(aborted->status() == 200);
        const auto json = aborted->json();
        CHECK(json["status"] == "aborted");
        CHECK(json["result"] == "*");
        CHECK_FALSE(json.contains("winner"));
        CHECK(json["legalMoves"].empty());
    }
    {
        PeopleGame game(f, {{"clock", {{"initial", 60}, {"increment", 0}}}});
        REQUIRE(game.move(game.white, "e4") == 200);
        auto aborted = game.post("abort", game.white);
        REQUIRE(aborted->status() == 200);
        CHECK(aborted->json()["status"] == "aborted");
        CHECK(aborted->json()["clock"]["running"] == false);
    }
    {
        PeopleGame game(f);
        REQUIRE(game.move(game.white, "e4") == 200);
        REQUIRE(game.move(game.black, "e5") == 200);
        auto late = game.post("abort", game.white);
        CHECK(late->status() == 409);
        CHECK(late->errorCode() == "too_late_to_abort");
        CHECK(game.get()["status"] == "ongoing");
    }
}

TEST_CASE("presence: a player's stream and WebSocket make its side present",
          "[server][offers][presence][websocket]") {
    HandlerFixture f(quickPresence());
    PeopleGame game(f);
    const std::string url = "/api/v1/games/" + game.id;
    // Nobody is connected yet.
    auto initial = game.get();
    CHECK(initial["presence"] == nlohmann::json({{"white", false}, {"black", false}}));
    CHECK(initial["gone"]["white"]["sinceMs"].get<std::int64_t>() > 0);
    CHECK_FALSE(initial["gone"]["white"].contains("claimableAtMs"));  // not begun

    // A spectator's stream (no token) counts for nobody.
    auto spectator = f.call(verb::get, url + "/stream", "", {}, false);
    REQUIRE(spectator->wait(1));
    // White's stream.
    auto whiteStream = f.call(verb::get, url + "/stream", "", as(game.white), false);
    REQUIRE(whiteStream->wait(1));
    CHECK(game.get()["presence"] == nlohmann::json({{"white", true}, {"black", false}}));
    // The spectator was told: a presence message on its stream.
    REQUIRE(eventually([&] {
        for (const std::string& line : spectator->lines()) {
            auto json = nlohmann::json::parse(line, nullptr, false);
            if (json.is_object() && json.value("type", "") == "presence" &&
                json["presence"]["white"] == true)
                return true;
        }
        return false;
    }));
    // Black's WebSocket subscription with its token.
    auto outbox = std::make_shared<RecordingOutbox>();
    auto connection = std::make_shared<WsConnection>(f.context, ClientInfo{"127.0.0.1"}, outbox);
    connection->onMessage(
        nlohmann::json{{"type", "subscribe"}, {"gameId", game.id}, {"token", game.black}}.dump());
    REQUIRE(eventually([&] { return game.get()["presence"]["black"] == true; }));
    const auto both = game.get();
    CHECK(both["presence"] == nlohmann::json({{"white", true}, {"black", true}}));
    CHECK_FALSE(both.contains("gone"));
    // The WebSocket subscriber hears of White leaving.
    whiteStream->disconnect();
    REQUIRE(eventually([&] { return game.get()["presence"]["white"] == false; }));
    REQUIRE(eventually([&] {
        for (const auto& message : outbox->messages()) {
            if (message.value("type", "") == "presence" && message["presence"]["white"] == false)
                return true;
        }
        return false;
    }));
    connection->onClose();
    REQUIRE(eventually([&] { return game.get()["presence"]["black"] == false; }));
    spectator->disconnect();
    // The engine's side is always present.
    auto [engineGame, token] =
        f.createGame(nlohmann::json{{"engine", {{"side", "white"}, {"level", 1}}}});
    const auto engine = f.call(verb::get, "/api/v1/games/" + engineGame)->json();
    CHECK(engine["presence"]["white"] == true);
    CHECK(engine["presence"]["black"] == false);
    CHECK_FALSE(engine.contains("gone"));
}

TEST_CASE("presence: a side gone longer than the grace may be claimed against",
          "[server][offers][presence]") {
    HandlerFixture f(quickPresence(1500));
    PeopleGame game(f);
    // Before both sides have moved there is nothing to claim: abort instead.
    CHECK(game.post("claim-victory", game.white)->errorCode() == "abort_instead");
    REQUIRE(game.move(game.white, "e4") == 200);
    REQUIRE(game.move(game.black, "e5") == 200);
    auto whiteStream =
        f.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", as(game.white), false);
    REQUIRE(whiteStream->wait(1));
    REQUIRE(eventually([&] { return game.get()["presence"]["white"] == true; }));
    // White is there: Black cannot claim.
    auto present = game.post("claim-victory", game.black);
    CHECK(present->status() == 409);
    CHECK(present->errorCode() == "opponent_present");
    // Black is gone (it moved, then left), but not for long yet.
    const auto json = game.get();
    REQUIRE(json.contains("gone"));
    const auto claimableAt = json["gone"]["black"]["claimableAtMs"].get<std::int64_t>();
    CHECK(claimableAt - json["gone"]["black"]["sinceMs"].get<std::int64_t>() == 1500);
    auto early = game.post("claim-victory", game.white);
    CHECK(early->status() == 409);
    CHECK(early->errorCode() == "opponent_not_gone_long_enough");
    CHECK(game.get()["status"] == "ongoing");
    // After the grace.
    while (nowEpochMs() <= claimableAt) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto won = game.post("claim-victory", game.white);
    REQUIRE(won->status() == 200);
    CHECK(won->json()["status"] == "abandoned");
    CHECK(won->json()["reason"] == "abandoned");
    CHECK(won->json()["winner"] == "white");
    CHECK(won->json()["result"] == "1-0");
    const std::string pgn =
        f.call(verb::get, "/api/v1/games/" + game.id + "/pgn")->response().body();
    CHECK(pgn.find("[Termination \"abandoned\"]") != std::string::npos);
    CHECK(pgn.find("[Result \"1-0\"]") != std::string::npos);
    whiteStream->disconnect();

    // A draw may be claimed instead.
    PeopleGame other(f);
    REQUIRE(other.move(other.white, "d4") == 200);
    REQUIRE(other.move(other.black, "d5") == 200);
    const auto at = other.get()["gone"]["white"]["claimableAtMs"].get<std::int64_t>();
    while (nowEpochMs() <= at) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto drawn = other.post("claim-draw", other.black);
    REQUIRE(drawn->status() == 200);
    CHECK(drawn->json()["status"] == "draw");
    CHECK(drawn->json()["reason"] == "abandoned");
    CHECK(drawn->json()["result"] == "1/2-1/2");
}

TEST_CASE("presence: across replicas, the players of a replica that died are gone",
          "[server][offers][presence]") {
    auto store = std::make_shared<MemoryGameStore>();
    HandlerFixture first(quickPresence(200), store);
    HandlerFixture second(quickPresence(200), store);
    PeopleGame game(first);
    REQUIRE(game.move(game.white, "e4") == 200);
    REQUIRE(game.move(game.black, "e5") == 200);
    // White follows the game on the first replica, Black on the second.
    auto whiteStream =
        first.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", as(game.white), false);
    REQUIRE(whiteStream->wait(1));
    auto blackStream =
        second.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", as(game.black), false);
    REQUIRE(blackStream->wait(1));
    auto read = [&](HandlerFixture& replica) {
        return replica.call(verb::get, "/api/v1/games/" + game.id)->json();
    };
    // Each replica sees both players.
    REQUIRE(eventually([&] {
        return read(first)["presence"] == nlohmann::json({{"white", true}, {"black", true}}) &&
               read(second)["presence"] == nlohmann::json({{"white", true}, {"black", true}});
    }));
    // The first replica dies: no heartbeat, no goodbye (its streams are never closed).
    first.context.presence.stop();
    // Its entry ages out after three heartbeats: White is gone, seen last at its last heartbeat.
    REQUIRE(eventually([&] { return read(second)["presence"]["white"] == false; }));
    const auto gone = read(second)["gone"]["white"];
    CHECK(gone["sinceMs"].get<std::int64_t>() <= nowEpochMs());
    // The second replica's subscriber was told (its heartbeat noticed).
    REQUIRE(eventually([&] {
        for (const std::string& line : blackStream->lines()) {
            auto json = nlohmann::json::parse(line, nullptr, false);
            if (json.is_object() && json.value("type", "") == "presence" &&
                json["presence"]["white"] == false)
                return true;
        }
        return false;
    }));
    // After the grace Black claims the win on the second replica.
    const auto at = gone["claimableAtMs"].get<std::int64_t>();
    while (nowEpochMs() <= at) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto won =
        second.call(verb::post, "/api/v1/games/" + game.id + "/claim-victory", "", as(game.black));
    REQUIRE(won->status() == 200);
    CHECK(won->json()["winner"] == "black");
    CHECK(won->json()["status"] == "abandoned");
    blackStream->disconnect();
    whiteStream->disconnect();
}

TEST_CASE("offers: the stores keep the offers", "[server][offers][store]") {
    GameRecord game;
    game.id = "g";
    game.initialFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    game.drawOffer = "white";
    game.takebackOffer = "black";
    const auto json = toStoredJson(game);
    CHECK(json["drawOffer"] == "white");
    CHECK(json["takebackOffer"] == "black");
    const GameRecord back = gameRecordFromStoredJson(json);
    CHECK(back.drawOffer == "white");
    CHECK(back.takebackOffer == "black");
    game.drawOffer.clear();
    game.takebackOffer.clear();
    CHECK_FALSE(toStoredJson(game).contains("drawOffer"));
    CHECK(gameRecordFromStoredJson(toStoredJson(game)).takebackOffer.empty());
}

TEST_CASE("offers: the grace and heartbeat flags, and their environment variables",
          "[server][offers][config]") {
    const char* argv[] = {"outpost-server", "--player-gone-grace", "5000"};
    auto parsed = parseConfig(3, argv);
    REQUIRE(parsed.config);
    CHECK(parsed.config->playerGoneGraceMs == 5000);
    CHECK(parsed.config->presenceHeartbeatMs == 10000);
    const std::function<const char*(const char*)> env = [](const char* name) -> const char* {
        if (std::string(name) == "OUTPOST_PLAYER_GONE_GRACE") return "7000";
        if (std::string(name) == "OUTPOST_PRESENCE_HEARTBEAT") return "250";
        return nullptr;
    };
    const char* bare[] = {"outpost-server"};
    auto fromEnv = parseConfig(1, bare, &env);
    REQUIRE(fromEnv.config);
    CHECK(fromEnv.config->playerGoneGraceMs == 7000);
    CHECK(fromEnv.config->presenceHeartbeatMs == 250);
    CHECK(ServerConfig{}.playerGoneGraceMs == 60000);
    const char* bad[] = {"outpost-server", "--player-gone-grace", "-1"};
    CHECK_FALSE(parseConfig(3, bad).config);
}
