#include <catch2/catch.hpp>

#include "uci/go_command.h"

using outpost::uci::parseGo;

TEST_CASE("go parses clock, depth, nodes and flags", "[uci][go]") {
    std::string error;
    auto go =
        parseGo("wtime 1000 btime 2000 winc 10 binc 20 movestogo 30 depth 7 nodes 5000", error);
    REQUIRE(go);
    CHECK(*go->limits.wtimeMs == 1000);
    CHECK(*go->limits.btimeMs == 2000);
    CHECK(*go->limits.wincMs == 10);
    CHECK(*go->limits.bincMs == 20);
    CHECK(*go->limits.movestogo == 30);
    CHECK(*go->limits.depth == 7);
    CHECK(*go->limits.nodes == 5000);
    CHECK_FALSE(go->limits.infinite);
    CHECK_FALSE(go->perftDepth);
}

TEST_CASE("go searchmoves stops at the next keyword", "[uci][go]") {
    std::string error;
    auto go = parseGo("searchmoves e2e4 d2d4 infinite", error);
    REQUIRE(go);
    CHECK(go->limits.searchmoves == std::vector<std::string>{"e2e4", "d2d4"});
    CHECK(go->limits.infinite);
    go = parseGo("ponder movetime 300 mate 3", error);
    REQUIRE(go);
    CHECK(go->limits.ponder);
    CHECK(*go->limits.movetimeMs == 300);
    CHECK(*go->limits.mate == 3);
}

TEST_CASE("go perft and malformed commands", "[uci][go]") {
    std::string error;
    auto go = parseGo("perft 4", error);
    REQUIRE(go);
    CHECK(*go->perftDepth == 4);
    CHECK_FALSE(parseGo("depth", error));
    CHECK_FALSE(parseGo("depth x", error));
    CHECK_FALSE(parseGo("sideways 3", error));
    // A negative clock (a GUI that already overstepped) is read as zero, not rejected.
    go = parseGo("wtime -20 btime 100", error);
    REQUIRE(go);
    CHECK(*go->limits.wtimeMs == 0);
}
