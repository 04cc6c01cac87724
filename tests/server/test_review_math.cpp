// The review's arithmetic (docs/review.md): win probability, classes at their thresholds,
// mates (missed, walked into), accuracy and the per-side summary.
#include <catch2/catch.hpp>

#include "review/review_math.h"

using namespace outpost::server::review;
using Catch::Detail::Approx;

namespace {

// A centipawn score for White that gives White this win probability.
int cpForWin(double win) {
    return static_cast<int>(std::lround(-std::log(1.0 / win - 1.0) / kWinCurve));
}

}  // namespace

TEST_CASE("review math: win probability follows the logistic curve, mates are certain",
          "[review]") {
    CHECK(whiteWinProbability(Eval::cp(0)) == Approx(0.5));
    CHECK(whiteWinProbability(Eval::cp(300)) == Approx(1.0 / (1.0 + std::exp(-0.00368208 * 300))));
    CHECK(whiteWinProbability(Eval::cp(-300)) == Approx(1.0 - whiteWinProbability(Eval::cp(300))));
    CHECK(whiteWinProbability(Eval::mate(3)) == 1.0);
    CHECK(whiteWinProbability(Eval::mate(-2)) == 0.0);
    // A checkmate on the board: the side to move lost.
    CHECK(whiteWinProbability(Eval::checkmated(true)) == 0.0);
    CHECK(whiteWinProbability(Eval::checkmated(false)) == 1.0);
    // Search scores are in the side to move's view.
    CHECK(fromSideToMove(false, 120, false).value == -120);
    CHECK(fromSideToMove(true, 2, false).blackMates());
    CHECK(fromSideToMove(true, -2, false).whiteMates());
}

TEST_CASE("review math: classes by the mover's loss of win probability", "[review]") {
    const Eval even = Eval::cp(0);
    auto classAfter = [&](double whiteWinAfter) {
        return judgeMove(even, Eval::cp(cpForWin(whiteWinAfter)), true, false).moveClass;
    };
    CHECK(classAfter(0.48) == MoveClass::Good);
    CHECK(classAfter(0.44) == MoveClass::Inaccuracy);
    CHECK(classAfter(0.39) == MoveClass::Mistake);
    CHECK(classAfter(0.30) == MoveClass::Blunder);
    // The same drop for Black (White's probability rises).
    CHECK(judgeMove(even, Eval::cp(cpForWin(0.70)), false, false).moveClass == MoveClass::Blunder);
    // A gain is no loss.
    MoveVerdict gain = judgeMove(even, Eval::cp(200), true, false);
    CHECK(gain.winLoss == 0.0);
    CHECK(gain.cpLoss == 0);
    CHECK(gain.accuracy == Approx(100.0));
    // The engine's own move is "best" whatever the (noisy) difference says.
    CHECK(judgeMove(even, Eval::cp(-40), true, true).moveClass == MoveClass::Best);
    // Centipawn loss is the mover's, clipped to 1000.
    CHECK(judgeMove(Eval::cp(100), Eval::cp(-50), true, false).cpLoss == 150);
    CHECK(judgeMove(Eval::cp(-100), Eval::cp(50), false, false).cpLoss == 150);
    CHECK(judgeMove(Eval::cp(900), Eval::mate(-1), true, false).cpLoss == 1000);
}

TEST_CASE("review math: missed mates and moves into mate", "[review]") {
    // White had mate in 2, played a move that keeps a big advantage but no mate.
    MoveVerdict missed = judgeMove(Eval::mate(2), Eval::cp(900), true, false);
    CHECK(missed.missedMate);
    CHECK(missed.moveClass >= MoveClass::Mistake);
    // Mate in 2 kept as mate in 1: no miss.
    CHECK_FALSE(judgeMove(Eval::mate(2), Eval::mate(1), true, false).missedMate);
    // Delivering mate is no miss either (the position after is checkmate for Black).
    MoveVerdict mated = judgeMove(Eval::mate(1), Eval::checkmated(false), true, true);
    CHECK_FALSE(mated.missedMate);
    CHECK(mated.moveClass == MoveClass::Best);
    // Black walks into a mate from a level position.
    MoveVerdict walked = judgeMove(Eval::cp(0), Eval::mate(1), false, false);
    CHECK(walked.walkedIntoMate);
    CHECK(walked.moveClass == MoveClass::Blunder);
    // Already mated: a longer defence is no blunder.
    MoveVerdict lost = judgeMove(Eval::mate(-3), Eval::mate(-5), true, false);
    CHECK_FALSE(lost.walkedIntoMate);
    CHECK(lost.moveClass == MoveClass::Good);
}

TEST_CASE("review math: accuracy per move and per side", "[review]") {
    CHECK(moveAccuracy(0.0) == Approx(100.0).margin(0.001));
    CHECK(moveAccuracy(0.10) == Approx(103.1668 * std::exp(-0.4354) - 3.1669));
    CHECK(moveAccuracy(1.0) == 0.0);  // clamped
    std::vector<MoveVerdict> moves = {
        judgeMove(Eval::cp(0), Eval::cp(0), true, true),                // best
        judgeMove(Eval::cp(0), Eval::cp(cpForWin(0.44)), true, false),  // inaccuracy
        judgeMove(Eval::cp(0), Eval::cp(cpForWin(0.30)), true, false),  // blunder
    };
    SideSummary side = summarize(moves);
    CHECK(side.moves == 3);
    CHECK(side.inaccuracies == 1);
    CHECK(side.mistakes == 0);
    CHECK(side.blunders == 1);
    CHECK(side.accuracy == Approx((moves[0].accuracy + moves[1].accuracy + moves[2].accuracy) / 3));
    CHECK(side.acpl == Approx((moves[1].cpLoss + moves[2].cpLoss) / 3.0));
    CHECK(summarize({}).accuracy == 100.0);
}
