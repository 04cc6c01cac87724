// Request handlers without sockets: request in, response out.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>
#include <tuple>

#include "core/cpu.h"
#include "delegating_store.h"
#include "games/game_clock.h"
#include "games/game_service.h"
#include "http/accept.h"
#include "http/cors.h"
#include "search/fingerprint.h"
#include "search/levels.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {
const std::string kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
std::vector<std::pair<std::string, std::string>> bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}
}  // namespace

namespace {
// A store whose clock (Redis TIME for the real one) is `offsetMs` off this replica's.
class StoreClockAt final : public DelegatingStore {
  public:
    StoreClockAt(std::shared_ptr<GameStore> inner, std::int64_t offsetMs)
        : DelegatingStore(std::move(inner)), offsetMs_(offsetMs) {}
    std::optional<std::int64_t> storeTimeMs() override { return nowEpochMs() + offsetMs_; }

  private:
    std::int64_t offsetMs_;
};
}  // namespace

TEST_CASE("handlers: a replica whose clock is off the store's is not ready", "[server][handlers]") {
    // Game clocks are read off the replica's wall clock: one 5 s ahead of the store (so of the
    // others) would charge moves 5 s too much and call flags early (docs/deployment.md).
    ServerConfig config = testConfig();
    config.maxClockSkewMs = 1000;
    HandlerFixture ahead(
        config, std::make_shared<StoreClockAt>(std::make_shared<MemoryGameStore>(), -5000));
    auto refused = ahead.call(verb::get, "/readyz");
    REQUIRE(refused->status() == 503);
    REQUIRE(refused->json()["status"] == "clock_skew");
    REQUIRE(refused->json()["clockSkewMs"].get<std::int64_t>() >= 4900);
    HandlerFixture near(config,
                        std::make_shared<StoreClockAt>(std::make_shared<MemoryGameStore>(), 300));
    REQUIRE(near.call(verb::get, "/readyz")->status() == 200);
    // 0, the default, turns the check off (a store whose own clock is off would otherwise take
    // out every replica, though they agree with each other).
    config.maxClockSkewMs = ServerConfig{}.maxClockSkewMs;
    REQUIRE(config.maxClockSkewMs == 0);
    HandlerFixture unchecked(
        config, std::make_shared<StoreClockAt>(std::make_shared<MemoryGameStore>(), -5000));
    REQUIRE(unchecked.call(verb::get, "/readyz")->status() == 200);
}

TEST_CASE("handlers: health, readiness, metrics, OpenAPI", "[server][handlers]") {
    HandlerFixture f;
    auto health = f.call(verb::get, "/healthz");
    REQUIRE(health->status() == 200);
    REQUIRE(health->json()["status"] == "ok");

    REQUIRE(f.call(verb::get, "/readyz")->status() == 200);
    f.context.ready = false;
    REQUIRE(f.call(verb::get, "/readyz")->status() == 503);
    f.context.ready = true;
    f.context.draining = true;
    auto draining = f.call(verb::get, "/readyz");
    REQUIRE(draining->status() == 503);
    REQUIRE(draining->json()["status"] == "draining");
    f.context.draining = false;

    f.context.metrics.observeRequest("/healthz", "GET", 200, 0.001);
    auto metrics = f.call(verb::get, "/metrics");
    REQUIRE(metrics->status() == 200);
    const std::string text = metrics->response().body();
    for (const char* name :
         {"outpost_http_requests_total{route=\"/healthz\",method=\"GET\",status=\"200\"} 1",
          "outpost_http_request_duration_seconds_bucket", "outpost_searches_running 0",
          "outpost_searches_queued 0", "outpost_search_queue_wait_seconds_count",
          "outpost_nodes_searched_total", "outpost_websocket_connections 0", "outpost_games 0"}) {
        INFO(name);
        REQUIRE(text.find(name) != std::string::npos);
    }

    auto openapi = f.call(verb::get, "/api/v1/openapi.yaml");
    REQUIRE(openapi->status() == 200);
    REQUIRE(std::string(openapi->response()[http::field::content_type]) == "application/yaml");
    REQUIRE(openapi->response().body().rfind("openapi: 3", 0) == 0);
}

TEST_CASE("handlers: engine info lists the switches, levels and caps the server uses",
          "[server][handlers]") {
    ServerConfig config = testConfig();
    config.maxDepth = 20;
    config.maxMultiPv = 3;
    HandlerFixture f(config);
    auto info = f.call(verb::get, "/api/v1/engine");
    REQUIRE(info->status() == 200);
    const nlohmann::json body = info->json();
    REQUIRE(body["name"] == "Outpost");
    REQUIRE(body["limits"]["maxDepth"] == 20);
    REQUIRE(body["limits"]["maxMultiPv"] == 3);
    REQUIRE(body["searchThreads"].get<int>() >= 1);
    // The fingerprint the analysis cache keys by (search/fingerprint.h).
    REQUIRE(body["fingerprint"] == outpost::engineFingerprint());
    REQUIRE(body["cpu"]["kernel"] == outpost::kernelName(outpost::cpuChoice().kernel));
    REQUIRE(body["cpu"]["sliders"] == outpost::slidersName(outpost::cpuChoice().sliders));

    // Every switch the engine has, with the engine's default, and each one the analysis
    // endpoint accepts by that name.
    const auto engineSwitches = outpost::SearchConfig{}.list();
    REQUIRE(body["techniques"].size() == engineSwitches.size());
    for (std::size_t i = 0; i < engineSwitches.size(); ++i) {
        INFO(engineSwitches[i].first);
        REQUIRE(body["techniques"][i]["name"] == engineSwitches[i].first);
        REQUIRE(body["techniques"][i]["default"] == engineSwitches[i].second);
        const std::string name = body["techniques"][i]["name"];
        auto analysis = f.call(verb::post, "/api/v1/analysis",
                               R"({"limits":{"depth":1},"options":{")" + name + R"(":false}})");
        REQUIRE(analysis->status() == 200);
    }

    // Eight levels, rated and timed in increasing order; caps only where the level has them.
    REQUIRE(body["levels"].size() == 8);
    for (std::size_t i = 0; i < 8; ++i) {
        const nlohmann::json& level = body["levels"][i];
        REQUIRE(level["level"] == i + 1);
        if (i > 0) {
            REQUIRE(level["elo"] > body["levels"][i - 1]["elo"]);
            REQUIRE(level["movetimeMs"] > body["levels"][i - 1]["movetimeMs"]);
        }
    }
    REQUIRE(body["levels"][0]["elo"] == outpost::search::kMinElo);
    REQUIRE(body["levels"][0]["depth"] == 1);
    REQUIRE(body["levels"][7]["elo"] == outpost::search::kMaxElo);
    REQUIRE(body["levels"][7]["depth"].is_null());
    REQUIRE(body["levels"][7]["nodes"].is_null());

    auto wrong = f.call(verb::post, "/api/v1/engine");
    REQUIRE(wrong->status() == 405);
    REQUIRE(std::string(wrong->response()[http::field::allow]) == "GET");
}

