// The analysis cache (GET /api/v1/analysis): the position key, the slot rule, the LRU bound,
// and the route over handlers without sockets: miss, hit, a subset of lines, deeper replaces
// shallower, ETag and 304, metrics, bad queries. The Redis backend: tests/deploy.
#include <catch2/catch.hpp>

#include "analysis/analysis_cache.h"
#include "test_support.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

// Reports one line per MultiPV slot (the i-th legal move), all at the requested depth, so the
// cache sees real MultiPV results.
class LinesSearcher final : public Searcher {
  public:
    SearchResult run(const SearchRequest& request, const SearchCallbacks&) override {
        std::string error;
        bool badMove = false;
        auto state = ChessState::load(request.fen, request.moves, error, badMove);
        if (!state) throw std::invalid_argument(error);
        const auto legal = state->legalMoves();
        SearchResult result;
        const int depth = request.limits.depth.value_or(3);
        for (int line = 1; line <= request.multiPv && line <= static_cast<int>(legal.size());
             ++line) {
            SearchInfo info;
            info.depth = depth;
            info.multipv = line;
            info.score.value = 100 - line;
            info.nodes = 1000 * static_cast<std::uint64_t>(depth);
            info.pv = {legal[line - 1]};
            result.lines.push_back(info);
        }
        result.info = result.lines.front();
        result.bestmove = legal.front();
        return result;
    }
    void stop() override {}
};

ServerConfig cacheConfig(std::size_t entries = 100) {
    ServerConfig config = testConfig();
    config.analysisCacheMinDepth = 5;
    config.analysisCacheEntries = entries;
    return config;
}

struct CacheFixture {
    explicit CacheFixture(ServerConfig config = cacheConfig())
        : context(config, std::make_shared<MemoryGameStore>(), std::make_shared<MemoryEventBus>(),
                  std::make_unique<SearchPool>(
                      PoolOptions{2, config.queueSize, config.perClientSearches},
                      [] { return std::make_unique<LinesSearcher>(); }),
                  nullptr) {
        context.ready = true;
    }

    std::shared_ptr<RecordingSink> call(
        verb method, const std::string& target, const std::string& body = "",
        const std::vector<std::pair<std::string, std::string>>& headers = {}) {
        Request request{method, target, 11};
        request.body() = body;
        for (const auto& [name, value] : headers) request.set(name, value);
        request.prepare_payload();
        auto sink = std::make_shared<RecordingSink>();
        handleHttp(context, std::move(request), ClientInfo{"127.0.0.1"}, sink);
        REQUIRE(sink->wait());
        return sink;
    }

    // POSTs an analysis and waits until what it gave the cache is written.
    void analyse(const nlohmann::json& body,
                 const std::vector<std::pair<std::string, std::string>>& headers = {}) {
        auto sink = call(verb::post, "/api/v1/analysis", body.dump(), headers);
        REQUIRE(sink->status() == 200);
        settle();
    }
    void settle() {
        const auto deadline = std::chrono::steady_clock::now() + kWait;
        while (context.storeWork.pending() != 0 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        REQUIRE(context.storeWork.pending() == 0);
    }

    std::shared_ptr<RecordingSink> get(
        const std::string& query,
        const std::vector<std::pair<std::string, std::string>>& headers = {}) {
        return call(verb::get, "/api/v1/analysis?" + query, "", headers);
    }

    ServerContext context;
};

constexpr const char* kItalian =
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
constexpr const char* kItalianQuery =
    "fen=r1bqk1nr%2Fpppp1ppp%2F2n5%2F2b1p3%2F2B1P3%2F5N2%2FPPPP1PPP%2FRNBQK2R+w+KQkq+-+4+4";

std::string header(const std::shared_ptr<RecordingSink>& sink, http::field field) {
    return std::string(sink->response()[field]);
}

}  // namespace

