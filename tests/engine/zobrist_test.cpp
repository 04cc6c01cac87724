#include <catch2/catch.hpp>
#include <random>

#include "test_util.h"

using namespace outpost;

TEST_CASE("incremental keys equal keys computed from scratch over random games", "[zobrist]") {
    std::mt19937 rng(2026);
    constexpr int kGames = 200;
    constexpr int kMaxPlies = 160;
    for (int game = 0; game < kGames; ++game) {
        Position pos = game % 2 ? test::fen(test::kStandardFens[1]) : Position();
        std::vector<Key> keys{pos.key()};
        for (int ply = 0; ply < kMaxPlies; ++ply) {
            const auto moves = test::legalMoves(pos);
            if (moves.empty()) break;
            const Move m = moves[rng() % moves.size()];
            if (!pos.inCheck() && rng() % 16 == 0) {
                pos.makeNullMove();
                REQUIRE(pos.key() == pos.computeKey());
                pos.unmakeNullMove();
            }
            pos.makeMove(m);
            INFO(pos.toFen());
            REQUIRE(pos.key() == pos.computeKey());
            REQUIRE(pos.pawnKey() == pos.computePawnKey());
            REQUIRE(pos.materialKey() == pos.computeMaterialKey());
            REQUIRE(pos.nonPawnKey(White) == pos.computeNonPawnKey(White));
            REQUIRE(pos.nonPawnKey(Black) == pos.computeNonPawnKey(Black));
            // The same position read from its FEN has the same key.
            REQUIRE(test::fen(pos.toFen()).key() == pos.key());
            keys.push_back(pos.key());
        }
        // Unmaking walks the keys back exactly.
        while (pos.historyLength() > 0) {
            keys.pop_back();
            pos.unmakeMove();
            REQUIRE(pos.key() == keys.back());
        }
    }
}

TEST_CASE("keys distinguish side, castling rights and usable en passant", "[zobrist]") {
    const auto a = test::fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    const auto b = test::fen("4k3/8/8/8/8/8/8/R3K2R w K - 0 1");
    const auto c = test::fen("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1");
    CHECK(a.key() != b.key());
    CHECK(a.key() != c.key());
    // An en-passant square nobody can use does not change the key (or the FEN).
    const auto d = test::fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    const auto e = test::fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    CHECK(d.key() == e.key());
    CHECK(d.epSquare() == NoSquare);
    const auto f = test::fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    const auto g = test::fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    CHECK(f.key() != g.key());
    CHECK(f.epSquare() == E3);
    // Transpositions reach the same key.
    Position p1, p2;
    const Move nf3 = Move(G1, F3), nf6 = Move(G8, F6), nc3 = Move(B1, C3), nc6 = Move(B8, C6);
    p1.makeMove(nf3);
    p1.makeMove(nf6);
    p1.makeMove(nc3);
    p1.makeMove(nc6);
    p2.makeMove(nc3);
    p2.makeMove(nc6);
    p2.makeMove(nf3);
    p2.makeMove(nf6);
    CHECK(p1.key() == p2.key());
}
