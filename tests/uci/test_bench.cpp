#include <catch2/catch.hpp>
#include <sstream>

#include "uci/bench.h"

using namespace outpost::uci;

TEST_CASE("bench is deterministic and prints its signature", "[uci][bench]") {
    constexpr int kQuickDepth = 3;
    std::ostringstream first, second;
    const BenchResult a = runBench(kQuickDepth, outpost::SearchConfig{}, first);
    const BenchResult b = runBench(kQuickDepth, outpost::SearchConfig{}, second);
    CHECK(a.nodes > 0);
    CHECK(a.nodes == b.nodes);
    CHECK(first.str().find("Nodes searched  : " + std::to_string(a.nodes)) != std::string::npos);
    // Every position must be legal and give a move.
    CHECK(first.str().find("bestmove 0000") == std::string::npos);
    CHECK(first.str().find("bestmove  ") == std::string::npos);
}
