// Static exchange evaluation as the search uses it (move ordering, SEE pruning, threats).
#include <catch2/catch.hpp>

#include "core/notation.h"
#include "core/position.h"
#include "core/see.h"

using namespace outpost;

namespace {

int seeOf(const char* fen, const char* uci) {
    const Position pos = *Position::fromFen(fen);
    return see(pos, *moveFromUci(pos, uci));
}

}  // namespace

TEST_CASE("SEE of simple exchanges", "[see]") {
    // Undefended pawn.
    REQUIRE(seeOf("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5") == 100);
    // Pawn defended by a pawn: pawn for pawn.
    REQUIRE(seeOf("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5") == 0);
    // Queen takes a defended pawn: loses the queen for a pawn.
    REQUIRE(seeOf("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5") == 100 - 950);
    // Rook takes a knight defended by a pawn: rook for knight.
    REQUIRE(seeOf("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", "d1d5") == 320 - 500);
}

TEST_CASE("SEE with x-rays and a chain of recaptures", "[see]") {
    // Doubled rooks win a pawn defended by one rook.
    REQUIRE(seeOf("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5") == 100);
    // A quiet move to a square a pawn attacks loses the piece.
    REQUIRE(seeOf("4k3/8/8/3p4/8/8/3N4/4K3 w - - 0 1", "d2c4") == -320);
    REQUIRE(seeOf("4k3/8/8/3p4/8/8/3N4/4K3 w - - 0 1", "d2b3") == 0);
    const Position pos = *Position::fromFen("4k3/8/8/3p4/8/8/3N4/4K3 w - - 0 1");
    REQUIRE_FALSE(seeGe(pos, *moveFromUci(pos, "d2c4"), 0));
    REQUIRE(seeGe(pos, *moveFromUci(pos, "d2b3"), 0));
}
