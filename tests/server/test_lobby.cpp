// The lobby (lobby/seek_service.h): seeks made, listed, read, followed, cancelled and accepted;
// the race of two acceptors on two services over one store; expiry when the seeker's stream is
// gone. Handlers without sockets.
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <thread>

#include "delegating_store.h"
#include "lobby/seek.h"
#include "store/game_record_json.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

struct MadeSeek {
    std::string id;
    std::string token;
};

MadeSeek makeSeek(HandlerFixture& f, const std::string& body) {
    auto made = f.call(verb::post, "/api/v1/seeks", body);
    REQUIRE(made->status() == 201);
    const auto json = made->json();
    return {json.at("id"), json.at("seekToken")};
}

std::vector<std::string> listedIds(HandlerFixture& f) {
    auto listed = f.call(verb::get, "/api/v1/seeks");
    REQUIRE(listed->status() == 200);
    std::vector<std::string> ids;
    const nlohmann::json body = listed->json();  // kept: the loop reads into it
    for (const auto& seek : body.at("seeks")) {
        CHECK_FALSE(seek.contains("seekToken"));
        CHECK_FALSE(seek.contains("tokenHash"));
        ids.push_back(seek.at("id"));
    }
    return ids;
}

// The seeker's stream of `seek`, open (it keeps the seek alive while it is).
std::shared_ptr<RecordingSink> followSeek(HandlerFixture& f, const MadeSeek& seek) {
    auto stream =
        f.call(verb::get, "/api/v1/seeks/" + seek.id + "/stream", "", as(seek.token), false);
    REQUIRE(stream->wait(1));
    return stream;
}

