// The evaluation by term (eval/explain.h, the UCI `eval` command) adds up to the evaluation.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/position.h"
#include "eval/evaluate.h"
#include "eval/explain.h"
#include "fen_flip.h"

using namespace outpost;

namespace {

double sumOfShares(const eval::Explanation& explanation) {
    double sum = 0;
    for (const eval::TermShare& term : explanation.terms) sum += term.blended;
    return sum;
}

}  // namespace

TEST_CASE("the terms add up to the evaluation, and flip sign with the colours", "[eval][explain]") {
    Evaluator evaluator;
    for (const std::string fen : {
             "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "2r3k1/pb3pp1/1p2p2p/3nP3/3P4/P2B1N2/1P3PPP/2R3K1 b - - 3 25",
             "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
         }) {
        INFO(fen);
        const auto pos = Position::fromFen(fen);
        REQUIRE(pos);
        const eval::Explanation explanation = eval::explain(*pos);
        CHECK(explanation.moverScore == evaluator.evaluate(*pos));
        CHECK(explanation.whiteScore ==
              (pos->sideToMove() == White ? explanation.moverScore : -explanation.moverScore));
        REQUIRE_FALSE(explanation.terms.empty());
        // Whole-centipawn rounding inside the evaluation (see the trace test) is all that differs.
        CHECK(std::abs(sumOfShares(explanation) - explanation.whiteScore) <= 12.0);

        const auto flipped = Position::fromFen(testing::flipFen(fen));
        REQUIRE(flipped);
        const eval::Explanation mirror = eval::explain(*flipped);
        CHECK(mirror.whiteScore == -explanation.whiteScore);
        REQUIRE(mirror.terms.size() == explanation.terms.size());
        for (std::size_t i = 0; i < mirror.terms.size(); ++i) {
            INFO(explanation.terms[i].name);
            CHECK(mirror.terms[i].name == explanation.terms[i].name);
            CHECK(mirror.terms[i].mg == Approx(-explanation.terms[i].mg));
            CHECK(mirror.terms[i].eg == Approx(-explanation.terms[i].eg));
        }
    }
}

TEST_CASE("a known draw gives no term a share of the score", "[eval][explain]") {
    // A lone bishop cannot win: the endgame scale makes it a draw.
    const auto pos = Position::fromFen("4k3/8/8/3b4/8/8/8/4K3 w - - 0 1");
    REQUIRE(pos);
    const eval::Explanation explanation = eval::explain(*pos);
    CHECK(explanation.whiteScore == 0);
    CHECK(explanation.scale == 0);
    for (const eval::TermShare& term : explanation.terms) CHECK(term.blended == 0.0);
    CHECK(eval::formatExplanation(explanation).find("a known draw") != std::string::npos);
}
