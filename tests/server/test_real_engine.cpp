// The server with the real engine (built only when the Engine implementation is in the tree):
// tiny searches, so the suite stays fast also under TSan.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "search/engine_searcher.h"
#include "search/levels.h"
#include "search/search_pool.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::testing;
using bhttp::verb;

namespace {
// A folder of its own under the system's temporary folder, removed at the end.
struct TempFolder {
    TempFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "outpost-pgn-XXXXXX");
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        path = pattern;
    }
    ~TempFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    std::string path;
};

struct EngineServer {
    explicit EngineServer(ServerConfig config = testConfig()) {
        ServerParts parts;
        parts.searchers = makeEngineSearcherFactory(1);
        server = std::make_unique<Server>(std::move(config), std::move(parts));
        server->start();
    }
    ~EngineServer() {
        server->shutdown();
        server->wait();
    }
    std::unique_ptr<Server> server;
};

// One search through a pool of real engines, waited for.
SearchResult searchOnPool(SearchPool& pool, const SearchRequest& request,
                          JobPriority priority = JobPriority::Analysis) {
    std::promise<JobOutcome> done;
    JobCallbacks callbacks;
    callbacks.onDone = [&done](const JobOutcome& outcome) { done.set_value(outcome); };
    REQUIRE(pool.submit("client", request, callbacks, priority).admission == Admission::Accepted);
    JobOutcome outcome = done.get_future().get();
    REQUIRE(outcome.error.empty());
    return outcome.result;
}

constexpr const char* kIsolationFen =
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

SearchRequest analysisAt(int depth) {
    SearchRequest request;
    request.fen = kIsolationFen;
    request.limits.depth = depth;
    return request;
}

// Requests with options that change scores, a level game, and another position: what other
// users of the pool might send before someone's analysis.
void otherUsersTraffic(SearchPool& pool) {
    SearchConfig sided;
    sided.aggressiveFutility = true;
    sided.twoSidedQuiescence = true;
    SearchConfig network;
    network.network = !network.network;  // the evaluation that is not the default
    SearchConfig noPruning;
    noPruning.nullMove = false;
    noPruning.lateMoveReductions = false;
    for (const SearchConfig& config : {sided, network, noPruning}) {
        SearchRequest request = analysisAt(6);
        request.config = config;
        searchOnPool(pool, request);
    }
    SearchRequest level = analysisAt(0);
    level.limits = {};
    level.limits.depth = 4;
    level.level = 3;
    level.game = "someone-else";
    level.seed = outpost::search::levelSeed(level.game, 0);
    searchOnPool(pool, level, JobPriority::Game);
}
}  // namespace

TEST_CASE("engine pool: which table a request uses", "[server][engine][isolation]") {
    const SearchConfig pool;
    SearchRequest request;
    REQUIRE(usesSharedTable(request, pool));
    request.config = SearchConfig{};
    REQUIRE(usesSharedTable(request, pool));  // the defaults, spelled out
    request.config->network = !pool.network;  // the other evaluation
    REQUIRE_FALSE(usesSharedTable(request, pool));
    request.config = SearchConfig{};
    request.config->killers = false;  // ordering changes the pruned tree, so the bounds stored
    REQUIRE_FALSE(usesSharedTable(request, pool));
    request.config.reset();
    request.level = 3;  // a level's choice must not depend on other traffic
    REQUIRE_FALSE(usesSharedTable(request, pool));
    request.level = outpost::search::kMaxLevel;  // full strength: no random choice
    REQUIRE(usesSharedTable(request, pool));
}

TEST_CASE(
    "engine pool: a default analysis gives the same result whether or not searches with "
    "other options ran before it",
    "[server][engine][isolation]") {
    PoolOptions options;
    options.threads = 1;
    const SearchRequest analysis = analysisAt(6);

    SearchPool quiet(options, makeEngineSearcherFactory(1));
    const SearchResult alone = searchOnPool(quiet, analysis);

    SearchPool busy(options, makeEngineSearcherFactory(1));
    otherUsersTraffic(busy);
    const SearchResult afterOthers = searchOnPool(busy, analysis);

    REQUIRE(afterOthers.bestmove == alone.bestmove);
    REQUIRE(afterOthers.info.pv == alone.info.pv);
    REQUIRE(afterOthers.info.score.value == alone.info.score.value);
    REQUIRE(afterOthers.info.nodes == alone.info.nodes);
}