TEST_CASE("handlers: unknown routes 404, wrong methods 405 with Allow", "[server][handlers]") {
    HandlerFixture f;
    auto missing = f.call(verb::get, "/api/v1/nope");
    REQUIRE(missing->status() == 404);
    REQUIRE(missing->errorCode() == "not_found");
    REQUIRE(f.call(verb::get, "/api/v2/games")->status() == 404);
    REQUIRE(f.call(verb::get, "/api/v1/games/x/y/z")->status() == 404);

    auto wrong = f.call(verb::post, "/healthz");
    REQUIRE(wrong->status() == 405);
    REQUIRE(wrong->errorCode() == "method_not_allowed");
    REQUIRE(std::string(wrong->response()[http::field::allow]) == "GET");
    REQUIRE(f.call(verb::put, "/api/v1/analysis")->status() == 405);
    REQUIRE(f.call(verb::delete_, "/api/v1/games/abc")->status() == 405);
    REQUIRE(f.call(verb::get, "/api/v1/games/abc/moves")->status() == 405);
    REQUIRE(f.call(verb::post, "/api/v1/games/abc/pgn")->status() == 405);
    REQUIRE(f.call(verb::put, "/index.html")->status() == 405);
}

TEST_CASE("handlers: an API route refuses a query parameter it does not take, as a body field",
          "[server][handlers]") {
    // Unknown query parameters were refused by GET /analysis and GET /games and silently
    // ignored by every other route (a misspelt ?reveiw=1 gave the plain PGN).
    HandlerFixture f;
    const auto [id, createdToken] = f.createGame({{"engine", {{"side", "none"}}}});
    const std::string token =
        createdToken;  // a lambda may not capture a structured binding (clang)
    const std::string game = "/api/v1/games/" + id;
    const auto version = f.call(verb::get, game)->json()["version"];
    auto refusedNaming = [&](verb method, const std::string& target, const std::string& name,
                             const std::string& body = "") {
        INFO(target);
        auto sink = f.call(method, target, body, bearer(token));
        CHECK(sink->status() == 400);
        CHECK(sink->errorCode() == "bad_request");
        CHECK(sink->json()["error"]["message"].get<std::string>().find("'" + name + "'") !=
              std::string::npos);
    };
    for (const std::string& target :
         {std::string("/api/v1/engine"), std::string("/api/v1/openapi.yaml"), game, game + "/pgn",
          game + "/stream", game + "/chat", game + "/review", std::string("/api/v1/seeks"),
          std::string("/api/v1/reviews/pNoSuchReview")}) {
        refusedNaming(verb::get, target + "?verbose=1", "verbose");
    }
    refusedNaming(verb::get, game + "/pgn?reveiw=1", "reveiw");
    refusedNaming(verb::get, "/api/v1/games?ids=" + id + "&limit=5", "limit");
    // The parameters of GET are not POST's: POST takes none.
    refusedNaming(verb::post, "/api/v1/analysis?fen=8/8/8/8/8/8/8/K1k5+w+-+-", "fen",
                  R"({"limits":{"depth":1}})");
    refusedNaming(verb::post, "/api/v1/games?ids=x", "ids", "{}");
    refusedNaming(verb::post, game + "/moves?move=e2e4", "move", R"({"move":"e2e4"})");
    REQUIRE(f.call(verb::get, game)->json()["version"] == version);  // the move was not played
    auto malformed = f.call(verb::get, "/api/v1/engine?x=%zz");
    CHECK(malformed->status() == 400);
    CHECK(malformed->errorCode() == "bad_request");

    // The documented ones still work; review takes 1, true, 0, false only, once.
    CHECK(f.call(verb::get, "/api/v1/games?ids=" + id)->status() == 200);
    for (const char* review : {"1", "true", "0", "false"}) {
        INFO(review);
        CHECK(f.call(verb::get, game + "/pgn?review=" + review)->status() == 200);
    }
    CHECK(f.call(verb::get, game + "/pgn?review=yes")->status() == 400);
    CHECK(f.call(verb::get, game + "/pgn?review=1&review=0")->status() == 400);
    CHECK(f.call(verb::get, game + "/pgn")->status() == 200);
    // A browser library's cache buster `_` is taken by every GET (and HEAD) and ignored; a
    // POST refuses it, and a name that merely starts with `_` is unknown.
    for (const std::string& target :
         {std::string("/api/v1/engine?_=1700000000000"), game + "?_=1700000000000",
          game + "/pgn?review=1&_=1700000000000", game + "/chat?_=1&_=2",
          "/api/v1/games?ids=" + id + "&_=1700000000000", std::string("/api/v1/seeks?_"),
          std::string("/api/v1/openapi.yaml?_=3")}) {
        INFO(target);
        CHECK(f.call(verb::get, target)->status() == 200);
        CHECK(f.call(verb::head, target)->status() == 200);
    }
    auto cached =
        f.call(verb::get, "/api/v1/analysis?_=1700000000000&fen=8/8/8/8/8/8/8/K1k5+w+-+-");
    CHECK(cached->status() == 404);
    CHECK(cached->errorCode() == "not_cached");
    CHECK(f.call(verb::get, game + "/pgn?review=1&_=17")->response().body().find("[Event") !=
          std::string::npos);
    refusedNaming(verb::post, "/api/v1/games?_=1700000000000", "_", "{}");
    refusedNaming(verb::get, game + "?__=1", "__");
    refusedNaming(verb::get, "/api/v1/games?ids=" + id + "&_x=1", "_x");
    // Probes ignore the query (a monitor's cache buster must not fail them).
    for (const char* probe : {"/healthz?_=17", "/readyz?check=1", "/metrics?x"}) {
        INFO(probe);
        CHECK(f.call(verb::get, probe)->status() == 200);
    }
}

