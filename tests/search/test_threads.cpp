// Engines and threads: go/stop, ponder, Lazy SMP, several engines at once, a shared table.
// Labelled `threads`, so CI also runs them under ThreadSanitizer.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/notation.h"
#include "core/position.h"
#include "engine.h"

using namespace outpost;
using namespace std::chrono_literals;

namespace {

constexpr const char* kKiwipete =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
// White wins a queen (Nxh4): a best move that stays best from the first iteration on.
constexpr const char* kQueenHangs =
    "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

bool legal(const std::string& fen, const std::string& uci) {
    const Position pos = fen.empty() ? Position() : *Position::fromFen(fen);
    return moveFromUci(pos, uci).has_value();
}

// Collects the bestmove callback of a go() search.
struct BestMoveLatch {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    SearchResult result;

    SearchCallbacks callbacks() {
        SearchCallbacks cb;
        cb.onBestMove = [this](const SearchResult& r) {
            std::lock_guard<std::mutex> lock(mutex);
            result = r;
            done = true;
            cv.notify_all();
        };
        return cb;
    }
    bool waitFor(std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(mutex);
        return cv.wait_for(lock, timeout, [this] { return done; });
    }
};

}  // namespace

TEST_CASE("go does not block and stop ends an infinite search promptly", "[threads]") {
    Engine engine;
    SearchRequest request;
    request.fen = kKiwipete;
    request.limits.infinite = true;
    BestMoveLatch latch;
    engine.go(request, latch.callbacks());
    REQUIRE(engine.searching());
    std::this_thread::sleep_for(50ms);
    REQUIRE_FALSE(latch.done);  // infinite: no bestmove before stop
    const auto before = std::chrono::steady_clock::now();
    engine.stop();
    REQUIRE(latch.waitFor(2000ms));
    REQUIRE(std::chrono::steady_clock::now() - before < 1000ms);
    engine.wait();
    REQUIRE_FALSE(engine.searching());
    REQUIRE(latch.result.stopped);
    REQUIRE(legal(kKiwipete, latch.result.bestmove));
}

TEST_CASE("stop right after go still yields a legal bestmove", "[threads]") {
    Engine engine;
    for (int i = 0; i < 5; ++i) {
        SearchRequest request;
        request.limits.infinite = true;
        BestMoveLatch latch;
        engine.go(request, latch.callbacks());
        engine.stop();
        REQUIRE(latch.waitFor(2000ms));
        engine.wait();
        REQUIRE(legal("", latch.result.bestmove));
    }
}

TEST_CASE("A movetime search ends by itself", "[threads]") {
    Engine engine;
    SearchRequest request;
    request.fen = kKiwipete;
    request.limits.movetimeMs = 100;
    const auto before = std::chrono::steady_clock::now();
    const SearchResult r = engine.run(request);
    const auto took = std::chrono::steady_clock::now() - before;
    REQUIRE(took >= 90ms);
    REQUIRE(took < 1000ms);
    REQUIRE_FALSE(r.stopped);
    REQUIRE(legal(kKiwipete, r.bestmove));
}

TEST_CASE("A clock search stays inside its time", "[threads]") {
    Engine engine;
    SearchRequest request;
    request.fen = kKiwipete;
    request.limits.wtimeMs = 1000;
    request.limits.btimeMs = 1000;
    request.limits.wincMs = 10;
    const auto before = std::chrono::steady_clock::now();
    const SearchResult r = engine.run(request);
    REQUIRE(std::chrono::steady_clock::now() - before < 500ms);
    REQUIRE(legal(kKiwipete, r.bestmove));
}

TEST_CASE("Ponder: no bestmove until ponderhit, then the clock applies", "[threads]") {
    Engine engine;
    SearchRequest request;
    request.limits.ponder = true;
    request.limits.wtimeMs = 200;
    request.limits.btimeMs = 200;
    BestMoveLatch latch;
    engine.go(request, latch.callbacks());
    std::this_thread::sleep_for(300ms);  // longer than the whole clock: pondering is free
    REQUIRE_FALSE(latch.done);
    engine.ponderhit();
    REQUIRE(latch.waitFor(2000ms));
    engine.wait();
    REQUIRE(legal("", latch.result.bestmove));
}

