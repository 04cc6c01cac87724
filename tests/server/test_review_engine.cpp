// Reviews with the real engine (built only when the Engine implementation is in the tree):
// the same game reviewed twice at the same node or depth budget gives the same review, whatever
// other searches ran in between (docs/review.md, "Determinism"). Small budgets, so the suite
// stays fast also under TSan.
#include <catch2/catch.hpp>
#include <future>
#include <thread>

#include "search/engine_searcher.h"
#include "search/search_pool.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::testing;
using bhttp::verb;

namespace {

struct ReviewEngineServer {
    ReviewEngineServer() {
        ServerParts parts;
        parts.searchers = makeEngineSearcherFactory(1);
        server = std::make_unique<Server>(testConfig(), std::move(parts));
        server->start();
    }
    ~ReviewEngineServer() {
        server->shutdown();
        server->wait();
    }
    std::unique_ptr<Server> server;
};

SearchResult searchOn(SearchPool& pool, const SearchRequest& request, JobPriority priority) {
    std::promise<JobOutcome> done;
    JobCallbacks callbacks;
    callbacks.onDone = [&done](const JobOutcome& outcome) { done.set_value(outcome); };
    REQUIRE(pool.submit("client", request, callbacks, priority).admission == Admission::Accepted);
    JobOutcome outcome = done.get_future().get();
    REQUIRE(outcome.error.empty());
    return outcome.result;
}

// Polls a review until it is no longer running.
nlohmann::json finished(HttpClient& client, const std::string& id) {
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

nlohmann::json reviewPgn(HttpClient& client, const std::string& pgn, const nlohmann::json& limits) {
    auto started = client.request(verb::post, "/api/v1/review",
                                  nlohmann::json{{"pgn", pgn}, {"limits", limits}}.dump());
    REQUIRE((started.status == 202 || started.status == 200));  // 200: done already
    nlohmann::json review = finished(client, started.json()["id"]);
    REQUIRE(review["status"] == "done");
    // A position cut by the time cap would depend on the machine's load.
    REQUIRE_FALSE(review.contains("timeCapped"));
    return review;
}

// What must not change between two reviews of the same moves: each move's scores, class,
// accuracy and better move, and the summary.
nlohmann::json verdicts(const nlohmann::json& review) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& ply : review["plies"]) {
        out.push_back({ply["before"], ply["after"], ply["class"], ply["accuracy"],
                       ply.contains("best") ? ply["best"]["move"] : nlohmann::json()});
    }
    return {{"plies", out}, {"summary", review["summary"]}};
}

constexpr const char* kMiddlegame =
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";

}  // namespace

TEST_CASE("engine pool: a review position is searched fresh, whatever ran before",
          "[server][engine][review]") {
    PoolOptions options;
    options.threads = 1;
    SearchPool pool(options, makeEngineSearcherFactory(1));
    SearchRequest position;
    position.fen = kMiddlegame;
    position.limits.nodes = 20'000;
    const SearchResult first = searchOn(pool, position, JobPriority::Review);
    // An analysis of the same position, deeper, fills the shared table with it.
    SearchRequest deeper = position;
    deeper.limits = {};
    deeper.limits.nodes = 200'000;
    searchOn(pool, deeper, JobPriority::Analysis);
    const SearchResult second = searchOn(pool, position, JobPriority::Review);
    CHECK(second.bestmove == first.bestmove);
    CHECK(second.info.pv == first.info.pv);
    CHECK(second.info.score.value == first.info.score.value);
    CHECK(second.info.depth == first.info.depth);
    CHECK(second.info.nodes == first.info.nodes);
}

TEST_CASE("engine server: the same game reviewed twice at the same budget gives the same review",
          "[server][engine][review]") {
    ReviewEngineServer live;
    HttpClient client(live.server->port());
    const std::string pgn =
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1";
    for (const nlohmann::json& limits :
         {nlohmann::json{{"nodes", 8000}}, nlohmann::json{{"depth", 5}}}) {
        INFO(limits.dump());
        const nlohmann::json first = reviewPgn(client, pgn, limits);
        // Other traffic between the two: analyses of positions of the same game.
        const std::vector<std::string> game = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4",
                                               "c6d4", "f3e5", "d8g5", "e5f7"};
        for (std::size_t plies : {5, 9}) {
            const std::vector<std::string> moves(game.begin(), game.begin() + plies);
            auto analysed = client.request(
                verb::post, "/api/v1/analysis",
                nlohmann::json{{"moves", moves}, {"limits", {{"nodes", 100000}}}}.dump());
            REQUIRE(analysed.status == 200);
        }
        const nlohmann::json second = reviewPgn(client, pgn, limits);
        REQUIRE(first["plies"].size() == 14);
        CHECK(verdicts(second) == verdicts(first));
    }
}

TEST_CASE("engine server: hanging the queen in a lost position is left unmarked",
          "[server][engine][review]") {
    ReviewEngineServer live;
    HttpClient client(live.server->port());
    // White is two rooks and two minor pieces down and puts the queen where the bishop takes it:
    // lost before, lost after (both beyond the 1000 cp cap), so Lichess marks nothing.
    auto started = client.request(
        verb::post, "/api/v1/review",
        R"({"fen":"rn1qk2r/pppb1ppp/8/8/8/8/PPP2PPP/3QK3 w kq - 0 1","moves":["d1g4"],)"
        R"("limits":{"nodes":20000}})");
    REQUIRE((started.status == 202 || started.status == 200));  // 200: done already
    const nlohmann::json review = finished(client, started.json()["id"]);
    REQUIRE(review["status"] == "done");
    const auto& hung = review["plies"][0];
    INFO(hung.dump());
    REQUIRE(hung["before"]["cp"].get<int>() < -1000);
    if (hung["after"].contains("cp")) {
        CHECK(hung["class"] == "good");
    } else {
        // The engine saw a mate against White: from beyond -9.99 that is an inaccuracy.
        CHECK(hung["walkedIntoMate"] == true);
        CHECK(hung["class"] == "inaccuracy");
    }
    CHECK(review["summary"]["white"]["mistakes"] == 0);
    CHECK(review["summary"]["white"]["blunders"] == 0);
}