TEST_CASE("handlers: static files with content types, no escape from the root",
          "[server][handlers]") {
    const auto root =
        std::filesystem::temp_directory_path() / ("outpost-web-" + std::to_string(::getpid()));
    std::filesystem::create_directories(root / "assets");
    std::ofstream(root / "index.html") << "<!doctype html><title>Outpost</title>";
    std::ofstream(root / "assets" / "app.js") << "console.log(1)";
    std::ofstream(root / "assets" / "style.css") << "body{}";
    ServerConfig config = testConfig();
    config.webRoot = root.string();
    HandlerFixture f(config);

    auto index = f.call(verb::get, "/");
    REQUIRE(index->status() == 200);
    REQUIRE(std::string(index->response()[http::field::content_type]) ==
            "text/html; charset=utf-8");
    REQUIRE(index->response().body().find("Outpost") != std::string::npos);
    auto js = f.call(verb::get, "/assets/app.js?v=1");
    REQUIRE(js->status() == 200);
    REQUIRE(std::string(js->response()[http::field::content_type]) ==
            "text/javascript; charset=utf-8");
    REQUIRE(std::string(
                f.call(verb::get, "/assets/style.css")->response()[http::field::content_type]) ==
            "text/css; charset=utf-8");
    auto head = f.call(verb::head, "/index.html");
    REQUIRE(head->status() == 200);
    REQUIRE(head->response().body().empty());
    REQUIRE(f.call(verb::get, "/missing.png")->status() == 404);
    REQUIRE(f.call(verb::get, "/../../etc/passwd")->status() == 404);
    REQUIRE(f.call(verb::get, "/assets/%2e%2e/index.html")->status() == 404);
    REQUIRE(f.call(verb::get, "/assets")->status() == 404);  // a directory is not a file
    std::filesystem::remove_all(root);
}

TEST_CASE("handlers: CORS for configured origins, preflight answered", "[server][handlers]") {
    ServerConfig config = testConfig();
    config.corsOrigins = {"https://board.example"};
    HandlerFixture f(config);
    auto preflight =
        f.call(verb::options, "/api/v1/games", "",
               {{"Origin", "https://board.example"}, {"Access-Control-Request-Method", "POST"}});
    REQUIRE(preflight->status() == 204);
    auto response = preflight->response();
    REQUIRE(std::string(response[http::field::access_control_allow_origin]) ==
            "https://board.example");
    REQUIRE(std::string(response[http::field::access_control_allow_methods]).find("POST") !=
            std::string::npos);
    REQUIRE(
        std::string(response[http::field::access_control_allow_headers]).find("Authorization") !=
        std::string::npos);
    auto other = f.call(verb::options, "/api/v1/games", "", {{"Origin", "https://evil.example"}});
    REQUIRE(other->response()[http::field::access_control_allow_origin].empty());
}

TEST_CASE("handlers: CORS lets another origin's page read the headers the API tells it to read",
          "[server][handlers]") {
    // Only Retry-After was exposed: a board page on another origin could not read a created
    // game's Location, the cached analysis' ETag or a 405's Allow.
    const std::vector<std::string> allowed = {"https://board.example"};
    Request request{verb::get, "/api/v1/analysis", 11};
    request.set(http::field::origin, "https://board.example");
    Response response{http::status::ok, 11};
    applyCors(request, response, allowed);
    const std::string exposed(response[http::field::access_control_expose_headers]);
    for (const char* header : {"Allow", "ETag", "Location", "Retry-After"}) {
        INFO(header);
        CHECK(exposed.find(header) != std::string::npos);
    }
    // And send If-None-Match for that ETag (a preflight names it when the page sets it).
    request.method(verb::options);
    request.set(http::field::access_control_request_method, "GET");
    request.set(http::field::access_control_request_headers, "if-none-match");
    const Response preflight = preflightResponse(request, allowed);
    CHECK(std::string(preflight[http::field::access_control_allow_headers]).find("If-None-Match") !=
          std::string::npos);
}