TEST_CASE("Ponder: a search that did a move's worth of work ends at ponderhit", "[threads]") {
    // 20 s on the clock: a soft bound of 20 s / 12 moves, scaled to 0.48-5 s, and a hard bound of
    // 5 s. The search ponders longer than that, so it has done more than a move's worth: at
    // ponderhit it ends at once, whatever its iterations. Without the credit it would go on until
    // its own clock, started at ponderhit, reached half the soft bound: at least 240 ms.
    Engine engine;
    SearchRequest request;
    request.fen = kQueenHangs;
    request.limits.ponder = true;
    request.limits.wtimeMs = 20000;
    request.limits.btimeMs = 20000;
    BestMoveLatch latch;
    engine.go(request, latch.callbacks());
    std::this_thread::sleep_for(5500ms);
    REQUIRE_FALSE(latch.done);
    const auto hit = std::chrono::steady_clock::now();
    engine.ponderhit();
    REQUIRE(latch.waitFor(5000ms));
    const auto afterHit = std::chrono::steady_clock::now() - hit;
    engine.wait();
    CHECK(latch.result.bestmove == "f3h4");
    CHECK(afterHit < 200ms);
}

TEST_CASE("A search stopped at once still answers with a searched move", "[threads]") {
    // White wins a queen (Nxh4). The stop comes before the search thread can have started; the
    // first iteration still finishes, so the move is the capture, not the first legal move.
    for (int threads : {1, 3}) {
        EngineOptions options;
        options.threads = threads;
        Engine engine(options);
        SearchRequest request;
        request.fen = kQueenHangs;
        request.limits.infinite = true;
        BestMoveLatch latch;
        engine.go(request, latch.callbacks());
        engine.stop();
        REQUIRE(latch.waitFor(5000ms));
        engine.wait();
        CHECK(latch.result.bestmove == "f3h4");
        CHECK(latch.result.info.depth >= 1);
    }
}

TEST_CASE("Lazy SMP: several threads search together", "[threads]") {
    EngineOptions options;
    options.threads = 3;
    Engine engine(options);
    SearchRequest request;
    request.fen = kKiwipete;
    request.limits.depth = 7;
    const SearchResult r = engine.run(request);
    REQUIRE(legal(kKiwipete, r.bestmove));
    REQUIRE(r.info.depth >= 7);
    // Mates are still found with the right distance.
    SearchRequest mate;
    mate.fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    mate.limits.depth = 6;
    const SearchResult m = engine.run(mate);
    REQUIRE(m.info.score.kind == Score::Kind::Mate);
    REQUIRE(m.info.score.value == 2);
}

TEST_CASE("Several engines search concurrently in one process", "[threads]") {
    const char* fens[] = {"", kKiwipete, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                          "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1"};
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (const char* fen : fens) {
        threads.emplace_back([fen, &ok] {
            Engine engine;
            SearchRequest request;
            request.fen = fen;
            request.limits.depth = 6;
            const SearchResult r = engine.run(request);
            if (legal(fen, r.bestmove)) ++ok;
        });
    }
    for (auto& t : threads) t.join();
    REQUIRE(ok == 4);
}

TEST_CASE("Engines share one transposition table", "[threads]") {
    auto table = makeSharedTable(8);
    EngineOptions options;
    options.sharedTable = table;
    Engine first(options);
    Engine second(options);
    SearchRequest request;
    request.fen = kKiwipete;
    request.limits.depth = 8;
    const SearchResult a = first.run(request);
    REQUIRE(first.hashfull() > 0);
    REQUIRE(second.hashfull() == first.hashfull());
    // The second engine profits from what the first one stored.
    const SearchResult b = second.run(request);
    REQUIRE(b.info.nodes < a.info.nodes);
    REQUIRE(legal(kKiwipete, b.bestmove));

    // Both at once on the same table.
    std::thread t1([&] { first.run(request); });
    std::thread t2([&] { second.run(request); });
    t1.join();
    t2.join();
}

TEST_CASE("setOptions and clearHash between searches", "[threads]") {
    Engine engine;
    SearchRequest request;
    request.limits.depth = 5;
    engine.run(request);
    EngineOptions options;
    options.threads = 2;
    options.hashMb = 4;
    engine.setOptions(options);
    REQUIRE(engine.options().threads == 2);
    engine.clearHash();
    REQUIRE(engine.hashfull() == 0);
    REQUIRE(legal("", engine.run(request).bestmove));
}
