// GET /api/v1/games?ids=...: the listing of a client's recent games, without sockets and live.
#include <catch2/catch.hpp>

#include "handlers/game_list_handler.h"
#include "http/query_string.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;

namespace {

std::string joinIds(const std::vector<std::string>& ids) {
    std::string joined;
    for (const std::string& id : ids) joined += (joined.empty() ? "" : ",") + id;
    return joined;
}

std::vector<std::string> listedIds(const nlohmann::json& body) {
    std::vector<std::string> ids;
    for (const auto& game : body.at("games")) ids.push_back(game.at("id").get<std::string>());
    return ids;
}

}  // namespace

TEST_CASE("game list: ids parsed from the query, bounded and validated",
          "[server][handlers][games][list]") {
    using Ids = std::vector<std::string>;
    auto ids = [](std::string_view target) {
        auto parsed = parseListedIds(target);
        REQUIRE(std::holds_alternative<Ids>(parsed));
        return std::get<Ids>(parsed);
    };
    auto error = [](std::string_view target) {
        auto parsed = parseListedIds(target);
        REQUIRE(std::holds_alternative<ApiError>(parsed));
        return std::get<ApiError>(parsed);
    };
    CHECK(ids("/api/v1/games?ids=a,b_-9,c") == Ids{"a", "b_-9", "c"});
    CHECK(ids("/api/v1/games?ids=a%2Cb") == Ids{"a", "b"});  // URLSearchParams encodes ','
    CHECK(ids("/api/v1/games?ids=b,a,b&ids=c,a") == Ids{"b", "a", "c"});  // duplicates dropped
    CHECK(ids("/api/v1/games?ids=") == Ids{});
    CHECK(ids("/api/v1/games?ids=a,,b,") == Ids{"a", "b"});

    CHECK(error("/api/v1/games").message.find("'ids' is required") != std::string::npos);
    CHECK(error("/api/v1/games?ids=a!b").message.find("not a game id") != std::string::npos);
    CHECK(error("/api/v1/games?ids=a%2").message.find("percent") != std::string::npos);
    CHECK(error("/api/v1/games?ids=a%zzb").code == "bad_request");
    CHECK(error("/api/v1/games?ids=a&owner=me").message.find("owner") != std::string::npos);
    CHECK(error("/api/v1/games?ids=" + std::string(kMaxGameIdLength + 1, 'x')).code ==
          "bad_request");
    Ids many;
    for (std::size_t i = 0; i < kMaxListedIds; ++i) many.push_back("g" + std::to_string(i));
    CHECK(ids("/api/v1/games?ids=" + joinIds(many)).size() == kMaxListedIds);
    many.push_back("one-too-many");
    ApiError tooMany = error("/api/v1/games?ids=" + joinIds(many));
    CHECK(tooMany.status == ErrorStatus::bad_request);
    CHECK(tooMany.message.find("at most 50") != std::string::npos);
}