TEST_CASE("handlers: analysis input errors are clear JSON errors", "[server][handlers][analysis]") {
    HandlerFixture f;
    auto post = [&](const std::string& body) {
        return f.call(verb::post, "/api/v1/analysis", body);
    };
    struct Case {
        std::string body;
        unsigned status;
        std::string code;
    };
    const std::vector<Case> cases = {
        {"{not json", 400, "bad_json"},
        // A key twice in one object was read as its last value (RFC 8259 leaves it open).
        {R"({"fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1","fen":"x","limits":{"depth":1}})", 400,
         "bad_json"},
        {R"({"limits":{"depth":1,"depth":2}})", 400, "bad_json"},
        {"[1,2]", 400, "bad_request"},
        {R"({"limits":{"depth":2},"colour":"white"})", 400, "bad_request"},
        {R"({"fen":42})", 400, "bad_request"},
        {R"({"fen":"not a fen"})", 422, "invalid_fen"},
        {R"({"fen":"8/8/8/8/8/8/8/8 w - - 0 1"})", 422, "invalid_fen"},
        // An empty FEN is a field left empty, not the start position (which an absent one is).
        {R"({"fen":"","limits":{"depth":1}})", 422, "invalid_fen"},
        {R"({"fen":" \t ","moves":["e2e4"],"limits":{"depth":1}})", 422, "invalid_fen"},
        {R"({"moves":["e2e5"]})", 422, "illegal_move"},
        {R"({"moves":["e4","e5","Qh5","Nc6","Bc4","Nf6","Qxf7#"]})", 422, "game_over"},
        {R"({"moves":["e4","e5","Qh5","Nc6","Bc4","Nf6","Qxf7#","a6"]})", 422, "illegal_move"},
        {R"({"moves":"e2e4 zz"})", 422, "illegal_move"},
        {R"({"moves":[1]})", 400, "bad_request"},
        {R"({"limits":{"depth":"deep"}})", 400, "bad_request"},
        {R"({"limits":{"depth":-3}})", 422, "invalid_value"},
        {R"({"limits":{"movetime":0}})", 422, "invalid_value"},
        {R"({"limits":{"plies":3}})", 400, "bad_request"},
        {R"({"limits":[3]})", 400, "bad_request"},
        {R"({"multipv":0})", 422, "invalid_value"},
        {R"({"options":{"nullMove":"no"}})", 400, "bad_request"},
        {R"({"options":{"noSuchTechnique":false}})", 400, "bad_request"},
        {R"({"searchmoves":["e2e5"]})", 422, "illegal_move"},
    };
    for (const Case& c : cases) {
        INFO(c.body);
        auto sink = post(c.body);
        REQUIRE(sink->status() == c.status);
        REQUIRE(sink->errorCode() == c.code);
        REQUIRE_FALSE(sink->json()["error"]["message"].get<std::string>().empty());
    }
    // The FEN parser's reason reaches the client.
    auto fen = post(R"({"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"})");
    REQUIRE(fen->status() == 422);
    REQUIRE(fen->json()["error"]["message"].get<std::string>().size() >
            std::string("invalid FEN: ").size());
    REQUIRE(f.control->started.load() == 0);  // nothing was searched
}

TEST_CASE("json: a key twice in one object is refused, the same key in two objects is not",
          "[server][handlers]") {
    std::string duplicate;
    for (const char* fine : {R"([{"a":1},{"a":2}])", R"({"a":{"b":1},"c":{"b":2}})",
                             R"({"a":1,"b":{"a":2,"c":[{"a":3}]}})", R"({})", R"("a")"}) {
        INFO(fine);
        CHECK_FALSE(parseJsonText(fine, duplicate).is_discarded());
        CHECK(duplicate.empty());
    }
    CHECK(parseJsonText(R"({"a":1,"a":1})", duplicate).is_discarded());
    CHECK(duplicate == "a");
    CHECK(parseJsonText(R"({"x":[{"y":1,"z":{},"y":2}]})", duplicate).is_discarded());
    CHECK(duplicate == "y");
    CHECK(parseJsonText(R"({"a":)", duplicate).is_discarded());
    CHECK(duplicate.empty());  // not JSON at all
    auto refused = parseJsonObject(R"({"move":"e2e4","move":"d2d4"})");
    REQUIRE(std::holds_alternative<ApiError>(refused));
    CHECK(std::get<ApiError>(refused).code == "bad_json");
    CHECK(std::get<ApiError>(refused).message.find("'move' twice") != std::string::npos);
}

TEST_CASE("handlers: analysis answers with limits applied and clamped",
          "[server][handlers][analysis]") {
    ServerConfig config = testConfig();
    config.maxDepth = 5;
    config.maxMultiPv = 3;
    HandlerFixture f(config);
    auto sink = f.call(
        verb::post, "/api/v1/analysis",
        R"({"moves":["e4"],"limits":{"depth":99,"nodes":1000},"multipv":7,"options":{"nullMove":false}})");
    REQUIRE(sink->status() == 200);
    auto json = sink->json();
    REQUIRE(json["limitsApplied"]["depth"] == 5);
    REQUIRE(json["limitsApplied"]["nodes"] == 1000);
    REQUIRE(json["limitsApplied"]["clamped"] == true);
    REQUIRE(json["limitsApplied"]["multipv"] == 3);
    REQUIRE(json["depth"] == 5);
    REQUIRE(json["bestmove"].is_string());
    REQUIRE(json["san"].is_string());
    REQUIRE(json["pvSan"].size() == json["pv"].size());
    REQUIRE(json["lines"].size() >= 1);
    REQUIRE(json.contains("queueWaitMs"));
    REQUIRE(json.contains("searchMs"));
    REQUIRE(json["stats"].is_object());
    // Black to move: the fake's +10*depth for the side to move is -50 from White's view.
    REQUIRE(json["score"]["cp"] == -50);

    // Lines beyond --max-multipv are a clamp like any limit's, even with every limit inside
    // its cap.
    auto lines = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":2},"multipv":500})");
    REQUIRE(lines->status() == 200);
    REQUIRE(lines->json()["limitsApplied"]["multipv"] == 3);
    REQUIRE(lines->json()["limitsApplied"]["clamped"] == true);
    auto within = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":2},"multipv":3})");
    REQUIRE(within->status() == 200);
    REQUIRE(within->json()["limitsApplied"]["clamped"] == false);

    auto defaults = f.call(verb::post, "/api/v1/analysis", "{}");
    REQUIRE(defaults->status() == 200);
    REQUIRE(defaults->json()["limitsApplied"]["movetime"] == config.defaultMovetimeMs);
    REQUIRE(defaults->json()["limitsApplied"]["clamped"] == false);
    // --max-depth caps a search that asked for no depth too (the fake searches to its own
    // default depth unless told otherwise); limitsApplied shows only what was asked.
    f.control->defaultDepth = 12;
    auto timed = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"movetime":50}})");
    REQUIRE(timed->status() == 200);
    REQUIRE(timed->json()["depth"] == 5);
    REQUIRE_FALSE(timed->json()["limitsApplied"].contains("depth"));
}

TEST_CASE("handlers: NDJSON analysis streams info lines then bestmove",
          "[server][handlers][analysis]") {
    HandlerFixture f;
    auto sink = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":4},"multipv":2})",
                       {{"Accept", "application/x-ndjson"}});
    REQUIRE(sink->streaming());
    REQUIRE(std::string(sink->response()[http::field::content_type]) == "application/x-ndjson");
    auto lines = sink->lines();
    REQUIRE(lines.size() == 4 * 2 + 1);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        auto info = nlohmann::json::parse(lines[i]);
        REQUIRE(info["type"] == "info");
        REQUIRE(info.contains("pvSan"));
        REQUIRE(info.contains("multipv"));
    }
    auto last = nlohmann::json::parse(lines.back());
    REQUIRE(last["type"] == "bestmove");
    REQUIRE(last["depth"] == 4);
}