TEST_CASE("engine pool: a searcher with options searches as if the pool were new",
          "[server][engine][isolation]") {
    PoolOptions options;
    options.threads = 1;
    SearchRequest request = analysisAt(6);
    SearchConfig config;
    config.twoSidedQuiescence = true;
    request.config = config;

    SearchPool quiet(options, makeEngineSearcherFactory(1));
    const SearchResult alone = searchOnPool(quiet, request);
    SearchPool busy(options, makeEngineSearcherFactory(1));
    searchOnPool(busy, analysisAt(7));  // fills the shared table
    otherUsersTraffic(busy);
    const SearchResult afterOthers = searchOnPool(busy, request);
    REQUIRE(afterOthers.bestmove == alone.bestmove);
    REQUIRE(afterOthers.info.nodes == alone.info.nodes);
}

TEST_CASE("engine pool: the same game and position give the same level move",
          "[server][engine][isolation]") {
    PoolOptions options;
    options.threads = 1;
    SearchRequest move;
    move.moves = {"e2e4", "e7e5"};
    move.limits.depth = 3;
    move.level = 1;
    move.game = "g-123";
    move.seed = outpost::search::levelSeed(move.game, move.moves.size());

    SearchPool quiet(options, makeEngineSearcherFactory(1));
    const std::string first = searchOnPool(quiet, move, JobPriority::Game).bestmove;
    SearchPool busy(options, makeEngineSearcherFactory(1));
    otherUsersTraffic(busy);
    for (int i = 0; i < 3; ++i) {
        SearchRequest other = move;
        other.game = std::to_string(i);
        other.seed = outpost::search::levelSeed(other.game, other.moves.size());
        searchOnPool(busy, other, JobPriority::Game);
    }
    REQUIRE(searchOnPool(busy, move, JobPriority::Game).bestmove == first);
}

TEST_CASE("engine server: analysis with the real engine, JSON and NDJSON", "[server][engine]") {
    EngineServer live;
    HttpClient client(live.server->port());
    auto result =
        client.request(verb::post, "/api/v1/analysis",
                       R"({"fen":"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1","limits":{"depth":3}})");
    REQUIRE(result.status == 200);
    auto json = result.json();
    REQUIRE(json["bestmove"] == "a1a8");  // back-rank mate
    REQUIRE(json["san"] == "Ra8#");
    REQUIRE(json["score"]["mate"] == 1);
    REQUIRE(json["pvSan"][0] == "Ra8#");

    auto multi =
        client.request(verb::post, "/api/v1/analysis",
                       R"({"limits":{"depth":2},"multipv":3,"options":{"nullMove":false}})");
    REQUIRE(multi.status == 200);
    REQUIRE(multi.json()["lines"].size() == 3);
    // The technique counters come with the result: null move was switched off for this search.
    REQUIRE(multi.json()["stats"]["nodes"].get<std::uint64_t>() > 0);
    REQUIRE(multi.json()["stats"]["nullMoveTries"] == 0);

    client.send(verb::post, "/api/v1/analysis", R"({"moves":["e4"],"limits":{"depth":4}})",
                {{"Accept", "application/x-ndjson"}});
    client.readStreamHeader();
    std::vector<nlohmann::json> lines;
    while (auto line = client.readLine()) lines.push_back(nlohmann::json::parse(*line));
    REQUIRE(lines.size() >= 2);
    REQUIRE(lines.front()["type"] == "info");
    REQUIRE(lines.back()["type"] == "bestmove");
    REQUIRE(lines.back()["depth"] == 4);
}

TEST_CASE("engine server: WebSocket stop ends a long search promptly",
          "[server][engine][websocket]") {
    EngineServer live;
    WsClient ws(live.server->port());
    ws.send({{"type", "analyse"}, {"id", 1}, {"limits", {{"movetime", 20000}}}});
    REQUIRE(ws.read()["type"] == "info");
    const auto stopAt = std::chrono::steady_clock::now();
    ws.send({{"type", "stop"}, {"id", 1}});
    auto best = ws.readType("bestmove");
    const auto took = std::chrono::steady_clock::now() - stopAt;
    REQUIRE(best["stopped"] == true);
    REQUIRE(best["bestmove"].is_string());
    REQUIRE(took < std::chrono::seconds(2));
}

