// The review's arithmetic (docs/review.md), Lichess's formulas: win percent, the judgement of a
// move (thresholds, mates, the engine's own move), accuracy per move and per game. The expected
// numbers were worked out by hand or with a few lines of Python written from the formulas in
// docs/review.md (not from this code); the small cases say how.
#include <catch2/catch.hpp>
#include <cmath>

#include "review/review_math.h"

using namespace outpost::server::review;
using Catch::Detail::Approx;

namespace {

MoveClass classOf(int cpBefore, int cpAfter, bool whiteMoved = true) {
    return judgeMove(Eval::cp(cpBefore), Eval::cp(cpAfter), whiteMoved, false).moveClass;
}

// White's win percents of these centipawn scores (the input of gameAccuracy).
std::vector<double> percents(std::initializer_list<int> centipawns) {
    std::vector<double> out;
    for (int cp : centipawns) out.push_back(whiteWinPercent(Eval::cp(cp)));
    return out;
}

}  // namespace

TEST_CASE("review math: win percent follows Lichess's curve, capped at 1000 cp", "[review]") {
    CHECK(whiteWinPercent(Eval::cp(0)) == Approx(50.0));
    // 50 + 50 * (2 / (1 + exp(-0.00368208 * 300)) - 1) = 100 / (1 + exp(-1.104624)).
    CHECK(whiteWinPercent(Eval::cp(300)) == Approx(75.11255009383484));
    CHECK(whiteWinPercent(Eval::cp(-300)) == Approx(100.0 - 75.11255009383484));
    // Capped: 5000 cp is 1000 cp, 100 / (1 + exp(-3.68208)) = 97.5447...
    CHECK(whiteWinPercent(Eval::cp(5000)) == Approx(97.54474363414323));
    CHECK(whiteWinPercent(Eval::cp(1000)) == Approx(97.54474363414323));
    // A mate counts as the cap, not as certainty.
    CHECK(whiteWinPercent(Eval::mate(3)) == Approx(97.54474363414323));
    CHECK(whiteWinPercent(Eval::mate(-2)) == Approx(2.4552563658567763));
    // A checkmate on the board: the side to move lost.
    CHECK(whiteWinPercent(Eval::checkmated(true)) == Approx(2.4552563658567763));
    CHECK(whiteWinPercent(Eval::checkmated(false)) == Approx(97.54474363414323));
    // Winning chances themselves are not capped (the judgement uses them so).
    CHECK(winningChances(2000) > winningChances(1000));
    // Search scores are in the side to move's view.
    CHECK(fromSideToMove(false, 120, false).value == -120);
    CHECK(fromSideToMove(true, 2, false).blackMates());
    CHECK(fromSideToMove(true, -2, false).whiteMates());
}

TEST_CASE("review math: classes by the mover's drop of winning chances (0.1, 0.2, 0.3)",
          "[review]") {
    // From 0 cp: winningChances(-100) = -0.182, (-150) = -0.269, (-170) = -0.303.
    CHECK(classOf(0, -20) == MoveClass::Good);
    CHECK(classOf(0, -100) == MoveClass::Inaccuracy);
    CHECK(classOf(0, -150) == MoveClass::Mistake);
    CHECK(classOf(0, -170) == MoveClass::Blunder);
    // The same drops for Black (White's chances rise).
    CHECK(classOf(0, 100, false) == MoveClass::Inaccuracy);
    CHECK(classOf(0, 170, false) == MoveClass::Blunder);
    // Hanging the queen at -9: winningChances(-900) = -0.9298, (-1800) = -0.9973, a drop of
    // 0.068: the game was lost and stays lost, Lichess leaves the move unmarked.
    const MoveVerdict hung = judgeMove(Eval::cp(-900), Eval::cp(-1800), true, false);
    CHECK(hung.moveClass == MoveClass::Good);
    CHECK(std::string(toString(hung.moveClass)) == "good");
    // Uncapped: +20 to +4 loses 0.372 of winning chances (a blunder), capped it would be 0.324.
    CHECK(classOf(2000, 400) == MoveClass::Blunder);
    CHECK(classOf(1200, 700) == MoveClass::Inaccuracy);  // 0.975 -> 0.857: 0.118
    // A gain is no loss.
    const MoveVerdict gain = judgeMove(Eval::cp(0), Eval::cp(200), true, false);
    CHECK(gain.winLoss == 0.0);
    CHECK(gain.cpLoss == 0);
    CHECK(gain.accuracy == 100.0);
    // The engine's own move is not judged, whatever the (noisy) difference says.
    CHECK(judgeMove(Eval::cp(0), Eval::cp(-200), true, true).moveClass == MoveClass::Best);
    // Centipawn loss is the mover's, capped at 1000.
    CHECK(judgeMove(Eval::cp(100), Eval::cp(-50), true, false).cpLoss == 150);
    CHECK(judgeMove(Eval::cp(-100), Eval::cp(50), false, false).cpLoss == 150);
    CHECK(judgeMove(Eval::cp(900), Eval::mate(-1), true, false).cpLoss == 1000);
}