TEST_CASE("handlers: the NDJSON media type is asked for in any letter case",
          "[server][handlers][analysis]") {
    // Media types are case-insensitive (RFC 9110 8.3.1); this Accept got one JSON answer.
    HandlerFixture f;
    auto sink = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":2}})",
                       {{"Accept", "Application/X-NDJSON"}});
    REQUIRE(sink->streaming());
    CHECK(std::string(sink->response()[http::field::content_type]) == "application/x-ndjson");
    CHECK(nlohmann::json::parse(sink->lines().back())["type"] == "bestmove");
}

TEST_CASE("accept: the offered type the client ranks highest, none when it refuses them all",
          "[server][handlers]") {
    using Types = std::vector<std::string_view>;
    const Types json = {"application/json"};
    const Types answers = {"application/json", "application/x-ndjson"};
    auto pick = [](std::string_view accept, const Types& offered) {
        return negotiateMediaType(accept, offered).value_or("406");
    };
    CHECK(pick("", json) == "application/json");
    CHECK(pick("*/*", answers) == "application/json");  // the server's preference
    CHECK(pick("application/*", answers) == "application/json");
    CHECK(pick("application/json;q=0", json) == "406");
    CHECK(pick("application/json; q=0.000", json) == "406");
    CHECK(pick("text/html", json) == "406");
    CHECK(pick("*/*;q=0", json) == "406");
    CHECK(pick("text/html, */*;q=0.1", json) == "application/json");
    // The most specific range decides, whatever the order.
    CHECK(pick("application/json;q=0, */*", json) == "406");
    CHECK(pick("*/*, application/json;q=0", json) == "406");
    CHECK(pick("application/*;q=0, application/json", json) == "application/json");
    CHECK(pick("application/x-ndjson;q=0, application/json", answers) == "application/json");
    CHECK(pick("application/x-ndjson, application/json;q=0.9", answers) == "application/x-ndjson");
    CHECK(pick("application/json;q=0.5, application/x-ndjson", answers) == "application/x-ndjson");
    CHECK(pick("application/x-ndjson", answers) == "application/x-ndjson");
    CHECK(pick("Application/X-NDJSON", answers) == "application/x-ndjson");
    // Equal q: the type named outright before one a wildcard covers, then the client's order.
    CHECK(pick("application/x-ndjson, */*", answers) == "application/x-ndjson");
    CHECK(pick("application/x-ndjson, application/json", answers) == "application/x-ndjson");
    CHECK(pick("application/json, application/x-ndjson", answers) == "application/json");
    // Parameters other than q do not decide; q=1.000 is 1.
    CHECK(pick("application/json;charset=utf-8;q=1.000", json) == "application/json");
    // Elements that are not media ranges are skipped; with none left the header is ignored.
    CHECK(pick("json", json) == "application/json");
    CHECK(pick("text/html;q=2, application/json;q=0.3", json) == "application/json");
    CHECK(pick("text/html;q=2", json) == "application/json");
    CHECK(pick("*/json, text/html", json) == "406");
}

TEST_CASE("handlers: an Accept that refuses every type the route answers with is 406",
          "[server][handlers]") {
    // "Accept: application/json;q=0" on a JSON-only route got JSON, and
    // "application/x-ndjson;q=0, application/json" got the NDJSON stream it refused.
    HandlerFixture f;
    auto [id, token] = f.createGame({{"engine", {{"side", "none"}}}});
    const std::string game = "/api/v1/games/" + id;
    const auto version = f.call(verb::get, game)->json()["version"];
    struct Case {
        verb method;
        std::string target;
        std::string accept;
    };
    for (const Case& c : std::vector<Case>{
             {verb::get, "/api/v1/engine", "text/html"},
             {verb::get, game, "application/json;q=0, text/*"},
             {verb::get, game + "/pgn", "application/json"},
             {verb::get, game + "/stream", "application/json"},
             {verb::get, "/api/v1/openapi.yaml", "application/json"},
             {verb::post, "/api/v1/analysis", "application/json;q=0, application/x-ndjson;q=0"},
             {verb::post, game + "/moves", "text/plain"}}) {
        INFO(c.target << " Accept: " << c.accept);
        auto sink = f.call(c.method, c.target, R"({"move":"e2e4","limits":{"depth":1}})",
                           {{"Accept", c.accept}, {"Authorization", "Bearer " + token}});
        CHECK(sink->status() == 406);
        CHECK(sink->errorCode() == "not_acceptable");
        CHECK(std::string(sink->response()[http::field::content_type]) == "application/json");
    }
    CHECK(f.call(verb::get, game)->json()["version"] == version);  // the move was not played

    // What the routes answer with is taken, by its name, a wildcard or no Accept at all.
    CHECK(f.call(verb::get, game + "/pgn", "", {{"Accept", "application/x-chess-pgn"}})->status() ==
          200);
    CHECK(f.call(verb::get, "/metrics", "", {{"Accept", "text/plain;version=0.0.4"}})->status() ==
          200);
    // The probes and /metrics answer whatever Accept says (a monitor or scraper sends what it
    // sends; the topology test's helper asked /metrics for JSON).
    for (const std::string probe : {"/healthz", "/readyz", "/metrics"}) {
        INFO(probe);
        CHECK(f.call(verb::get, probe, "", {{"Accept", "application/json"}})->status() == 200);
        CHECK(f.call(verb::get, probe, "", {{"Accept", "text/html"}})->status() == 200);
    }
    CHECK(f.call(verb::get, "/api/v1/engine", "", {{"Accept", "text/html, */*;q=0.8"}})->status() ==
          200);
    auto json = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":2}})",
                       {{"Accept", "application/x-ndjson;q=0, application/json"}});
    CHECK(json->status() == 200);
    CHECK_FALSE(json->streaming());
    CHECK(json->json().contains("bestmove"));
    auto stream = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":2}})",
                         {{"Accept", "application/json;q=0.5, application/x-ndjson"}});
    CHECK(stream->streaming());
    auto wildcard =
        f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":2}})", {{"Accept", "*/*"}});
    CHECK_FALSE(wildcard->streaming());
}

