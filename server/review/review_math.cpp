#include "review/review_math.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace outpost::server::review {

namespace {

constexpr double kPercent = 100.0;

// Lichess's judgement of a drop of winning chances (lila's CpAdvice).
MoveClass classByDrop(double drop) {
    if (drop >= kBlunderDrop) return MoveClass::Blunder;
    if (drop >= kMistakeDrop) return MoveClass::Mistake;
    if (drop >= kInaccuracyDrop) return MoveClass::Inaccuracy;
    return MoveClass::Good;
}

// A forced mate appeared or went away (lila's MateAdvice). `decidedCp`: how far from level the
// centipawn side of the move was (the mover's deficit before a mate against him appeared, his
// advantage left after his own mate went away); the more decided, the less the move changed.
MoveClass classByMateCp(int decidedCp) {
    if (decidedCp > kMateDecidedCp) return MoveClass::Inaccuracy;
    if (decidedCp > kMateBadCp) return MoveClass::Mistake;
    return MoveClass::Blunder;
}

// Population standard deviation of values[begin, end).
double standardDeviation(const std::vector<double>& values, std::size_t begin, std::size_t end) {
    const double count = static_cast<double>(end - begin);
    double sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += values[i];
    const double mean = sum / count;
    double squares = 0;
    for (std::size_t i = begin; i < end; ++i) squares += (values[i] - mean) * (values[i] - mean);
    return std::sqrt(squares / count);
}

struct WeightedMove {
    double accuracy = 0;
    double weight = 0;
};

std::optional<double> sideAccuracy(const std::vector<WeightedMove>& moves) {
    if (moves.empty()) return std::nullopt;
    double weighted = 0;
    double weights = 0;
    double inverses = 0;
    for (const WeightedMove& move : moves) {
        weighted += move.accuracy * move.weight;
        weights += move.weight;
        inverses += 1.0 / std::max(kHarmonicFloor, move.accuracy);
    }
    const double weightedMean = weighted / weights;  // every weight is >= kMinWeight
    const double harmonicMean = static_cast<double>(moves.size()) / inverses;
    return (weightedMean + harmonicMean) / 2;
}

}  // namespace

Eval fromSideToMove(bool mate, int value, bool whiteToMove) {
    const int sign = whiteToMove ? 1 : -1;
    if (!mate) return Eval::cp(sign * value);
    if (value == 0) return Eval::checkmated(whiteToMove);
    return Eval::mate(sign * value);
}

double winningChances(double centipawns) {
    const double chances = 2.0 / (1.0 + std::exp(-kWinCurve * centipawns)) - 1.0;
    return std::clamp(chances, -1.0, 1.0);
}

int whiteCentipawns(const Eval& eval) {
    if (eval.isMate()) return eval.whiteMates() ? kCpCeiling : -kCpCeiling;
    return std::clamp(eval.value, -kCpCeiling, kCpCeiling);
}

double whiteWinPercent(const Eval& eval) {
    return kPercent / 2 + kPercent / 2 * winningChances(whiteCentipawns(eval));
}

double moveAccuracy(double moverWinBefore, double moverWinAfter) {
    if (moverWinAfter >= moverWinBefore) return kPercent;
    const double drop = moverWinBefore - moverWinAfter;
    const double accuracy =
        kAccuracyScale * std::exp(-kAccuracyDecay * drop) - kAccuracyOffset + kAccuracyBonus;
    return std::clamp(accuracy, 0.0, kPercent);
}

const char* toString(MoveClass moveClass) {
    switch (moveClass) {
        case MoveClass::Best:
            return "best";
        case MoveClass::Good:
            return "good";
        case MoveClass::Inaccuracy:
            return "inaccuracy";
        case MoveClass::Mistake:
            return "mistake";
        case MoveClass::Blunder:
            return "blunder";
    }
    return "good";
}

