// The arithmetic of a game review, pure and without chess: scores in White's view, win
// probabilities, the loss of one move and its class, and a side's accuracy. docs/review.md has
// the formulas and thresholds; tests/server/test_review_math.cpp checks them.
#pragma once

#include <string>
#include <vector>

namespace outpost::server::review {

// A position's evaluation in White's view: centipawns, or a forced mate.
struct Eval {
    enum class Kind { Cp, Mate };
    Kind kind = Kind::Cp;
    // Centipawns, or moves to mate: positive when White mates, negative when Black mates. Zero
    // for a mate is a checkmate on the board; `whiteMated` says who is mated.
    int value = 0;
    bool whiteMated = false;

    static Eval cp(int centipawns) { return {Kind::Cp, centipawns, false}; }
    // White mates in `moves` (> 0), or Black mates in -moves (< 0).
    static Eval mate(int moves) { return {Kind::Mate, moves, false}; }
    // The side to move is checkmated.
    static Eval checkmated(bool whiteToMove) { return {Kind::Mate, 0, whiteToMove}; }

    bool isMate() const { return kind == Kind::Mate; }
    // A forced mate for White (resp. Black).
    bool whiteMates() const { return isMate() && (value > 0 || (value == 0 && !whiteMated)); }
    bool blackMates() const { return isMate() && !whiteMates(); }
};

// From a search score in the side to move's view.
Eval fromSideToMove(bool mate, int value, bool whiteToMove);

// The logistic curve Lichess publishes: win(cp) = 1 / (1 + exp(-k * cp)).
inline constexpr double kWinCurve = 0.00368208;
// A mate counts as this many centipawns in a centipawn loss, and losses are clipped to it.
inline constexpr int kMateCp = 1000;
// winLoss thresholds of the classes.
inline constexpr double kInaccuracyLoss = 0.05;
inline constexpr double kMistakeLoss = 0.10;
inline constexpr double kBlunderLoss = 0.15;
// Per move accuracy: a * exp(-b * lossPercent) - c (clamped to 0..100).
inline constexpr double kAccuracyScale = 103.1668;
inline constexpr double kAccuracyDecay = 0.04354;
inline constexpr double kAccuracyOffset = 3.1669;

// White's win probability, 0..1 (a mate for White is 1, for Black 0).
double whiteWinProbability(const Eval& eval);
// Centipawns in White's view, mates as +-kMateCp, clipped to +-kMateCp.
int whiteCentipawns(const Eval& eval);
// Accuracy in percent of a move that lost `winLoss` (0..1) of win probability.
double moveAccuracy(double winLoss);

enum class MoveClass { Best, Good, Inaccuracy, Mistake, Blunder };
const char* toString(MoveClass moveClass);

struct MoveVerdict {
    double winBefore = 0.5;  // White's
    double winAfter = 0.5;
    double winLoss = 0;  // the mover's, >= 0
    int cpLoss = 0;      // the mover's, 0..kMateCp
    MoveClass moveClass = MoveClass::Good;
    bool missedMate = false;      // the mover had a forced mate before and not after
    bool walkedIntoMate = false;  // the opponent mates after, and did not before
    double accuracy = 100;
};

// Judges one move of `whiteMoved`'s from the evaluations before and after it. `playedBest`: the
// move is the engine's best in the position before.
MoveVerdict judgeMove(const Eval& before, const Eval& after, bool whiteMoved, bool playedBest);

struct SideSummary {
    int moves = 0;
    double accuracy = 100;  // mean of the moves' accuracies (100 with no moves)
    int inaccuracies = 0;
    int mistakes = 0;
    int blunders = 0;
    double acpl = 0;  // mean centipawn loss
};

SideSummary summarize(const std::vector<MoveVerdict>& moves);

}  // namespace outpost::server::review
