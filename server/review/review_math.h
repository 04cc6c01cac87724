// The arithmetic of a game review, pure and without chess: scores in White's view, Lichess's
// win percent, the judgement of one move (lila's Advice) and accuracy (lila's AccuracyPercent).
// docs/review.md has the formulas and thresholds; tests/server/test_review_math.cpp checks them
// against numbers worked out by hand.
#pragma once

#include <optional>
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
    bool isCheckmate() const { return isMate() && value == 0; }
    // A forced mate for White (resp. Black).
    bool whiteMates() const { return isMate() && (value > 0 || (value == 0 && !whiteMated)); }
    bool blackMates() const { return isMate() && !whiteMates(); }
};

// From a search score in the side to move's view.
Eval fromSideToMove(bool mate, int value, bool whiteToMove);

// Lichess's logistic curve (lila PR 11148): winningChances(cp) = 2 / (1 + exp(-k * cp)) - 1.
inline constexpr double kWinCurve = 0.00368208;
// Centipawns are capped at this for win percents, accuracy and centipawn loss; a mate counts as
// this many centipawns (lila's Cp.CEILING).
inline constexpr int kCpCeiling = 1000;
// Judgement thresholds on the mover's drop of winning chances (the -1..1 scale; half of it in
// win probability): lila's CpAdvice.
inline constexpr double kInaccuracyDrop = 0.1;
inline constexpr double kMistakeDrop = 0.2;
inline constexpr double kBlunderDrop = 0.3;
// A mate created or lost: the judgement by the mover's centipawns on the other side of the
// move (lila's MateAdvice): beyond kMateDecidedCp already decided (inaccuracy), beyond
// kMateBadCp bad (mistake), otherwise a blunder.
inline constexpr int kMateDecidedCp = 999;
inline constexpr int kMateBadCp = 700;
// Per move accuracy: a * exp(-k * drop) - c + bonus, clamped to 0..100, where drop is the
// mover's loss in win percent (lila's AccuracyPercent.fromWinPercents, constants as fitted).
inline constexpr double kAccuracyScale = 103.1668100711649;
inline constexpr double kAccuracyDecay = 0.04354415386753951;
inline constexpr double kAccuracyOffset = 3.166924740191411;
// Lichess's allowance for an imperfect analysis: one point added to every move that lost.
inline constexpr double kAccuracyBonus = 1.0;
// Game accuracy (lila's gameAccuracy): volatility windows of moves / 10 positions, at least 2
// and at most 8, one per move (docs/review.md says which); each window's standard deviation of
// win percents, clamped to 0.5..12, is its move's weight.
inline constexpr int kMovesPerWindowPosition = 10;
inline constexpr int kMinWindow = 2;
inline constexpr int kMaxWindow = 8;
inline constexpr double kMinWeight = 0.5;
inline constexpr double kMaxWeight = 12.0;
// The harmonic mean counts an accuracy below this as this (no division by zero).
inline constexpr double kHarmonicFloor = 1.0;

// Winning chances -1..1 from centipawns in White's view, not capped (lila judges moves so).
double winningChances(double centipawns);
// White's win percent, 0..100: centipawns capped at +-kCpCeiling, a mate as +-kCpCeiling.
double whiteWinPercent(const Eval& eval);
// Centipawns in White's view, mates as +-kCpCeiling, capped at +-kCpCeiling.
int whiteCentipawns(const Eval& eval);
// Accuracy in percent of a move from the mover's win percents before and after it.
double moveAccuracy(double moverWinBefore, double moverWinAfter);

// "good" is no judgement: Lichess leaves such a move unmarked (a small loss, or a position that
// was decided before and after the move).
enum class MoveClass { Best, Good, Inaccuracy, Mistake, Blunder };
const char* toString(MoveClass moveClass);

struct MoveVerdict {
    double winBefore = 0.5;  // White's win probability (win percent / 100)
    double winAfter = 0.5;
    double winLoss = 0;  // the mover's loss of it, >= 0
    int cpLoss = 0;      // the mover's, 0..kCpCeiling
    MoveClass moveClass = MoveClass::Good;
    bool missedMate = false;      // the mover had a forced mate before and not after
    bool walkedIntoMate = false;  // the opponent mates after, and did not before
    double accuracy = 100;
};

// Judges one move of `whiteMoved`'s from the evaluations before and after it. `playedBest`: the
// move is the engine's best in the position before (Lichess judges only the moves that differ
// from its engine's).
MoveVerdict judgeMove(const Eval& before, const Eval& after, bool whiteMoved, bool playedBest);

// Each side's game accuracy from White's win percents at every position, the first before the
// first move (lila's gameAccuracy: the mean of a volatility-weighted mean and a harmonic mean of
// the side's move accuracies). Nothing for a side without a move.
struct GameAccuracy {
    std::optional<double> white;
    std::optional<double> black;
};
GameAccuracy gameAccuracy(const std::vector<double>& whiteWinPercents, bool whiteMovesFirst);

struct SideSummary {
    int moves = 0;
    double accuracy = 100;  // the game accuracy (100 with no moves)
    int inaccuracies = 0;
    int mistakes = 0;
    int blunders = 0;
    double acpl = 0;  // mean centipawn loss
};

// Counts and acpl from a side's verdicts; the accuracy from gameAccuracy (100 when absent).
SideSummary summarize(const std::vector<MoveVerdict>& moves, std::optional<double> accuracy);

}  // namespace outpost::server::review
