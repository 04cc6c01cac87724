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

// Plies its lines report beyond the requested depth (seldepth).
constexpr int kLinesSeldepthExtra = 4;

// Reports one line per MultiPV slot (the i-th legal move), all at the requested depth, so the
// cache sees real MultiPV results. Like the engine, it sees the fifty-move rule: a position
// whose clock is at 99 scores 0 on every line (a move that is not mate draws).
class LinesSearcher final : public Searcher {
  public:
    SearchResult run(const SearchRequest& request, const SearchCallbacks&) override {
        std::string error;
        bool badMove = false;
        auto state = ChessState::load(request.fen, request.moves, error, badMove);
        if (!state) throw std::invalid_argument(error);
        const auto legal = state->legalMoves();
        const bool fiftyMoveDraw = halfmoveClock(*state) + 1 >= kFiftyMovePlies;
        SearchResult result;
        const int depth = request.limits.depth.value_or(3);
        for (int line = 1; line <= request.multiPv && line <= static_cast<int>(legal.size());
             ++line) {
            SearchInfo info;
            info.depth = depth;
            info.seldepth = depth + kLinesSeldepthExtra;
            info.multipv = line;
            info.score.value = fiftyMoveDraw ? 0 : 100 - line;
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

// A FEN as a query parameter.
std::string fenQuery(const std::string& fen) {
    std::string encoded;
    for (char c : fen)
        encoded += c == ' ' ? std::string("+") : c == '/' ? "%2F" : std::string(1, c);
    return "fen=" + encoded;
}

// White's king and queen against the king, White to move, no mate in one: a plain win, or a draw
// when the halfmove clock is at 99 (the issue's case).
std::string queenEnding(int halfmove) {
    return "8/8/8/4k3/8/8/8/KQ6 w - - " + std::to_string(halfmove) + " 80";
}

// A finished search of `fen` as the pool reports it: one line at `depth` reaching `seldepth`.
JobOutcome outcomeOf(const AnalysisSpec& spec, int depth, int seldepth) {
    JobOutcome outcome;
    SearchInfo info;
    info.depth = depth;
    info.seldepth = seldepth;
    info.score.value = 42;
    info.nodes = 1000;
    info.pv = {spec.root->legalMoves().front()};
    outcome.result.info = info;
    outcome.result.lines = {info};
    outcome.result.bestmove = info.pv.front();
    return outcome;
}

AnalysisSpec specOf(const nlohmann::json& body) {
    auto parsed = parseAnalysis(body, cacheConfig(), {});
    REQUIRE(std::holds_alternative<AnalysisSpec>(parsed));
    return std::get<AnalysisSpec>(parsed);
}

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
    // Mate and stalemate: POST answers 422 game_over, and so does GET (not 404 "POST makes one").
    CHECK(code("/api/v1/analysis?fen=7k/6Q1/6K1/8/8/8/8/8+b+-+-+0+1") == "422 game_over");
    CHECK(code("/api/v1/analysis?fen=7k/5Q2/6K1/8/8/8/8/8+b+-+-") == "422 game_over");
    auto put = f.call(verb::put, "/api/v1/analysis");
    CHECK(put->status() == 405);
    CHECK(header(put, http::field::allow) == "GET, POST");
    CHECK(f.context.analysisCache->size() == 0);
}

TEST_CASE("analysis cache: a position at another halfmove clock is not answered with a drawn score",
          "[server][analysis-cache]") {
    CacheFixture f;
    // At 99 every move that is not mate draws: the analysis says 0.00 ...
    auto drawn =
        f.call(verb::post, "/api/v1/analysis",
               nlohmann::json{{"fen", queenEnding(99)}, {"limits", {{"depth", 8}}}}.dump());
    REQUIRE(drawn->status() == 200);
    REQUIRE(drawn->json()["score"]["cp"] == 0);
    f.settle();
    // ... which is no answer for the same pieces at 0 (a plain win), nor at 99 itself.
    auto fresh = f.get(fenQuery(queenEnding(0)));
    CHECK(fresh->status() == 404);
    CHECK(fresh->errorCode() == "not_cached");
    CHECK(f.get(fenQuery(queenEnding(99)))->status() == 404);

    // Analysed at 0, the win answers at 0 and at any clock the search could not have reached
    // the limit from (depth 8 reporting seldepth 12: reach 24, so below 76) ...
    f.analyse({{"fen", queenEnding(0)}, {"limits", {{"depth", 8}}}});
    auto win = f.get(fenQuery(queenEnding(0)));
    REQUIRE(win->status() == 200);
    CHECK(win->json()["lines"][0]["score"]["cp"] != 0);
    CHECK(f.get(fenQuery(queenEnding(75)))->status() == 200);
    // ... and not where it could (the draw at 99 above shows how it would be wrong).
    CHECK(f.get(fenQuery(queenEnding(76)))->status() == 404);
    CHECK(f.get(fenQuery(queenEnding(99)))->status() == 404);
}

TEST_CASE("analysis cache: a slot holds below 100 minus twice its deepest ply, else is not kept",
          "[server][analysis-cache]") {
    const std::int64_t now = 1'700'000'000;
    // Depth 10 reaching ply 20: the search may have looked 40 plies ahead.
    const auto slotAt = [&](int halfmove) {
        const AnalysisSpec spec = specOf({{"fen", queenEnding(halfmove)}});
        return analysisCacheSlot(spec, outcomeOf(spec, 10, 20), 5, now);
    };
    REQUIRE(slotAt(59));
    CHECK_FALSE(slotAt(60));  // the limit was within reach: the answer holds for this clock only
    CHECK_FALSE(slotAt(99));
    const AnalysisSlot slot = *slotAt(0);
    CHECK(slot.madeAt == now);
    CHECK(nlohmann::json::parse(slot.doc)["clockFreeBelow"] == 60);
    const std::string key = "8/8/8/4k3/8/8/8/KQ6 w - -";
    CHECK(cachedAnalysisAnswer({slot}, key, 1, 0, now));
    CHECK(cachedAnalysisAnswer({slot}, key, 1, 59, now));
    CHECK_FALSE(cachedAnalysisAnswer({slot}, key, 1, 60, now));
    // A slot that does not say (an older layout) answers nothing.
    AnalysisSlot old = slot;
    old.doc = R"({"depth":10,"nodes":1,"lines":[]})";
    CHECK_FALSE(cachedAnalysisAnswer({old}, key, 1, 0, now));
}

TEST_CASE("analysis cache: an analysis with moves is kept only when no earlier position can recur",
          "[server][analysis-cache]") {
    CacheFixture f;
    // 1. Nf3 Nf6 2. Ng1 Ng8 would repeat the start: the history decides, so it is not kept.
    f.analyse({{"moves", {"g1f3", "g8f6"}}, {"limits", {{"depth", 8}}}});
    CHECK(
        f.get(fenQuery("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"))->status() ==
        404);
    // The same position analysed from its FEN is.
    f.analyse({{"fen", "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"},
               {"limits", {{"depth", 8}}}});
    CHECK(
        f.get(fenQuery("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"))->status() ==
        200);
    // After a pawn move nothing before it can come back: kept (1. Nf3 Nf6 2. d4).
    f.analyse({{"moves", {"g1f3", "g8f6", "d2d4"}}, {"limits", {{"depth", 8}}}});
    CHECK(f.get(fenQuery("rnbqkb1r/pppppppp/5n2/8/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 0 2"))
              ->status() == 200);
}

TEST_CASE("analysis cache: slots age out, and a stale deep slot yields to a fresh shallow one",
          "[server][analysis-cache]") {
    const std::int64_t made = 1'700'000'000;
    const std::int64_t maxAge = kAnalysisSlotMaxAge.count();
    const AnalysisSpec spec = specOf({{"fen", kItalian}});
    AnalysisSlot deep = *analysisCacheSlot(spec, outcomeOf(spec, 20, 20), 5, made);
    const std::string key = analysisCacheKey(*spec.root);
    CHECK(cachedAnalysisAnswer({deep}, key, 1, 4, made + maxAge - 1));
    CHECK_FALSE(cachedAnalysisAnswer({deep}, key, 1, 4, made + maxAge));

    std::vector<AnalysisSlot> slots{deep};
    AnalysisSlot shallow = *analysisCacheSlot(spec, outcomeOf(spec, 8, 8), 5, made + 10);
    CHECK_FALSE(mergeAnalysisSlot(slots, shallow));  // the deep one is fresh: it stays
    shallow.madeAt = made + maxAge;
    CHECK(mergeAnalysisSlot(slots, shallow));  // now it is stale: the shallow one replaces it
    REQUIRE(slots.size() == 1);
    CHECK(slots[0].depth == 8);

    // The memory store keeps the rule.
    auto cache = makeMemoryAnalysisCache(4);
    REQUIRE(cache->put(key, deep) == StoreStatus::Ok);
    REQUIRE(cache->put(key, shallow) == StoreStatus::Ok);
    const AnalysisCacheRead read = cache->get(key);
    REQUIRE(read.slots.size() == 1);
    CHECK(read.slots[0].depth == 8);
}

TEST_CASE("analysis cache: replicas of another engine neither serve nor drop each other's slots",
          "[server][analysis-cache]") {
    // Three replicas sharing one store: two of the old engine, one upgraded (another network or
    // search, so another fingerprint), as during a rolling upgrade.
    CacheFixture oldA;
    CacheFixture oldB;
    CacheFixture upgraded;
    REQUIRE(oldA.context.fingerprint == engineFingerprint());
    upgraded.context.fingerprint = "00000000000000ff";
    // What GET /api/v1/engine reports is what the cache keys by.
    CHECK(upgraded.call(verb::get, "/api/v1/engine")->json()["fingerprint"] == "00000000000000ff");
    oldB.context.analysisCache = oldA.context.analysisCache;
    upgraded.context.analysisCache = oldA.context.analysisCache;

    oldA.analyse({{"fen", kItalian}, {"limits", {{"depth", 10}}}});
    auto same = oldB.get(kItalianQuery);
    REQUIRE(same->status() == 200);  // the same engine shares its analyses across replicas
    CHECK(same->json()["depth"] == 10);
    auto other = upgraded.get(kItalianQuery);
    REQUIRE(other->status() == 404);  // the old engine's deep analysis is not served
    CHECK(other->errorCode() == "not_cached");

    // The upgraded engine's shallower analysis is kept beside it: neither replaces the other.
    upgraded.analyse({{"fen", kItalian}, {"limits", {{"depth", 6}}}});
    auto mine = upgraded.get(kItalianQuery);
    REQUIRE(mine->status() == 200);
    CHECK(mine->json()["depth"] == 6);
    CHECK(mine->json()["fen"] == "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -");
    CHECK(oldB.get(kItalianQuery)->json()["depth"] == 10);

    // The keys differ by the fingerprint alone.
    CHECK(analysisStoreKey("a", "k") != analysisStoreKey("b", "k"));
    CHECK(analysisStoreKey("a", "k").find("k") != std::string::npos);
}
