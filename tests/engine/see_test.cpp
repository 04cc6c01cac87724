#include "core/see.h"

#include <catch2/catch.hpp>
#include <random>

#include "core/notation.h"
#include "test_util.h"

using namespace outpost;

namespace {

int seeOf(const std::string& fenText, const std::string& move) {
    const Position pos = test::fen(fenText);
    const auto m = parseMove(pos, move);
    REQUIRE(m.has_value());
    const int value = see(pos, *m);
    // seeGe agrees with see at thresholds around the value.
    for (const int delta : {-101, -1, 0, 1, 101}) {
        INFO(fenText << " " << move << " value " << value << " threshold " << value + delta);
        CHECK(seeGe(pos, *m, value + delta) == (delta <= 0));
    }
    return value;
}

}  // namespace

TEST_CASE("static exchange evaluation", "[see]") {
    const int P = kSeeValue[Pawn], N = kSeeValue[Knight], R = kSeeValue[Rook];
    // Undefended pawn.
    CHECK(seeOf("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "Rxe5") == P);
    // Defended by a pawn: rook for pawn.
    CHECK(seeOf("1k1r4/1pp4p/p2p4/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "Rxe5") == P - R);
    // Knight takes a pawn defended by a pawn.
    CHECK(seeOf("4k3/8/5p2/4p3/8/3N4/8/4K3 w - - 0 1", "Nxe5") == P - N);
    // X-ray: the rook behind the rook joins.
    CHECK(seeOf("4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "Rxe5") == P);
    // Quiet move to an attacked square.
    CHECK(seeOf("4k3/8/8/3p4/8/8/8/2N1K3 w - - 0 1", "Nb3") == 0);
    CHECK(seeOf("4k3/8/8/2p5/8/8/8/2N1K3 w - - 0 1", "Nb3") == 0);
    CHECK(seeOf("4k3/8/2p5/8/8/8/8/2N1K3 w - - 0 1", "Nd3") == 0);
    CHECK(seeOf("4k3/8/8/8/2p5/8/8/2N1K3 w - - 0 1", "Nb3") == -N);
    // Castling and en passant.
    CHECK(seeOf(test::kStandardFens[1], "O-O") == 0);
    CHECK(seeOf("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6") == P);
}

TEST_CASE("seeGe agrees with see on every capture of random games", "[see]") {
    std::mt19937 rng(4242);
    int checked = 0;
    for (int game = 0; game < 40; ++game) {
        Position pos = game % 2 ? test::fen(test::kStandardFens[1]) : Position();
        for (int ply = 0; ply < 120; ++ply) {
            const auto moves = test::legalMoves(pos);
            if (moves.empty()) break;
            for (const Move m : moves) {
                if (!pos.isCapture(m) || m.kind() != MoveKind::Normal) continue;
                const int value = see(pos, m);
                INFO(pos.toFen() << " " << moveToUci(m) << " see " << value);
                REQUIRE(seeGe(pos, m, value));
                REQUIRE(!seeGe(pos, m, value + 1));
                ++checked;
            }
            pos.makeMove(moves[rng() % moves.size()]);
        }
    }
    CHECK(checked > 1000);
}
