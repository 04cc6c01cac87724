#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "search/score.h"
#include "search/tt.h"

using namespace outpost;
using namespace outpost::search;

TEST_CASE("TT stores and probes an entry", "[tt]") {
    TranspositionTable tt(1);
    const std::uint64_t key = 0x123456789abcdef0ULL;
    TTData d;
    REQUIRE_FALSE(tt.probe(key, d));
    tt.store(key, TTData{0x1234, -250, 37, 7, TTBound::Lower, true});
    REQUIRE(tt.probe(key, d));
    REQUIRE(d.move == 0x1234);
    REQUIRE(d.score == -250);
    REQUIRE(d.eval == 37);
    REQUIRE(d.depth == 7);
    REQUIRE(d.bound == TTBound::Lower);
    REQUIRE(d.pv);
    REQUIRE_FALSE(tt.probe(key ^ 1, d));
}

TEST_CASE("TT keeps quiescence depths and the old move when a store has none", "[tt]") {
    TranspositionTable tt(1);
    const std::uint64_t key = 42;
    tt.store(key, TTData{0x0777, 10, 10, 3, TTBound::Exact, false});
    tt.store(key, TTData{0, 20, 10, 5, TTBound::Upper, false});
    TTData d;
    REQUIRE(tt.probe(key, d));
    REQUIRE(d.move == 0x0777);
    REQUIRE(d.depth == 5);
    tt.store(key + 1, TTData{0, 5, 5, -1, TTBound::Upper, false});
    REQUIRE(tt.probe(key + 1, d));
    REQUIRE(d.depth == -1);
}

TEST_CASE("Mate scores are stored relative to the node", "[tt]") {
    // A mate found 3 plies below a node at ply 5 is "mate in 8 plies" from the root; stored at the
    // node it becomes "mate in 3 plies", and read back at ply 9 it is "mate in 12 plies".
    const int atRoot = mateIn(8);
    const int stored = scoreToTable(atRoot, 5);
    REQUIRE(stored == mateIn(3));
    REQUIRE(scoreFromTable(stored, 5) == atRoot);
    REQUIRE(scoreFromTable(stored, 9) == mateIn(12));
    REQUIRE(scoreToTable(matedIn(6), 2) == matedIn(4));
    REQUIRE(scoreFromTable(matedIn(4), 2) == matedIn(6));
    REQUIRE(scoreToTable(150, 7) == 150);

    TranspositionTable tt(1);
    tt.store(99, TTData{1, scoreToTable(atRoot, 5), 0, 4, TTBound::Exact, false});
    TTData d;
    REQUIRE(tt.probe(99, d));
    REQUIRE(scoreFromTable(d.score, 9) == mateIn(12));
}

TEST_CASE("TT replaces old generations first and reports hashfull", "[tt]") {
    TranspositionTable tt(1);
    REQUIRE(tt.hashfull() == 0);
    for (std::uint64_t k = 1; k < 200000; ++k) {
        tt.store(k * 0x9E3779B97F4A7C15ULL, TTData{1, 0, 0, 1, TTBound::Exact, false});
    }
    REQUIRE(tt.hashfull() > 900);
    tt.newSearch();
    REQUIRE(tt.hashfull() == 0);  // entries of the previous search are not counted
    tt.clear();
    TTData d;
    REQUIRE_FALSE(tt.probe(0x9E3779B97F4A7C15ULL, d));
}

TEST_CASE("A table aged by time keeps one generation within a period", "[tt]") {
    // hashfull counts the entries of the current generation.
    auto fill = [](TranspositionTable& tt) {
        for (std::uint64_t k = 1; k < 200000; ++k)
            tt.store(k * 0x9E3779B97F4A7C15ULL, TTData{0, 0, 0, 1, TTBound::Exact, false});
    };
    TranspositionTable perSearch(1);
    fill(perSearch);
    REQUIRE(perSearch.hashfull() > 0);
    perSearch.newSearch();
    REQUIRE(perSearch.hashfull() == 0);

    TranspositionTable timed(1, std::chrono::hours(1));
    fill(timed);
    const int full = timed.hashfull();
    REQUIRE(full > 0);
    for (int i = 0; i < 40; ++i) timed.newSearch();  // more searches than generations
    REQUIRE(timed.hashfull() == full);
}

TEST_CASE("A table aged by time advances its generation when a period passes", "[tt]") {
    TranspositionTable timed(1, std::chrono::milliseconds(20));
    for (std::uint64_t k = 1; k < 200000; ++k)
        timed.store(k * 0x9E3779B97F4A7C15ULL, TTData{0, 0, 0, 1, TTBound::Exact, false});
    REQUIRE(timed.hashfull() > 0);
    // Past a period the generation moves on (unless a stalled machine let exactly a multiple of
    // 32 periods pass, when the five bits wrap: then one more period does it).
    for (int attempt = 0; attempt < 3 && timed.hashfull() != 0; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        timed.newSearch();
    }
    REQUIRE(timed.hashfull() == 0);
}