TEST_CASE("analysis cache: the key ignores move counters and an en-passant square nobody can use",
          "[server][analysis-cache]") {
    const auto key = [](const std::string& fen) {
        std::string error;
        bool badMove = false;
        auto state = ChessState::load(fen, {}, error, badMove);
        REQUIRE(state);
        return analysisCacheKey(*state);
    };
    CHECK(key(kItalian) == "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -");
    CHECK(key("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 17") ==
          key(kItalian));
    // After 1. e4 no black pawn can take on e3.
    CHECK(key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") ==
          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
    // ... but after 1. e4 d5 2. e5 f5 the e5 pawn can take on f6.
    CHECK(key("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3") ==
          "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6");
    // Side to move and castling rights are part of the position.
    CHECK(key("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4") !=
          key(kItalian));
    CHECK(key("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w kq - 4 4") !=
          key(kItalian));
}

TEST_CASE("analysis cache: a slot is kept unless one with as many lines is as deep",
          "[server][analysis-cache]") {
    std::vector<AnalysisSlot> slots;
    CHECK(mergeAnalysisSlot(slots, {1, 10, "a"}));
    CHECK_FALSE(mergeAnalysisSlot(slots, {1, 9, "b"}));   // shallower: nothing changes
    CHECK_FALSE(mergeAnalysisSlot(slots, {1, 10, "c"}));  // as deep: nothing changes
    CHECK(mergeAnalysisSlot(slots, {1, 12, "d"}));        // deeper replaces
    REQUIRE(slots.size() == 1);
    CHECK(slots[0].doc == "d");
    CHECK(mergeAnalysisSlot(slots, {3, 8, "e"}));  // more lines, shallower: both kept
    CHECK(slots.size() == 2);
    CHECK(mergeAnalysisSlot(slots, {3, 14, "f"}));  // covers both
    REQUIRE(slots.size() == 1);
    CHECK(slots[0].doc == "f");
    CHECK_FALSE(mergeAnalysisSlot(slots, {2, 14, "g"}));  // covered by 3 lines at 14
}

TEST_CASE("analysis cache: the memory store evicts the least recently used position",
          "[server][analysis-cache]") {
    auto cache = makeMemoryAnalysisCache(2);
    REQUIRE(cache->put("a", {1, 10, "A"}) == StoreStatus::Ok);
    REQUIRE(cache->put("b", {1, 10, "B"}) == StoreStatus::Ok);
    REQUIRE(cache->get("a").status == StoreStatus::Ok);  // a is now more recent than b
    REQUIRE(cache->put("c", {1, 10, "C"}) == StoreStatus::Ok);
    CHECK(cache->size() == 2);
    CHECK(cache->get("b").status == StoreStatus::NotFound);
    CHECK(cache->get("a").slots.at(0).doc == "A");
    CHECK(cache->get("c").slots.at(0).doc == "C");
    // No capacity: nothing is kept.
    auto none = makeMemoryAnalysisCache(0);
    REQUIRE(none->put("a", {1, 10, "A"}) == StoreStatus::Ok);
    CHECK(none->get("a").status == StoreStatus::NotFound);
}

TEST_CASE("analysis cache: GET misses, then answers what a POST analysis left, with validators",
          "[server][analysis-cache]") {
    CacheFixture f;
    auto miss = f.get(kItalianQuery);
    REQUIRE(miss->status() == 404);
    CHECK(miss->errorCode() == "not_cached");

    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 6}}}, {"multipv", 2}});
    auto hit = f.get(kItalianQuery);
    REQUIRE(hit->status() == 200);
    const auto json = hit->json();
    CHECK(json["fen"] == "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -");
    CHECK(json["depth"] == 6);
    CHECK(json["nodes"] == 6000);
    CHECK(json["multipv"] == 1);
    REQUIRE(json["lines"].size() == 1);
    // The line has the shape of the POST result's lines.
    const auto& line = json["lines"][0];
    CHECK(line["multipv"] == 1);
    CHECK(line["depth"] == 6);
    CHECK(line["pv"].is_array());
    CHECK(line["pvSan"].is_array());
    CHECK(line["score"].is_object());

    // Two lines were searched: a request for two gets both, for three misses.
    auto two = f.get(std::string(kItalianQuery) + "&multipv=2");
    REQUIRE(two->status() == 200);
    CHECK(two->json()["lines"].size() == 2);
    CHECK(two->json()["lines"][1]["multipv"] == 2);
    CHECK(f.get(std::string(kItalianQuery) + "&multipv=3")->status() == 404);

    // Validators: an ETag of the body, public caching for a minute, 304 on a match.
    const std::string etag = header(hit, http::field::etag);
    REQUIRE(etag.size() > 2);
    CHECK(etag.front() == '"');
    CHECK(header(hit, http::field::cache_control) == "public, max-age=60");
    CHECK(header(two, http::field::etag) != etag);
    auto again = f.get(kItalianQuery, {{"If-None-Match", etag}});
    CHECK(again->status() == 304);
    CHECK(again->response().body().empty());
    CHECK(header(again, http::field::etag) == etag);
    CHECK(f.get(kItalianQuery, {{"If-None-Match", "\"other\""}})->status() == 200);

    // The same position with other move counters, and the FEN with spaces as %20.
    CHECK(
        f.get("fen=r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R%20w%20KQkq%20-%200%2030")
            ->status() == 200);

    // hits: the 200s and the 304; misses: the two 404s.
    const std::string metrics = f.call(verb::get, "/metrics")->response().body();
    CHECK(metrics.find("outpost_analysis_cache_hits_total 5") != std::string::npos);
    CHECK(metrics.find("outpost_analysis_cache_misses_total 2") != std::string::npos);
}

