// Perft with invariant checks at every node: the legal list agrees with isLegal() and with the
// counting generator, captures and quiets partition it, givesCheck() predicts inCheck() after the
// move, keyAfter() predicts key() after the move (but for an en-passant file it adds),
// attackedBy() is the union of the squares attackersTo() finds each side on, and make/unmake
// restores the position exactly (keys included).
#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "core/zobrist.h"
#include "test_util.h"

using namespace outpost;
using outpost::test::fen;

namespace {

struct Checker {
    std::mt19937_64 rng{12345};
    std::uint64_t nodes = 0;

    void visit(Position& pos, int depth) {
        ++nodes;
        const std::string problem = pos.validate();
        INFO(pos.toFen());
        REQUIRE(problem.empty());

        MoveList legal, captures, quiets;
        generateLegal(pos, legal);
        generate<GenType::Captures>(pos, captures);
        generate<GenType::Quiets>(pos, quiets);
        REQUIRE(countLegalMoves(pos) == int(legal.size()));
        REQUIRE(hasLegalMove(pos) == !legal.empty());
        REQUIRE(captures.size() + quiets.size() == legal.size());
        for (const ScoredMove& sm : captures) {
            REQUIRE(legal.contains(sm.move));
            REQUIRE(pos.isCaptureOrPromotion(sm.move));
        }
        for (const ScoredMove& sm : quiets) {
            REQUIRE(legal.contains(sm.move));
            REQUIRE(!pos.isCaptureOrPromotion(sm.move));
        }
        std::set<std::uint16_t> unique;
        for (const ScoredMove& sm : legal) unique.insert(sm.move.raw());
        REQUIRE(unique.size() == legal.size());
        for (const Color c : {White, Black}) {
            Bitboard expected = 0;
            for (int s = 0; s < 64; ++s) {
                const auto sq = static_cast<Square>(s);
                if (pos.attackersTo(sq) & pos.pieces(c)) expected |= squareBB(sq);
            }
            REQUIRE(pos.attackedBy(c) == expected);
        }

        // Random 16-bit values are legal exactly when the generator lists them.
        for (int i = 0; i < 16; ++i) {
            const Move m{static_cast<std::uint16_t>(rng())};
            REQUIRE(pos.isLegal(m) == legal.contains(m));
        }
        // Same-square variants of legal moves with other flags are the hard cases.
        for (const ScoredMove& sm : legal) {
            const Move m = sm.move;
            REQUIRE(pos.isLegal(m));
            REQUIRE(pos.isPseudoLegal(m));
            for (int kind = 0; kind < 4; ++kind) {
                const Move variant = Move::make(m.from(), m.to(), MoveKind(kind), Queen);
                REQUIRE(pos.isLegal(variant) == legal.contains(variant));
            }
        }

        if (depth == 0) return;
        const Key key = pos.key();
        const std::string before = pos.toFen();
        for (const ScoredMove& sm : legal) {
            const bool givesCheck = pos.givesCheck(sm.move);
            const Key predicted = pos.keyAfter(sm.move);
            pos.makeMove(sm.move);
            REQUIRE(pos.inCheck() == givesCheck);
            const Key epKey =
                pos.epSquare() == NoSquare ? Key{0} : zobrist::kKeys.epFile[fileOf(pos.epSquare())];
            REQUIRE((predicted ^ epKey) == pos.key());
            visit(pos, depth - 1);
            pos.unmakeMove();
            REQUIRE(pos.key() == key);
        }
        REQUIRE(pos.toFen() == before);
        if (!pos.inCheck() && depth >= 2) {
            pos.makeNullMove();
            REQUIRE(pos.validate().empty());
            pos.unmakeNullMove();
            REQUIRE(pos.key() == key);
        }
    }
};

}  // namespace

TEST_CASE("invariants hold at every node of small perft trees", "[perft][invariants]") {
    const std::vector<std::pair<std::string, int>> cases = {
        {test::kStandardFens[0], 3},
        {test::kStandardFens[1], 2},
        {test::kStandardFens[2], 3},
        {test::kStandardFens[3], 2},
        {test::kStandardFens[4], 2},
        {test::kStandardFens[5], 2},
        {"8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", 3},
        {"2r5/8/8/1pPk4/8/8/8/2K5 w - b6 0 1", 3},
        {"8/8/8/3k4/3pP3/8/8/3K1B2 b - e3 0 1", 3},
        {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 2},
        {"r3k2r/8/8/8/3b4/8/8/R3K2R w KQkq - 0 1", 2},
        {"r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 2},
    };
    for (const auto& [text, depth] : cases) {
        Position pos = fen(text);
        Checker checker;
        checker.visit(pos, depth);
        CHECK(checker.nodes > 0);
    }
}