TEST_CASE("handlers: a vanished client stops its search", "[server][handlers][analysis]") {
    HandlerFixture f;
    f.control->closeGate();
    auto sink = f.call(verb::post, "/api/v1/analysis", R"({"limits":{"depth":50}})", {}, false);
    REQUIRE(f.control->waitStarted(1));
    sink->disconnect();
    REQUIRE(f.context.pool->waitIdle(kWait));
    REQUIRE(f.control->finished.load() == 1);
}

TEST_CASE("handlers: games, tokens and bad moves", "[server][handlers][games]") {
    HandlerFixture f;
    auto created = f.call(verb::post, "/api/v1/games", "{}");
    REQUIRE(created->status() == 201);
    auto game = created->json();
    const std::string id = game["id"];
    const std::string token = game["playerToken"];
    const std::string blackToken = game["inviteToken"];  // people on both sides: one token each
    REQUIRE(id.size() >= 20);
    REQUIRE(token.size() >= 30);
    REQUIRE(game["fen"] == kStartFen);
    REQUIRE(game["turn"] == "white");
    REQUIRE(game["status"] == "ongoing");
    REQUIRE(game["result"] == "*");
    REQUIRE(game["legalMoves"].size() == 20);
    REQUIRE(game["version"] == 1);
    REQUIRE(game["engine"]["side"] == "none");
    REQUIRE(std::string(created->response()[http::field::location]) == "/api/v1/games/" + id);

    auto read = f.call(verb::get, "/api/v1/games/" + id);
    REQUIRE(read->status() == 200);
    REQUIRE_FALSE(read->json().contains("playerToken"));
    REQUIRE(f.call(verb::get, "/api/v1/games/nope")->status() == 404);

    const std::string moves = "/api/v1/games/" + id + "/moves";
    auto noToken = f.call(verb::post, moves, R"({"move":"e2e4"})");
    REQUIRE(noToken->status() == 401);
    REQUIRE(noToken->errorCode() == "unauthorized");
    auto badToken = f.call(verb::post, moves, R"({"move":"e2e4"})", bearer("wrong"));
    REQUIRE(badToken->status() == 403);
    REQUIRE(badToken->errorCode() == "forbidden");
    REQUIRE(f.call(verb::post, moves, R"({"move":"e2e5"})", bearer(token))->errorCode() ==
            "illegal_move");
    REQUIRE(f.call(verb::post, moves, R"({"move":"Nd4"})", bearer(token))->status() == 422);
    // A huge move is named in the error, not echoed back whole.
    auto huge = f.call(verb::post, moves, nlohmann::json{{"move", std::string(5000, 'a')}}.dump(),
                       bearer(token));
    REQUIRE(huge->status() == 422);
    const std::string hugeMessage = huge->json()["error"]["message"];
    REQUIRE(hugeMessage.size() < 200);
    REQUIRE(hugeMessage.find("aaa...'") != std::string::npos);
    // So is any other piece of input a message names: an id, a field, a query parameter, an
    // option, a route.
    const std::string longName(5000, 'z');
    for (const auto& [method, target, body] :
         std::vector<std::tuple<verb, std::string, std::string>>{
             {verb::get, "/api/v1/games/" + longName, ""},
             {verb::get, "/api/v1/seeks/" + longName, ""},
             {verb::get, "/api/v1/reviews/" + longName, ""},
             {verb::get, "/api/v1/" + longName, ""},
             {verb::get, "/api/v1/games?" + longName + "=1", ""},
             {verb::post, moves, nlohmann::json{{longName, "e4"}}.dump()},
             {verb::post, "/api/v1/analysis", nlohmann::json{{longName, 1}}.dump()},
             {verb::post, "/api/v1/analysis",
              nlohmann::json{{"options", {{longName, false}}}}.dump()},
         }) {
        auto answer = f.call(method, target, body, bearer(token));
        CHECK(answer->status() >= 400);
        const std::string message = answer->json()["error"]["message"];
        CHECK(message.size() < 200);
        CHECK(message.find("zzz...'") != std::string::npos);
    }
    REQUIRE(f.call(verb::post, moves, R"({"move":42})", bearer(token))->status() == 400);
    REQUIRE(f.call(verb::post, moves, R"({"mvoe":"e2e4"})", bearer(token))->status() == 400);
    REQUIRE(f.call(verb::post, moves, "{oops", bearer(token))->errorCode() == "bad_json");
    REQUIRE(f.call(verb::get, "/api/v1/games/" + id)->json()["version"] == 1);  // unchanged

    // The scheme's name is case-insensitive (RFC 9110): "bearer" is a bearer token too.
    auto e4 = f.call(verb::post, moves, R"({"move":"e4","version":1})",
                     {{"Authorization", "bearer " + token}});
    REQUIRE(e4->status() == 200);
    REQUIRE(e4->json()["moves"] == nlohmann::json{"e2e4"});
    REQUIRE(e4->json()["san"] == nlohmann::json{"e4"});
    REQUIRE(e4->json()["version"] == 2);
    REQUIRE(e4->json()["turn"] == "black");
    auto stale = f.call(verb::post, moves, R"({"move":"e7e5","version":1})", bearer(blackToken));
    REQUIRE(stale->status() == 409);
    REQUIRE(stale->errorCode() == "version_conflict");

    // Fool's mate... of White: f3 e5 g4 Qh4#.
    auto g2 = f.createGame();
    const std::string g2Black = f.lastInviteToken;
    const std::string m2 = "/api/v1/games/" + g2.first + "/moves";
    bool white = true;
    for (const char* move : {"f3", "e5", "g4", "Qh4#"}) {
        REQUIRE(f.call(verb::post, m2, nlohmann::json{{"move", move}}.dump(),
                       bearer(white ? g2.second : g2Black))
                    ->status() == 200);
        white = !white;
    }
    auto over = f.call(verb::get, "/api/v1/games/" + g2.first)->json();
    REQUIRE(over["status"] == "checkmate");
    REQUIRE(over["result"] == "0-1");
    REQUIRE(over["winner"] == "black");
    REQUIRE(over["check"] == true);
    REQUIRE(over["legalMoves"].empty());
    auto late = f.call(verb::post, m2, R"({"move":"a3"})", bearer(g2.second));
    REQUIRE(late->status() == 409);
    REQUIRE(late->errorCode() == "game_over");

    auto pgn = f.call(verb::get, "/api/v1/games/" + g2.first + "/pgn");
    REQUIRE(pgn->status() == 200);
    REQUIRE(std::string(pgn->response()[http::field::content_type]) == "application/x-chess-pgn");
    REQUIRE(pgn->response().body().find("1. f3 e5 2. g4 Qh4# 0-1") != std::string::npos);
    REQUIRE(pgn->response().body().find("[Result \"0-1\"]") != std::string::npos);
}