TEST_CASE("analysis cache: a deeper result replaces a shallower one, a shallower one does not",
          "[server][analysis-cache]") {
    CacheFixture f;
    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 6}}}, {"multipv", 2}});
    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 9}}}});
    CHECK(f.get(kItalianQuery)->json()["depth"] == 9);
    // The two-line analysis stays for two lines.
    CHECK(f.get(std::string(kItalianQuery) + "&multipv=2")->json()["depth"] == 6);
    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 7}}}});
    CHECK(f.get(kItalianQuery)->json()["depth"] == 9);
    // A deeper two-line analysis answers both.
    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 10}}}, {"multipv", 2}},
              {{"Accept", "application/x-ndjson"}});  // streamed results feed it too
    CHECK(f.get(kItalianQuery)->json()["depth"] == 10);
    CHECK(f.get(std::string(kItalianQuery) + "&multipv=2")->json()["depth"] == 10);
}

TEST_CASE("analysis cache: only full-strength searches at the minimum depth feed it",
          "[server][analysis-cache]") {
    CacheFixture f;
    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 4}}}});  // below --analysis-cache-min-depth
    CHECK(f.get(kItalianQuery)->status() == 404);
    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 8}}}, {"searchmoves", {"d2d3"}}});
    CHECK(f.get(kItalianQuery)->status() == 404);
    f.analyse({{"fen", kItalian}, {"limits", {{"depth", 8}}}, {"options", {{"nullMove", false}}}});
    CHECK(f.get(kItalianQuery)->status() == 404);
    // The position reached by moves is the key: 1. e4 from the start.
    f.analyse({{"moves", {"e2e4"}}, {"limits", {{"depth", 8}}}});
    CHECK(f.get("fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR+b+KQkq+e3+0+1")->status() ==
          200);
}

TEST_CASE("analysis cache: the LRU bound holds over the route", "[server][analysis-cache]") {
    CacheFixture f(cacheConfig(2));
    const std::vector<std::string> fens = {
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1",
    };
    const auto query = [](const std::string& fen) {
        std::string encoded;
        for (char c : fen) encoded += c == ' ' ? std::string("+") : std::string(1, c);
        return "fen=" + encoded;
    };
    f.analyse({{"fen", fens[0]}, {"limits", {{"depth", 6}}}});
    f.analyse({{"fen", fens[1]}, {"limits", {{"depth", 6}}}});
    REQUIRE(f.get(query(fens[0]))->status() == 200);  // the first is used again
    f.analyse({{"fen", fens[2]}, {"limits", {{"depth", 6}}}});
    CHECK(f.context.analysisCache->size() == 2);
    CHECK(f.get(query(fens[1]))->status() == 404);
    CHECK(f.get(query(fens[0]))->status() == 200);
    CHECK(f.get(query(fens[2]))->status() == 200);
}

TEST_CASE("analysis cache: bad queries get an error with a code and change nothing",
          "[server][analysis-cache]") {
    CacheFixture f;
    const auto code = [&](const std::string& target) {
        auto sink = f.call(verb::get, target);
        return std::to_string(sink->status()) + " " + sink->errorCode();
    };
    CHECK(code("/api/v1/analysis") == "400 bad_request");
    CHECK(code("/api/v1/analysis?fen=") == "400 bad_request");
    CHECK(code("/api/v1/analysis?fen=nonsense") == "422 invalid_fen");
    CHECK(code(std::string("/api/v1/analysis?") + kItalianQuery + "&multipv=0") ==
          "422 invalid_value");
    CHECK(code(std::string("/api/v1/analysis?") + kItalianQuery + "&multipv=-2") ==
          "422 invalid_value");
    CHECK(code(std::string("/api/v1/analysis?") + kItalianQuery + "&multipv=two") ==
          "400 bad_request");
    CHECK(code(std::string("/api/v1/analysis?") + kItalianQuery + "&depth=20") ==
          "400 bad_request");
    CHECK(code(std::string("/api/v1/analysis?") + kItalianQuery + "&" + kItalianQuery) ==
          "400 bad_request");
    CHECK(code("/api/v1/analysis?fen=%zz") == "400 bad_request");
    auto put = f.call(verb::put, "/api/v1/analysis");
    CHECK(put->status() == 405);
    CHECK(header(put, http::field::allow) == "GET, POST");
    CHECK(f.context.analysisCache->size() == 0);
}
