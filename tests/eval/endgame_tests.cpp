#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "core/position.h"
#include "eval/evaluate.h"
#include "eval/kpk.h"

using namespace outpost;

namespace {

int evalFen(const std::string& fen) {
    Evaluator ev;
    auto pos = Position::fromFen(fen);
    REQUIRE(pos.has_value());
    return ev.evaluate(*pos);
}

}  // namespace

TEST_CASE("king and pawn against king follows the exact table", "[eval][endgame]") {
    // The defending king in front of the pawn with the opposition: a draw.
    CHECK(evalFen("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1") == 0);
    // The attacking king on the sixth rank in front of its pawn: a win.
    CHECK(evalFen("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1") > 150);
    CHECK(evalFen("4k3/8/8/4K3/4P3/8/8/8 w - - 0 1") > 150);
    // A rook pawn with the defender in the corner: a draw.
    CHECK(evalFen("k7/8/1K6/P7/8/8/8/8 w - - 0 1") == 0);
    // The same for Black's pawn, seen from Black to move.
    CHECK(evalFen("8/8/8/4p3/4k3/8/4K3/8 b - - 0 1") == 0);
    CHECK(eval::kpkIsWin(false, E3, E4, E1, true));
}

TEST_CASE("material that cannot mate evaluates as a draw", "[eval][endgame]") {
    CHECK(evalFen("8/5k2/8/8/2n5/8/5K2/8 w - - 0 1") == 0);              // knight
    CHECK(evalFen("8/5k2/8/8/2b5/8/5K2/8 w - - 0 1") == 0);              // bishop
    CHECK(evalFen("8/5k2/8/8/2nn4/8/5K2/8 w - - 0 1") == 0);             // two knights
    CHECK(std::abs(evalFen("8/5k2/8/3b4/8/3N4/5K2/8 w - - 0 1")) == 0);  // minor against minor
    CHECK(evalFen("8/5k2/8/8/8/8/5K2/3R4 w - - 0 1") > 400);             // a rook mates
}

TEST_CASE("opposite-coloured bishops scale the endgame down", "[eval][endgame]") {
    const int sameColour = evalFen("4k3/8/8/3b4/8/8/1PP1B3/4K3 w - - 0 1");
    const int opposite = evalFen("4k3/8/8/4b3/8/8/1PP1B3/4K3 w - - 0 1");
    CHECK(sameColour > 0);
    CHECK(opposite > 0);
    CHECK(opposite < sameColour);
}

TEST_CASE("a rook pawn with the wrong bishop is a draw", "[eval][endgame]") {
    // The bishop is light-squared, h8 is dark, the black king sits in the corner.
    CHECK(evalFen("7k/8/6K1/7P/8/8/4B3/8 w - - 0 1") == 0);
}