TEST_CASE("engine server: playing against the engine", "[server][engine]") {
    EngineServer live;
    HttpClient client(live.server->port());
    auto created = client.request(verb::post, "/api/v1/games",
                                  R"({"engine":{"side":"black","level":2,"limits":{"depth":2}}})");
    REQUIRE(created.status == 201);
    const std::string id = created.json()["id"];
    const std::string token = created.json()["playerToken"];
    auto reply =
        client.request(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4","wait":true})",
                       {{"Authorization", "Bearer " + token}});
    REQUIRE(reply.status == 200);
    auto game = reply.json();
    REQUIRE(game["moves"].size() == 2);
    REQUIRE(game["engineMove"]["move"] == game["moves"][1]);
    REQUIRE(game["turn"] == "white");
}

// Issue 16, item 2: a depth or node limit used to pin a searcher with no deadline.
TEST_CASE("engine server: every search ends at the time cap, whatever its depth or node limit",
          "[server][engine]") {
    ServerConfig config = testConfig();
    config.maxMovetimeMs = 300;
    EngineServer live(config);
    HttpClient client(live.server->port());
    for (const char* limits : {R"({"depth":64})", R"({"nodes":1000000000})"}) {
        INFO(limits);
        const auto started = std::chrono::steady_clock::now();
        auto result = client.request(verb::post, "/api/v1/analysis",
                                     std::string(R"({"limits":)") + limits + "}");
        const auto took = std::chrono::steady_clock::now() - started;
        REQUIRE(result.status == 200);
        REQUIRE(result.json()["limitsApplied"]["timeCapMs"] == 300);
        REQUIRE(result.json()["bestmove"].is_string());
        REQUIRE(took < std::chrono::seconds(10));  // hours without the cap
    }

    // A game's stored engine limits apply on every engine move: capped too.
    auto created = client.request(verb::post, "/api/v1/games",
                                  R"({"engine":{"side":"black","limits":{"depth":64}}})");
    REQUIRE(created.status == 201);
    const std::string id = created.json()["id"];
    const std::string token = created.json()["playerToken"];
    const auto started = std::chrono::steady_clock::now();
    auto reply =
        client.request(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4","wait":true})",
                       {{"Authorization", "Bearer " + token}});
    REQUIRE(reply.status == 200);
    REQUIRE(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    REQUIRE(reply.json()["engineMove"]["limitsApplied"]["timeCapMs"] == 300);
}

namespace {

// Polls a review until it is no longer running (or kWait passes).
nlohmann::json finishedReview(HttpClient& client, const std::string& id) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    for (;;) {
        auto review = client.request(verb::get, "/api/v1/reviews/" + id).json();
        if (review.value("status", "") != "running" ||
            std::chrono::steady_clock::now() > deadline) {
            return review;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

// pgn-extract's path (Debian installs it in /usr/games), or empty.
std::string findPgnExtract() {
    for (const char* path :
         {"/usr/games/pgn-extract", "/usr/bin/pgn-extract", "/usr/local/bin/pgn-extract"}) {
        if (::access(path, X_OK) == 0) return path;
    }
    return "";
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("engine server: a review finds the move into mate and the missed mate",
          "[server][engine][review]") {
    EngineServer live;
    HttpClient client(live.server->port());
    // Fool's mate: 2. g4 walks into Qh4#.
    auto started = client.request(verb::post, "/api/v1/review",
                                  R"({"pgn":"1. f3 e5 2. g4 Qh4# 0-1","limits":{"depth":5}})");
    REQUIRE((started.status == 202 || started.status == 200));  // 200: done already
    nlohmann::json review = finishedReview(client, started.json()["id"]);
    REQUIRE(review["status"] == "done");
    REQUIRE(review["plies"].size() == 4);
    const auto& g4 = review["plies"][2];
    CHECK(g4["san"] == "g4");
    CHECK(g4["class"] == "blunder");
    CHECK(g4["walkedIntoMate"] == true);
    CHECK(g4["after"]["mate"] == -1);
    CHECK(g4["best"]["move"] != "g2g4");
    const auto& mate = review["plies"][3];
    CHECK(mate["san"] == "Qh4#");
    CHECK(mate["class"] == "best");
    CHECK(mate["after"]["mate"] == 0);
    CHECK(review["summary"]["white"]["blunders"] >= 1);
    CHECK(review["summary"]["black"]["blunders"] == 0);
    CHECK(review["summary"]["white"]["accuracy"] < review["summary"]["black"]["accuracy"]);

    // White has Ra8# and plays h3, leaving the rook to the bishop: a missed mate in one. (A
    // missed mate that still leaves a decided position is only an inaccuracy, as on Lichess, and
    // how decided a rook up is depends on the net: the move must leave the game undecided.)
    started = client.request(
        verb::post, "/api/v1/review",
        R"({"fen":"6k1/5ppp/8/8/8/8/1b3PPP/R5K1 w - - 0 1","moves":["h2h3"],"limits":{"depth":4}})");
    REQUIRE((started.status == 202 || started.status == 200));  // 200: done already
    review = finishedReview(client, started.json()["id"]);
    REQUIRE(review["status"] == "done");
    const auto& missed = review["plies"][0];
    CHECK(missed["missedMate"] == true);
    CHECK(missed["before"]["mate"] == 1);
    CHECK((missed["class"] == "mistake" || missed["class"] == "blunder"));
    CHECK(missed["best"]["move"] == "a1a8");
    CHECK(missed["best"]["san"] == "Ra8#");
}

TEST_CASE("engine server: pgn-extract reads the annotated PGN export",
          "[.][server][engine][review][pgn-extract]") {
    const std::string pgnExtract = findPgnExtract();
    if (pgnExtract.empty()) {
        WARN("pgn-extract is not installed; annotated PGN check skipped");
        return;
    }
    EngineServer live;
    HttpClient client(live.server->port());
    auto created = client.request(verb::post, "/api/v1/games", "{}").json();
    const std::string id = created["id"];
    const std::string tokens[] = {created["playerToken"], created["inviteToken"]};
    int side = 0;
    for (const char* move : {"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}) {
        auto moved = client.request(verb::post, "/api/v1/games/" + id + "/moves",
                                    nlohmann::json{{"move", move}}.dump(),
                                    {{"Authorization", "Bearer " + tokens[side]}});
        REQUIRE(moved.status == 200);
        side = 1 - side;
    }
    auto started =
        client.request(verb::post, "/api/v1/games/" + id + "/review", R"({"limits":{"depth":5}})");
    REQUIRE((started.status == 202 || started.status == 200));  // 200: done already
    const auto reviewed = finishedReview(client, started.json()["id"]);
    REQUIRE(reviewed["status"] == "done");
    const std::string pgn = client.request(verb::get, "/api/v1/games/" + id + "/pgn?review=1").body;
    // (Failed once in a TSan CI run, 29 November, without saying what the review held; 1 run in
    // 10 under load at the time, none in 40 since: a failure now prints the review and the PGN.)
    INFO("review: " << reviewed.dump() << "\nPGN:\n" << pgn);
    // 3... Nf6?? allows mate: a blunder with the better move as a variation.
    REQUIRE(pgn.find("$4") != std::string::npos);
    REQUIRE(pgn.find("[%eval #1]") != std::string::npos);

    TempFolder folder;
    const std::string in = folder.path + "/review.pgn";
    const std::string out = folder.path + "/checked.pgn";
    const std::string log = folder.path + "/pgn-extract.log";
    std::ofstream(in) << pgn;
    const std::string command = pgnExtract + " -s -o " + out + " " + in + " > " + log + " 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    const std::string checked = readFile(out);
    const std::string report = readFile(log);
    INFO(pgn << "\npgn-extract said:\n" << report);
    // Silent (-s) unless something in the game cannot be read.
    CHECK(report.find("Failed") == std::string::npos);
    CHECK(report.find("rror") == std::string::npos);
    // pgn-extract kept the annotations: it parsed them as comments, NAGs and variations.
    CHECK(checked.find("[%eval") != std::string::npos);
    CHECK(checked.find("$4") != std::string::npos);
    CHECK(checked.find("(") != std::string::npos);
    CHECK(checked.find("Qxf7#") != std::string::npos);
}
