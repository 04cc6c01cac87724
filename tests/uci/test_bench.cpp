#include <catch2/catch.hpp>
#include <sstream>

#include "search/search_params.h"
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

TEST_CASE("bench takes switches, and a tunable build's margins, by name", "[uci][bench]") {
    std::ostringstream out, err;
    // A switch by name, at a quick depth.
    CHECK(benchCommand({"2", "nullMove=false"}, out, err) == 0);
    CHECK(out.str().find("Nodes searched") != std::string::npos);
    // Not a switch and not a number: refused with a usage line, nothing searched.
    std::ostringstream out2, err2;
    CHECK(benchCommand({"2", "noSuchSwitch=true"}, out2, err2) == 2);
    CHECK(out2.str().empty());
    // A margin: only a tunable build knows it; a release build refuses it like any unknown
    // name, and a value out of its range is refused by both.
    std::ostringstream out3, err3;
    const int margin = benchCommand({"2", "HistoryBonusScale=16"}, out3, err3);
    CHECK(margin == (outpost::kTunableSearch ? 0 : 2));
    std::ostringstream out4, err4;
    CHECK(benchCommand({"2", "HistoryBonusScale=1000"}, out4, err4) == 2);
    CHECK(err4.str().find("HistoryBonusScale=1000") != std::string::npos);
}
