#include <catch2/catch.hpp>

#include "search/timeman.h"
#include "uci/go_command.h"

using outpost::uci::parseGo;
using Warnings = std::vector<std::string>;

TEST_CASE("go parses clock, depth, nodes and flags", "[uci][go]") {
    Warnings warnings;
    auto go =
        parseGo("wtime 1000 btime 2000 winc 10 binc 20 movestogo 30 depth 7 nodes 5000", warnings);
    CHECK(warnings.empty());
    CHECK(*go.limits.wtimeMs == 1000);
    CHECK(*go.limits.btimeMs == 2000);
    CHECK(*go.limits.wincMs == 10);
    CHECK(*go.limits.bincMs == 20);
    CHECK(*go.limits.movestogo == 30);
    CHECK(*go.limits.depth == 7);
    CHECK(*go.limits.nodes == 5000);
    CHECK_FALSE(go.limits.infinite);
    CHECK_FALSE(go.perftDepth);
}

TEST_CASE("go searchmoves stops at the next keyword", "[uci][go]") {
    Warnings warnings;
    auto go = parseGo("searchmoves e2e4 d2d4 infinite", warnings);
    CHECK(go.limits.searchmoves == std::vector<std::string>{"e2e4", "d2d4"});
    CHECK(go.limits.infinite);
    go = parseGo("ponder movetime 300 mate 3", warnings);
    CHECK(go.limits.ponder);
    CHECK(*go.limits.movetimeMs == 300);
    CHECK(*go.limits.mate == 3);
    CHECK(warnings.empty());
}

TEST_CASE("go perft, and malformed parameters ignored with a warning", "[uci][go]") {
    Warnings warnings;
    auto go = parseGo("perft 4", warnings);
    CHECK(*go.perftDepth == 4);
    // A GUI waits for a bestmove after every go: what cannot be read is ignored, never fatal.
    go = parseGo("depth", warnings);
    CHECK_FALSE(go.limits.depth);
    CHECK(warnings.size() == 1);
    warnings.clear();
    go = parseGo("depth x movetime 50", warnings);
    CHECK_FALSE(go.limits.depth);
    CHECK(*go.limits.movetimeMs == 50);
    CHECK(warnings.size() == 2);  // depth's value, then the stray "x"
    warnings.clear();
    go = parseGo("sideways 3 depth 5", warnings);
    CHECK(*go.limits.depth == 5);
    CHECK(warnings.size() == 2);  // "sideways" and "3"
    warnings.clear();
    go = parseGo("depth -1 movestogo -1 nodes -1 wtime 10s", warnings);
    CHECK_FALSE(go.limits.depth);
    CHECK_FALSE(go.limits.movestogo);
    CHECK_FALSE(go.limits.nodes);
    CHECK_FALSE(go.limits.wtimeMs);
    CHECK(warnings.size() >= 4);
    // A negative clock (a GUI that already overstepped) is read as zero, not rejected.
    warnings.clear();
    go = parseGo("wtime -20 btime 100", warnings);
    CHECK(*go.limits.wtimeMs == 0);
    CHECK(warnings.empty());
}

TEST_CASE("go reads a clock given in decimal milliseconds", "[uci][go]") {
    // Ignoring such a clock would leave the search with no time limit at all.
    Warnings warnings;
    auto go = parseGo("wtime 4881.52 btime 5000.0 winc 50.9 binc 50 movetime 99.99", warnings);
    CHECK(warnings.empty());
    CHECK(*go.limits.wtimeMs == 4881);
    CHECK(*go.limits.btimeMs == 5000);
    CHECK(*go.limits.wincMs == 50);
    CHECK(*go.limits.movetimeMs == 99);
    go = parseGo("wtime -3.5 btime 1e400 winc nan", warnings);
    CHECK(*go.limits.wtimeMs == 0);
    CHECK_FALSE(go.limits.btimeMs);  // not a fixed-point number
    CHECK_FALSE(go.limits.wincMs);
    CHECK(warnings.size() >= 2);
    go = parseGo("wtime 99999999999999999999999.5", warnings);
    CHECK(*go.limits.wtimeMs > 0);  // held at a bound, not wrapped around
}

TEST_CASE("go movestogo 0 is sudden death, not the last move before a control", "[uci][go]") {
    Warnings warnings;
    const auto zero = parseGo("wtime 60000 btime 60000 movestogo 0", warnings);
    const auto none = parseGo("wtime 60000 btime 60000", warnings);
    CHECK(warnings.empty());
    CHECK_FALSE(zero.limits.movestogo);
    const auto zeroBounds = outpost::search::computeTimeBounds(zero.limits, true, 10, 0);
    const auto noneBounds = outpost::search::computeTimeBounds(none.limits, true, 10, 0);
    REQUIRE(zeroBounds);
    REQUIRE(noneBounds);
    CHECK(zeroBounds->softMs == noneBounds->softMs);
    CHECK(zeroBounds->hardMs == noneBounds->hardMs);
    CHECK(zeroBounds->hardMs < 60000 / 3);  // not most of the clock on one move
    CHECK(*parseGo("wtime 60000 movestogo 1", warnings).limits.movestogo == 1);
}