TEST_CASE("game list: summaries of the known ids, in the order asked",
          "[server][handlers][games][list]") {
    HandlerFixture f;
    auto [first, firstToken] = f.createGame({{"engine", {{"side", "none"}}}});
    auto [second, secondToken] = f.createGame(
        {{"engine", {{"side", "black"}, {"level", 2}}}, {"clock", {{"initial", 60000}}}});
    REQUIRE(f.call(http::verb::post, "/api/v1/games/" + first + "/moves", R"({"move":"e2e4"})",
                   {{"Authorization", "Bearer " + firstToken}})
                ->status() == 200);
    REQUIRE(f.call(http::verb::post, "/api/v1/games/" + second + "/resign", "",
                   {{"Authorization", "Bearer " + secondToken}})
                ->status() == 200);

    auto listed = f.call(http::verb::get, "/api/v1/games?ids=" + second + ",unknownId," + first);
    REQUIRE(listed->status() == 200);
    const nlohmann::json body = listed->json();
    REQUIRE(listedIds(body) == std::vector<std::string>{second, first});  // unknown: absent

    const nlohmann::json& played = body["games"][1];
    CHECK(played["status"] == "ongoing");
    CHECK(played["result"] == "*");
    CHECK(played["moveCount"] == 1);
    CHECK(played["turn"] == "black");
    CHECK(played["fen"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    CHECK(played["engine"]["side"] == "none");
    CHECK(played["version"] == 2);
    CHECK(played["createdAt"].get<std::int64_t>() > 0);
    CHECK(played["updatedAt"].get<std::int64_t>() >= played["createdAt"].get<std::int64_t>());
    CHECK_FALSE(played.contains("playerToken"));
    CHECK_FALSE(played.contains("moves"));  // a summary, not the game

    const nlohmann::json& resigned = body["games"][0];
    CHECK(resigned["status"] == "resigned");
    CHECK(resigned["result"] == "0-1");
    CHECK(resigned["winner"] == "black");
    CHECK(resigned["engine"]["level"] == 2);
    CHECK(resigned["clock"]["initial"] == 60000);

    auto none = f.call(http::verb::get, "/api/v1/games?ids=nobody");
    REQUIRE(none->status() == 200);
    CHECK(none->json() == nlohmann::json{{"games", nlohmann::json::array()}});
}

TEST_CASE("game list: a stored game that does not replay is left out, not fatal",
          "[server][handlers][games][list]") {
    HandlerFixture f;
    auto [good, token] = f.createGame();
    GameRecord broken;
    broken.id = "broken";
    broken.initialFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    broken.moves = {"e2e5"};  // illegal: written by something that was not this server
    REQUIRE(f.context.store->create(broken) == StoreStatus::Ok);
    auto listed = f.call(http::verb::get, "/api/v1/games?ids=broken," + good);
    REQUIRE(listed->status() == 200);
    CHECK(listedIds(listed->json()) == std::vector<std::string>{good});
}

TEST_CASE("game list: input errors are JSON errors, other methods 405",
          "[server][handlers][games][list]") {
    HandlerFixture f;
    for (const char* target :
         {"/api/v1/games", "/api/v1/games?ids=../etc", "/api/v1/games?id=abc"}) {
        INFO(target);
        auto sink = f.call(http::verb::get, target);
        CHECK(sink->status() == 400);
        CHECK(sink->errorCode() == "bad_request");
    }
    auto wrong = f.call(http::verb::delete_, "/api/v1/games");
    CHECK(wrong->status() == 405);
    CHECK(std::string(wrong->response()[http::field::allow]) == "GET, POST");
}

TEST_CASE("live server: recent games listed by id over HTTP", "[server][live][list]") {
    LiveServer live;
    HttpClient client(live.port());
    std::vector<std::string> created;
    for (int i = 0; i < 3; ++i) {
        auto response = client.request(bhttp::verb::post, "/api/v1/games", "{}");
        REQUIRE(response.status == 201);
        created.push_back(response.json()["id"].get<std::string>());
    }
    auto listed = client.request(
        bhttp::verb::get, "/api/v1/games?ids=" + created[2] + "%2C" + created[0] + ",missing");
    REQUIRE(listed.status == 200);
    CHECK(listedIds(listed.json()) == std::vector<std::string>{created[2], created[0]});
    auto bad = client.request(bhttp::verb::get, "/api/v1/games?ids=a;b");
    CHECK(bad.status == 400);
    CHECK(bad.json()["error"]["code"] == "bad_request");
}

TEST_CASE("query strings: escapes, '+', empty parameters and the fragment", "[games][list]") {
    const auto parsed = queryParameters("/x?fen=8%2F8+w&&multipv=2&flag#ids=no");
    REQUIRE(parsed);
    REQUIRE(parsed->size() == 3);
    CHECK((*parsed)[0] == std::pair<std::string, std::string>{"fen", "8/8 w"});
    CHECK((*parsed)[1] == std::pair<std::string, std::string>{"multipv", "2"});
    CHECK((*parsed)[2] == std::pair<std::string, std::string>{"flag", ""});
    CHECK(queryParameters("/x")->empty());
    CHECK_FALSE(queryParameters("/x?a=%4"));
    CHECK_FALSE(queryParameters("/x?a=%zz"));
    CHECK(queryDecode("a%2cb") == std::optional<std::string>("a,b"));
}
