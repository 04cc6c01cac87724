#include <catch2/catch.hpp>

#include "uci/info_format.h"

using namespace outpost;
using namespace outpost::uci;

TEST_CASE("info lines carry every field and the bound", "[uci][info]") {
    SearchInfo info;
    info.depth = 12;
    info.seldepth = 18;
    info.multipv = 2;
    info.score = {Score::Kind::Cp, -35, Score::Bound::Lower};
    info.nodes = 123456;
    info.nps = 999000;
    info.hashfull = 42;
    info.timeMs = 124;
    info.pv = {"e2e4", "e7e5"};
    CHECK(formatInfo(info) ==
          "info depth 12 seldepth 18 multipv 2 score cp -35 lowerbound nodes 123456 nps 999000 "
          "hashfull 42 time 124 pv e2e4 e7e5");
    info.score = {Score::Kind::Mate, -3, Score::Bound::Exact};
    info.pv.clear();
    CHECK(formatInfo(info) ==
          "info depth 12 seldepth 18 multipv 2 score mate -3 nodes 123456 nps 999000 hashfull 42 "
          "time 124");
    CHECK(formatCurrMove("g1f3", 3, 9) == "info depth 9 currmove g1f3 currmovenumber 3");
}

TEST_CASE("bestmove always names a ponder move when one is known", "[uci][info]") {
    SearchResult result;
    result.bestmove = "e2e4";
    result.info.pv = {"e2e4", "c7c5"};
    CHECK(formatBestMove(result) == "bestmove e2e4 ponder c7c5");
    result.ponder = "e7e5";
    CHECK(formatBestMove(result) == "bestmove e2e4 ponder e7e5");
    result.ponder.clear();
    result.info.pv = {"e2e4"};
    CHECK(formatBestMove(result, "g8f6") == "bestmove e2e4 ponder g8f6");
    result.bestmove = "0000";
    CHECK(formatBestMove(result, "g8f6") == "bestmove 0000");
}