TEST_CASE("handlers: game creation input errors", "[server][handlers][games]") {
    HandlerFixture f;
    struct Case {
        std::string body;
        unsigned status;
        std::string code;
    };
    const std::vector<Case> cases = {
        {"[]", 400, "bad_request"},
        {"{", 400, "bad_json"},
        {R"({"fen":"nonsense"})", 422, "invalid_fen"},
        // An empty FEN was the start position; only an absent (or null) one is.
        {R"({"fen":""})", 422, "invalid_fen"},
        {R"({"fen":"  ","moves":["e2e4"]})", 422, "invalid_fen"},
        {R"({"moves":[""]})", 422, "illegal_move"},
        {R"({"moves":["e2e4","e2e4"]})", 422, "illegal_move"},
        {R"({"engine":{"side":"red"}})", 422, "invalid_value"},
        {R"({"engine":{"level":9}})", 422, "invalid_value"},
        {R"({"engine":{"level":"hard"}})", 400, "bad_request"},
        {R"({"engine":{"limits":{"depth":0}}})", 422, "invalid_value"},
        {R"({"engine":{"sde":"white"}})", 400, "bad_request"},
        {R"({"clock":{"initial":-5}})", 422, "invalid_value"},
        {R"({"clock":{"increment":5}})", 400, "bad_request"},
        {R"({"timeControl":"5+3"})", 400, "bad_request"},
        // A move after the rules ended the game (here by threefold repetition at move 8, and
        // with bare kings from the start) is refused, as it would be when played live.
        {R"({"moves":["Nf3","Nf6","Ng1","Ng8","Nf3","Nf6","Ng1","Ng8","e4"]})", 422, "game_over"},
        {R"({"fen":"4k3/8/8/8/8/8/8/4K3 w - - 0 1","moves":["Kd1"]})", 422, "game_over"},
    };
    for (const Case& c : cases) {
        INFO(c.body);
        auto sink = f.call(verb::post, "/api/v1/games", c.body);
        REQUIRE(sink->status() == c.status);
        REQUIRE(sink->errorCode() == c.code);
    }
    REQUIRE(f.context.store->count() == 0);
    auto emptyFen = f.call(verb::post, "/api/v1/games", R"({"fen":""})");
    CHECK(emptyFen->json()["error"]["message"].get<std::string>().find("empty") !=
          std::string::npos);
    CHECK(f.call(verb::post, "/api/v1/games", R"({"fen":null})")->status() == 201);
    CHECK(f.call(verb::post, "/api/v1/games", R"({"moves":["e2e4"]})")->status() == 201);
    CHECK(f.context.store->count() == 2);

    // The line that ends on the repetition itself makes a game that is over, as live play would.
    auto drawn = f.call(
        verb::post, "/api/v1/games",
        R"({"engine":{"side":"none"},"moves":["Nf3","Nf6","Ng1","Ng8","Nf3","Nf6","Ng1","Ng8"]})");
    REQUIRE(drawn->status() == 201);
    REQUIRE(drawn->json()["status"] == "draw");
    REQUIRE(drawn->json()["reason"] == "threefold_repetition");
}

TEST_CASE("handlers: engine replies, not your turn, takeback, resign",
          "[server][handlers][games]") {
    HandlerFixture f;
    auto [id, token] = f.createGame({{"engine", {{"side", "black"}, {"limits", {{"depth", 2}}}}}});
    const std::string base = "/api/v1/games/" + id;
    // "wait": the answer comes after the engine's reply, with it.
    auto reply =
        f.call(verb::post, base + "/moves", R"({"move":"d2d4","wait":true})", bearer(token));
    REQUIRE(reply->status() == 200);
    auto json = reply->json();
    REQUIRE(json["moves"].size() == 2);
    REQUIRE(json["engineThinking"] == false);
    REQUIRE(json["engineMove"]["move"] == json["moves"][1]);
    REQUIRE(json["engineMove"]["depth"] == 2);
    REQUIRE(json["engineMove"].contains("san"));
    REQUIRE(json["turn"] == "white");
    REQUIRE(json["version"] == 3);

    // Without "wait" the move is answered at once, while the engine thinks; meanwhile it is
    // not the player's turn.
    f.control->closeGate();
    auto pending = f.call(verb::post, base + "/moves", R"({"move":"c2c4"})", bearer(token));
    REQUIRE(pending->status() == 200);
    REQUIRE(pending->json()["moves"].size() == 3);
    REQUIRE(pending->json()["engineThinking"] == true);
    REQUIRE_FALSE(pending->json().contains("engineMove"));
    REQUIRE(f.control->waitStarted(2));
    auto early = f.call(verb::post, base + "/moves", R"({"move":"e2e4"})", bearer(token));
    REQUIRE(early->status() == 409);
    REQUIRE(early->errorCode() == "not_your_turn");
    f.control->openGate();
    const auto replied = std::chrono::steady_clock::now() + kWait;
    while (f.context.store->get(id).game->moves.size() < 4 &&
           std::chrono::steady_clock::now() < replied) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    REQUIRE(f.call(verb::get, base)->json()["moves"].size() == 4);

    // Takeback against the engine undoes the pair.
    auto back = f.call(verb::post, base + "/takeback", "", bearer(token));
    REQUIRE(back->status() == 200);
    REQUIRE(back->json()["moves"].size() == 2);
    REQUIRE(f.call(verb::post, base + "/takeback", "", {})->status() == 401);

    auto resign = f.call(verb::post, base + "/resign", "", bearer(token));
    REQUIRE(resign->status() == 200);
    REQUIRE(resign->json()["status"] == "resigned");
    REQUIRE(resign->json()["result"] == "0-1");
    REQUIRE(resign->json()["winner"] == "black");
    REQUIRE(f.call(verb::post, base + "/resign", "", bearer(token))->status() == 409);
    REQUIRE(f.call(verb::post, base + "/engine-move", "", bearer(token))->errorCode() ==
            "game_over");
    REQUIRE(f.call(verb::post, base + "/takeback", "", bearer(token))->status() == 409);

    // Without an engine a takeback needs the other side's consent (/takeback/yes, tests in
    // test_offers.cpp): this route refuses it.
    auto [id2, token2] = f.createGame();
    REQUIRE(
        f.call(verb::post, "/api/v1/games/" + id2 + "/moves", R"({"move":"e4"})", bearer(token2))
            ->status() == 200);
    auto alone = f.call(verb::post, "/api/v1/games/" + id2 + "/takeback", "", bearer(token2));
    REQUIRE(alone->status() == 409);
    REQUIRE(alone->errorCode() == "takeback_needs_consent");

    // engine-move with its own limits (Black's turn: Black's token).
    auto em = f.call(verb::post, "/api/v1/games/" + id2 + "/engine-move",
                     R"({"limits":{"depth":1}})", bearer(f.lastInviteToken));
    REQUIRE(em->status() == 200);
    REQUIRE(em->json()["engineMove"]["depth"] == 1);
    REQUIRE(em->json()["moves"].size() == 2);
}