TEST_CASE("review math: mates created and lost, by how decided the position was", "[review]") {
    // Walking into a mate: a blunder from a level position, a mistake below -7, an
    // inaccuracy below -9.99 (already lost).
    MoveVerdict walked = judgeMove(Eval::cp(0), Eval::mate(1), false, false);
    CHECK(walked.walkedIntoMate);
    CHECK(walked.moveClass == MoveClass::Blunder);
    CHECK(judgeMove(Eval::cp(-900), Eval::mate(-4), true, false).moveClass == MoveClass::Mistake);
    CHECK(judgeMove(Eval::cp(-1200), Eval::mate(-4), true, false).moveClass ==
          MoveClass::Inaccuracy);
    CHECK(judgeMove(Eval::cp(900), Eval::mate(3), false, false).moveClass == MoveClass::Mistake);
    // Losing one's own mate: by what is left.
    MoveVerdict missed = judgeMove(Eval::mate(2), Eval::cp(300), true, false);
    CHECK(missed.missedMate);
    CHECK(missed.moveClass == MoveClass::Blunder);
    CHECK(judgeMove(Eval::mate(2), Eval::cp(800), true, false).moveClass == MoveClass::Mistake);
    CHECK(judgeMove(Eval::mate(2), Eval::cp(1200), true, false).moveClass == MoveClass::Inaccuracy);
    CHECK(judgeMove(Eval::mate(-2), Eval::cp(-800), false, false).moveClass == MoveClass::Mistake);
    // From one's own mate to the opponent's.
    MoveVerdict turned = judgeMove(Eval::mate(2), Eval::mate(-3), true, false);
    CHECK(turned.missedMate);
    CHECK(turned.walkedIntoMate);
    CHECK(turned.moveClass == MoveClass::Blunder);
    // Mate in 2 kept as mate in 4, or delivered: not judged.
    CHECK(judgeMove(Eval::mate(2), Eval::mate(4), true, false).moveClass == MoveClass::Good);
    MoveVerdict mated = judgeMove(Eval::mate(1), Eval::checkmated(false), true, false);
    CHECK_FALSE(mated.missedMate);
    CHECK(mated.moveClass == MoveClass::Good);
    // Already mated: a shorter defence is not judged, nor finding a mate from a score.
    MoveVerdict lost = judgeMove(Eval::mate(-5), Eval::mate(-1), true, false);
    CHECK_FALSE(lost.walkedIntoMate);
    CHECK(lost.moveClass == MoveClass::Good);
    CHECK(judgeMove(Eval::cp(300), Eval::mate(4), true, false).moveClass == MoveClass::Good);
    // The engine's own move into a mate (the only move, say) is not judged either.
    CHECK(judgeMove(Eval::cp(0), Eval::mate(-2), true, true).moveClass == MoveClass::Best);
}