bool contains(const std::vector<std::string>& ids, const std::string& id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

TEST_CASE("lobby: a seek's status by the time, and its request checked", "[server][lobby]") {
    Seek seek;
    seek.createdAtMs = 1000;
    seek.seenAtMs = 1000;
    const SeekTiming timing{500, 10000};
    CHECK(seekStatus(seek, 1400, timing) == "open");
    CHECK(seekStatus(seek, 1501, timing) == "expired");  // no stream seen for the grace time
    seek.seenAtMs = 10900;
    CHECK(seekStatus(seek, 11000, timing) == "open");
    CHECK(seekStatus(seek, 11001, timing) == "expired");  // past the maximum age
    seek.state = "accepted";
    CHECK(seekStatus(seek, 99999, timing) == "accepted");

    auto parsed = parseSeekRequest(
        {{"clock", {{"initial", 180000}, {"increment", 2000}}}, {"color", "black"}});
    REQUIRE(std::holds_alternative<Seek>(parsed));
    CHECK(std::get<Seek>(parsed).clock == SeekClock{180000, 2000});
    CHECK(seekerSide(std::get<Seek>(parsed), true) == "black");
    Seek random;
    CHECK(seekerSide(random, true) == "white");
    CHECK(seekerSide(random, false) == "black");
    for (const auto& bad :
         {nlohmann::json{{"color", "green"}}, nlohmann::json{{"clock", {{"initial", 0}}}},
          nlohmann::json{{"clock", {{"initial", "3m"}}}}, nlohmann::json{{"extra", 1}}}) {
        CHECK(std::holds_alternative<ApiError>(parseSeekRequest(bad)));
    }
    // The stored form reads back as it was.
    seek.id = "s";
    seek.clock = SeekClock{60000, 0};
    seek.gameId = "g";
    seek.seekerSide = "white";
    const SeekDoc doc = toSeekDoc(seek, timing);
    CHECK_FALSE(doc.open);
    auto back = fromSeekDoc(doc);
    REQUIRE(back);
    CHECK(*back == seek);
}

TEST_CASE("lobby: seek, list, accept, then the seeker learns the game and plays it with its token",
          "[server][lobby]") {
    ServerConfig config = testConfig();
    config.firstMoveDeadlineMs = 30000;  // the server's default
    HandlerFixture f(config);
    auto bad = f.call(verb::post, "/api/v1/seeks", R"({"color":"purple"})");
    CHECK(bad->status() == 422);
    CHECK(bad->errorCode() == "invalid_value");
    const MadeSeek seek =
        makeSeek(f, R"({"clock":{"initial":180000,"increment":2000},"color":"white"})");
    CHECK(contains(listedIds(f), seek.id));
    // Only its seeker reads it.
    CHECK(f.call(verb::get, "/api/v1/seeks/" + seek.id)->status() == 401);
    CHECK(f.call(verb::get, "/api/v1/seeks/" + seek.id, "", as("nope"))->status() == 403);
    auto mine = f.call(verb::get, "/api/v1/seeks/" + seek.id, "", as(seek.token));
    REQUIRE(mine->status() == 200);
    CHECK(mine->json()["status"] == "open");
    CHECK_FALSE(mine->json().contains("gameId"));
    // Its stream says so, then waits.
    auto stream =
        f.call(verb::get, "/api/v1/seeks/" + seek.id + "/stream", "", as(seek.token), false);
    REQUIRE(stream->wait(1));
    CHECK(nlohmann::json::parse(stream->lines()[0])["type"] == "seek");

    // Accepting one's own seek is refused.
    auto own = f.call(verb::post, "/api/v1/seeks/" + seek.id + "/accept", "", as(seek.token));
    CHECK(own->status() == 409);
    CHECK(own->errorCode() == "own_seek");

    auto accepted = f.call(verb::post, "/api/v1/seeks/" + seek.id + "/accept");
    REQUIRE(accepted->status() == 201);
    const auto game = accepted->json();
    CHECK(game["playerSide"] == "black");
    CHECK(game["clock"]["initial"] == 180000);
    // The first-move deadline of any game between people with a clock.
    CHECK(game["firstMoveDeadlineMs"].get<std::int64_t>() > 0);
    CHECK(f.call(verb::get, "/api/v1/games/" + std::string(game["id"]))
              ->json()["firstMoveDeadlineMs"]
              .is_number());
    const std::string gameId = game["id"];
    const std::string acceptor = game["playerToken"];
    CHECK_FALSE(contains(listedIds(f), seek.id));
    // A second acceptor is too late.
    auto late = f.call(verb::post, "/api/v1/seeks/" + seek.id + "/accept");
    CHECK(late->status() == 409);
    CHECK(late->errorCode() == "seek_taken");

    REQUIRE(stream->wait(2));
    const auto event = nlohmann::json::parse(stream->lines()[1]);
    CHECK(event["type"] == "seekAccepted");
    CHECK(event["gameId"] == gameId);
    CHECK(event["playerSide"] == "white");
    REQUIRE(stream->wait());  // the stream ends with it
    auto read = f.call(verb::get, "/api/v1/seeks/" + seek.id, "", as(seek.token))->json();
    CHECK(read["status"] == "accepted");
    CHECK(read["gameId"] == gameId);
    const std::string seekerToken = read["playerToken"];

    // The seeker's token moves White, the acceptor's Black.
    const std::string moves = "/api/v1/games/" + gameId + "/moves";
    CHECK(f.call(verb::post, moves, R"({"move":"e4"})", as(acceptor))->status() == 409);
    CHECK(f.call(verb::post, moves, R"({"move":"e4"})", as(seekerToken))->status() == 200);
    CHECK(f.call(verb::post, moves, R"({"move":"e5"})", as(acceptor))->status() == 200);
    // A cancelled seek after acceptance: still taken.
    auto cancel = f.call(verb::delete_, "/api/v1/seeks/" + seek.id, "", as(seek.token));
    CHECK(cancel->status() == 409);
    CHECK(cancel->errorCode() == "seek_taken");
}

TEST_CASE("lobby: a seek cancelled leaves the list, and a client's open seeks are bounded",
          "[server][lobby]") {
    HandlerFixture f;
    std::vector<MadeSeek> seeks;
    for (std::size_t i = 0; i < kMaxOpenSeeksPerClient; ++i) seeks.push_back(makeSeek(f, "{}"));
    auto refused = f.call(verb::post, "/api/v1/seeks", "{}");
    CHECK(refused->status() == 429);
    CHECK(refused->errorCode() == "too_many_seeks");
    CHECK(f.call(verb::delete_, "/api/v1/seeks/" + seeks[0].id)->status() == 401);
    auto cancelled = f.call(verb::delete_, "/api/v1/seeks/" + seeks[0].id, "", as(seeks[0].token));
    REQUIRE(cancelled->status() == 200);
    CHECK(cancelled->json()["status"] == "cancelled");
    CHECK_FALSE(contains(listedIds(f), seeks[0].id));
    auto closed = f.call(verb::post, "/api/v1/seeks/" + seeks[0].id + "/accept");
    CHECK(closed->status() == 409);
    CHECK(closed->errorCode() == "seek_closed");
    CHECK(f.call(verb::post, "/api/v1/seeks", "{}")->status() == 201);  // room again
    CHECK(f.call(verb::put, "/api/v1/seeks/" + seeks[1].id)->status() == 405);
    CHECK(f.call(verb::post, "/api/v1/seeks/nope/accept")->status() == 404);
}

TEST_CASE("lobby: a client's open seeks are bounded however many the lobby lists",
          "[server][lobby]") {
    HandlerFixture f;
    // More open seeks than a listing shows (kMaxListedSeeks), from other clients, older.
    for (std::size_t i = 0; i < kMaxListedSeeks + 5; ++i) {
        f.clientAddress = "10.1." + std::to_string(i / 3) + "." + std::to_string(i % 3);
        makeSeek(f, "{}");
    }
    f.clientAddress = "10.9.9.9";
    for (std::size_t i = 0; i < kMaxOpenSeeksPerClient; ++i) makeSeek(f, "{}");
    auto refused = f.call(verb::post, "/api/v1/seeks", "{}");
    CHECK(refused->status() == 429);
    CHECK(refused->errorCode() == "too_many_seeks");
}

namespace {
// A store whose seek creations take a while: requests that race over the per-client count.
class SlowSeekStore : public DelegatingStore {
  public:
    using DelegatingStore::DelegatingStore;
    using GameStore::createSeek;
    StoreStatus createSeek(const SeekDoc& seek, const SeekQuota& quota) override {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        return DelegatingStore::createSeek(seek, quota);
    }
};
}  // namespace

TEST_CASE("lobby: one client's seeks made at once on two services stay within the bound",
          "[server][lobby]") {
    auto store = std::make_shared<SlowSeekStore>(std::make_shared<MemoryGameStore>());
    HandlerFixture a(testConfig(), store);
    HandlerFixture b(testConfig(), store);
    std::vector<std::future<int>> made;
    for (int i = 0; i < 8; ++i) {
        HandlerFixture& f = i % 2 == 0 ? a : b;
        made.push_back(std::async(std::launch::async, [&f] {
            return static_cast<int>(f.call(verb::post, "/api/v1/seeks", "{}")->status());
        }));
    }
    std::size_t created = 0;
    for (auto& status : made) {
        const int code = status.get();
        CHECK((code == 201 || code == 429));
        created += code == 201 ? 1 : 0;
    }
    CHECK(created == kMaxOpenSeeksPerClient);
    CHECK(listedIds(a).size() == kMaxOpenSeeksPerClient);
}

TEST_CASE("lobby: two services over one store, two acceptors race, exactly one wins",
          "[server][lobby]") {
    auto store = std::make_shared<MemoryGameStore>();
    HandlerFixture a(testConfig(), store);
    HandlerFixture b(testConfig(), store);
    for (int round = 0; round < 10; ++round) {
        const MadeSeek seek = makeSeek(a, R"({"clock":{"initial":60000,"increment":0}})");
        REQUIRE(contains(listedIds(b), seek.id));  // made on one, listed on the other
        auto first = std::async(std::launch::async, [&] {
            return a.call(verb::post, "/api/v1/seeks/" + seek.id + "/accept");
        });
        auto second = std::async(std::launch::async, [&] {
            return b.call(verb::post, "/api/v1/seeks/" + seek.id + "/accept");
        });
        auto one = first.get();
        auto two = second.get();
        const int wins = (one->status() == 201) + (two->status() == 201);
        REQUIRE(wins == 1);
        auto loser = one->status() == 201 ? two : one;
        CHECK(loser->status() == 409);
        CHECK(loser->errorCode() == "seek_taken");
        auto winner = one->status() == 201 ? one : two;
        const std::string gameId = winner->json()["id"];
        // The game exists once, and the seek names it.
        CHECK(a.call(verb::get, "/api/v1/games/" + gameId)->status() == 200);
        auto read = b.call(verb::get, "/api/v1/seeks/" + seek.id, "", as(seek.token))->json();
        CHECK(read["gameId"] == gameId);
        CHECK(store->count() == static_cast<std::uint64_t>(round + 1));
    }
}

TEST_CASE("lobby: a seek lives while its stream does, and expires the grace time after",
          "[server][lobby]") {
    ServerConfig config = testConfig();
    config.presenceHeartbeatMs = 50;
    config.playerGoneGraceMs = 300;
    HandlerFixture f(config);
    // Nobody follows this one: it expires after the grace time.
    const MadeSeek orphan = makeSeek(f, "{}");
    const MadeSeek followed = makeSeek(f, "{}");
    auto stream = followSeek(f, followed);
    REQUIRE(eventually([&] { return !contains(listedIds(f), orphan.id); }));
    auto orphanRead = f.call(verb::get, "/api/v1/seeks/" + orphan.id, "", as(orphan.token));
    CHECK(orphanRead->json()["status"] == "expired");
    // Well past the grace time, the followed seek is still open: its stream's beats keep it.
    std::this_thread::sleep_for(std::chrono::milliseconds(2 * config.playerGoneGraceMs));
    CHECK(contains(listedIds(f), followed.id));
    stream->disconnect();
    REQUIRE(eventually([&] { return !contains(listedIds(f), followed.id); }));
    auto late = f.call(verb::post, "/api/v1/seeks/" + followed.id + "/accept");
    CHECK(late->status() == 409);
    CHECK(late->errorCode() == "seek_closed");
}

TEST_CASE("lobby: a followed seek lives on with a grace shorter than the heartbeat",
          "[server][lobby]") {
    // The board page's test server runs with --player-gone-grace 3000 beside the default 10 s
    // heartbeat: a seek whose stream was open expired between two beats.
    ServerConfig config = testConfig();
    config.presenceHeartbeatMs = 10000;
    config.playerGoneGraceMs = 300;
    HandlerFixture f(config);
    const MadeSeek followed = makeSeek(f, "{}");
    auto stream = followSeek(f, followed);
    std::this_thread::sleep_for(std::chrono::milliseconds(3 * config.playerGoneGraceMs));
    CHECK(contains(listedIds(f), followed.id));
    auto read = f.call(verb::get, "/api/v1/seeks/" + followed.id, "", as(followed.token));
    CHECK(read->json()["status"] == "open");
    stream->disconnect();
}