TEST_CASE("handlers: the engine moves first when it has White", "[server][handlers][games]") {
    HandlerFixture f;
    auto [id, token] = f.createGame({{"engine", {{"side", "white"}, {"level", 1}}}});
    // The search ends on a searcher thread; its move is stored by the store executor after it.
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (f.context.store->get(id).game->moves.empty() &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    auto game = f.call(verb::get, "/api/v1/games/" + id)->json();
    REQUIRE(game["moves"].size() == 1);
    REQUIRE(game["turn"] == "black");
    REQUIRE(game["engine"]["level"] == 1);

    // The player has no move to take back: the engine's first move stays (it was undone, and
    // the engine played again: a new first move for the asking).
    auto back = f.call(verb::post, "/api/v1/games/" + id + "/takeback", "", bearer(token));
    REQUIRE(back->status() == 409);
    CHECK(back->errorCode() == "nothing_to_take_back");
    auto after = f.call(verb::get, "/api/v1/games/" + id)->json();
    CHECK(after["moves"] == game["moves"]);
    CHECK(after["version"] == game["version"]);
}

TEST_CASE("handlers: racing moves on one game, one wins, the other gets 409",
          "[server][handlers][games][concurrency]") {
    HandlerFixture f;
    for (int round = 0; round < 20; ++round) {
        auto [id, token] = f.createGame();
        std::shared_ptr<RecordingSink> a, b;
        std::thread ta([&, id = id, token = token] {
            a = f.call(verb::post, "/api/v1/games/" + id + "/moves",
                       R"({"move":"e2e4","version":1})", bearer(token));
        });
        std::thread tb([&, id = id, token = token] {
            b = f.call(verb::post, "/api/v1/games/" + id + "/moves",
                       R"({"move":"d2d4","version":1})", bearer(token));
        });
        ta.join();
        tb.join();
        const int ok = (a->status() == 200) + (b->status() == 200);
        const int conflicts = (a->status() == 409) + (b->status() == 409);
        REQUIRE(ok == 1);
        REQUIRE(conflicts == 1);
        auto game = f.call(verb::get, "/api/v1/games/" + id)->json();
        REQUIRE(game["moves"].size() == 1);
        REQUIRE(game["version"] == 2);
    }
}

TEST_CASE("handlers: server clocks, flag fall ends the game", "[server][handlers][games]") {
    HandlerFixture f;
    auto [id, token] = f.createGame({{"clock", {{"initial", 60}, {"increment", 0}}}});
    auto created = f.call(verb::get, "/api/v1/games/" + id)->json();
    REQUIRE(created["clock"]["white"] == 60);
    REQUIRE(created["clock"]["running"] == false);
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})", bearer(token))
                ->status() == 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    auto game = f.call(verb::get, "/api/v1/games/" + id)->json();
    REQUIRE(game["status"] == "timeout");
    REQUIRE(game["result"] == "1-0");
    REQUIRE(game["winner"] == "white");
    REQUIRE(game["clock"]["black"] == 0);
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e5"})", bearer(token))
                ->status() == 409);
}

TEST_CASE("handlers: game stream sends the game, then every change", "[server][handlers][games]") {
    HandlerFixture f;
    auto [id, token] = f.createGame();
    auto stream = f.call(verb::get, "/api/v1/games/" + id + "/stream", "", {}, false);
    REQUIRE(stream->wait(1));
    REQUIRE(stream->streaming());
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})", bearer(token))
                ->status() == 200);
    REQUIRE(stream->wait(2));
    auto lines = stream->lines();
    auto first = nlohmann::json::parse(lines[0]);
    auto second = nlohmann::json::parse(lines[1]);
    REQUIRE(first["type"] == "gameFull");
    REQUIRE(first["game"]["version"] == 1);
    REQUIRE(second["type"] == "gameState");
    REQUIRE(second["version"] == 2);
    REQUIRE(f.bus->active() == 1);
    stream->disconnect();  // the exchange ends: the stream unsubscribes
    REQUIRE(f.bus->active() == 0);
    REQUIRE(f.call(verb::get, "/api/v1/games/nope/stream")->status() == 404);
}

TEST_CASE("handlers: engine-move on the player's turn, then the engine replies for its side",
          "[server][handlers][games]") {
    HandlerFixture f;
    auto [id, token] = f.createGame({{"engine", {{"side", "black"}, {"limits", {{"depth", 1}}}}}});
    auto reply = f.call(verb::post, "/api/v1/games/" + id + "/engine-move", "", bearer(token));
    REQUIRE(reply->status() == 200);
    auto game = reply->json();
    REQUIRE(game["moves"].size() == 2);  // White's move for the player, then the engine's own
    REQUIRE(game["turn"] == "white");
    REQUIRE(game["version"] == 3);
}