MoveVerdict judgeMove(const Eval& before, const Eval& after, bool whiteMoved, bool playedBest) {
    MoveVerdict verdict;
    const double whiteBefore = whiteWinPercent(before);
    const double whiteAfter = whiteWinPercent(after);
    verdict.winBefore = whiteBefore / kPercent;
    verdict.winAfter = whiteAfter / kPercent;
    const double moverBefore = whiteMoved ? whiteBefore : kPercent - whiteBefore;
    const double moverAfter = whiteMoved ? whiteAfter : kPercent - whiteAfter;
    verdict.winLoss = std::max(0.0, moverBefore - moverAfter) / kPercent;
    verdict.accuracy = moveAccuracy(moverBefore, moverAfter);
    const int sign = whiteMoved ? 1 : -1;
    const int cpDrop = sign * (whiteCentipawns(before) - whiteCentipawns(after));
    verdict.cpLoss = std::clamp(cpDrop, 0, kCpCeiling);

    const bool moverMatesBefore = whiteMoved ? before.whiteMates() : before.blackMates();
    const bool moverMatesAfter = whiteMoved ? after.whiteMates() : after.blackMates();
    const bool opponentMatesBefore = whiteMoved ? before.blackMates() : before.whiteMates();
    const bool opponentMatesAfter = whiteMoved ? after.blackMates() : after.whiteMates();
    verdict.missedMate = moverMatesBefore && !moverMatesAfter;
    verdict.walkedIntoMate = opponentMatesAfter && !opponentMatesBefore;

    if (playedBest) {
        // Lichess judges only a move that is not its engine's choice.
        verdict.moveClass = MoveClass::Best;
    } else if (!before.isMate() && !after.isMate()) {
        const double drop = sign * (winningChances(before.value) - winningChances(after.value));
        verdict.moveClass = classByDrop(drop);
    } else if (!before.isMate() && opponentMatesAfter) {
        // A mate against the mover appears: how bad depends on how lost it was before.
        verdict.moveClass = classByMateCp(-sign * before.value);
    } else if (moverMatesBefore && !after.isMate()) {
        // The mover's mate is gone: how bad depends on what is left.
        verdict.moveClass = classByMateCp(sign * after.value);
    } else if (moverMatesBefore && opponentMatesAfter) {
        verdict.moveClass = MoveClass::Blunder;
    }
    // Otherwise a mate on the board goes on (longer or shorter), or one is found: no judgement.
    return verdict;
}

GameAccuracy gameAccuracy(const std::vector<double>& whiteWinPercents, bool whiteMovesFirst) {
    GameAccuracy result;
    const std::size_t positions = whiteWinPercents.size();
    if (positions < 2) return result;
    const std::size_t moves = positions - 1;
    const std::size_t window =
        std::clamp<std::size_t>(moves / kMovesPerWindowPosition, kMinWindow, kMaxWindow);
    // One window per move: the first window - 2 moves reuse the game's first window, then it
    // slides one position per move (window <= positions, so this gives `moves` windows).
    std::vector<double> weights;
    weights.reserve(moves);
    const std::size_t firstWindowEnd = std::min(window, positions);
    for (std::size_t i = 0; i + kMinWindow < firstWindowEnd; ++i) {
        weights.push_back(standardDeviation(whiteWinPercents, 0, firstWindowEnd));
    }
    for (std::size_t begin = 0; begin + window <= positions; ++begin) {
        weights.push_back(standardDeviation(whiteWinPercents, begin, begin + window));
    }
    std::vector<WeightedMove> white;
    std::vector<WeightedMove> black;
    for (std::size_t i = 0; i < moves && i < weights.size(); ++i) {
        const bool whiteMoved = (i % 2 == 0) == whiteMovesFirst;
        const double before = whiteWinPercents[i];
        const double after = whiteWinPercents[i + 1];
        const double accuracy = whiteMoved ? moveAccuracy(before, after)
                                           : moveAccuracy(kPercent - before, kPercent - after);
        const double weight = std::clamp(weights[i], kMinWeight, kMaxWeight);
        (whiteMoved ? white : black).push_back({accuracy, weight});
    }
    result.white = sideAccuracy(white);
    result.black = sideAccuracy(black);
    return result;
}

SideSummary summarize(const std::vector<MoveVerdict>& moves, std::optional<double> accuracy) {
    SideSummary summary;
    double cpLossSum = 0;
    for (const MoveVerdict& move : moves) {
        ++summary.moves;
        cpLossSum += move.cpLoss;
        summary.inaccuracies += move.moveClass == MoveClass::Inaccuracy;
        summary.mistakes += move.moveClass == MoveClass::Mistake;
        summary.blunders += move.moveClass == MoveClass::Blunder;
    }
    if (summary.moves > 0) summary.acpl = cpLossSum / summary.moves;
    if (accuracy) summary.accuracy = *accuracy;
    return summary;
}

}  // namespace outpost::server::review