TEST_CASE("review math: a move's accuracy, with the one point allowance", "[review]") {
    // 103.1668100711649 * exp(-0.04354415386753951 * 10) - 3.166924740191411 + 1.
    CHECK(moveAccuracy(60, 50) == Approx(64.57982845372067));
    CHECK(moveAccuracy(55, 50) == Approx(80.81529992041436));
    CHECK(moveAccuracy(50, 50) == 100.0);     // no loss
    CHECK(moveAccuracy(50, 60) == 100.0);     // a gain
    CHECK(moveAccuracy(50, 49.99) == 100.0);  // a tiny loss: 101 with the allowance, clamped
    CHECK(moveAccuracy(100, 0) == 0.0);       // clamped
    // judgeMove gives the mover's: Black from +100 (White 59.10) to +60 (White 55.50).
    const MoveVerdict black = judgeMove(Eval::cp(100), Eval::cp(60), false, false);
    CHECK(black.accuracy == 100.0);
    const MoveVerdict white = judgeMove(Eval::cp(100), Eval::cp(60), true, false);
    CHECK(white.accuracy == Approx(86.02441566054755));
}

TEST_CASE("review math: game accuracy, a volatility-weighted mean and a harmonic mean",
          "[review]") {
    // One move a side: both means are the move's accuracy.
    const GameAccuracy two = gameAccuracy(percents({15, -50, 100}), true);
    REQUIRE(two.white);
    REQUIRE(two.black);
    CHECK(*two.white ==
          Approx(moveAccuracy(whiteWinPercent(Eval::cp(15)), whiteWinPercent(Eval::cp(-50)))));
    CHECK(*two.black == Approx(54.666832799158485));
    // Four moves, window 2: each move's weight is half its own swing in win percent. White:
    // accuracies 77.383 (weight 2.985) and 86.024 (1.801): weighted 80.635, harmonic 81.475,
    // their mean 81.055. Black: 54.667 (6.846) and 41.753 (9.806).
    const GameAccuracy four = gameAccuracy(percents({15, -50, 100, 60, 300}), true);
    CHECK(*four.white == Approx(81.05498357187307));
    CHECK(*four.black == Approx(47.203696643744486));
    // A game from a position with Black to move: Black's moves are the even ones.
    const GameAccuracy blackFirst = gameAccuracy(percents({40, 120, -30, 0}), false);
    CHECK(*blackFirst.white == Approx(54.824227408394535));
    CHECK(*blackFirst.black == Approx(79.09996108602547));
    // 31 moves: windows of 3 positions, the first move weighed by the first window.
    const GameAccuracy long31 = gameAccuracy(
        percents({15,    -15,   -95,   -95,   -35,   -235,  -435,  -285,  -265,  -465,  -495,
                  -475,  -675,  -655,  -735,  -935,  -1135, -1135, -1135, -1335, -1415, -1615,
                  -1595, -1595, -1795, -1645, -1625, -1825, -1905, -1845, -1785, -1765}),
        true);
    CHECK(*long31.white == Approx(84.69981874654417));
    CHECK(*long31.black == Approx(97.9562878597792));
    // No move: no accuracy (the summary then says 100).
    CHECK_FALSE(gameAccuracy(percents({15}), true).white);
    CHECK_FALSE(gameAccuracy(percents({15, 30}), true).black);
}

TEST_CASE("review math: a side's summary counts its judged moves", "[review]") {
    std::vector<MoveVerdict> moves = {
        judgeMove(Eval::cp(0), Eval::cp(0), true, true),          // best
        judgeMove(Eval::cp(0), Eval::cp(-100), true, false),      // inaccuracy
        judgeMove(Eval::cp(0), Eval::cp(-170), true, false),      // blunder
        judgeMove(Eval::cp(-900), Eval::cp(-1800), true, false),  // unmarked
    };
    SideSummary side = summarize(moves, 72.5);
    CHECK(side.moves == 4);
    CHECK(side.inaccuracies == 1);
    CHECK(side.mistakes == 0);
    CHECK(side.blunders == 1);
    CHECK(side.accuracy == 72.5);
    CHECK(side.acpl == Approx((0 + 100 + 170 + 100) / 4.0));
    CHECK(summarize({}, std::nullopt).accuracy == 100.0);
}
