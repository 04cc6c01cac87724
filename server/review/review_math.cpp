#include "review/review_math.h"

#include <algorithm>
#include <cmath>

namespace outpost::server::review {

Eval fromSideToMove(bool mate, int value, bool whiteToMove) {
    const int sign = whiteToMove ? 1 : -1;
    if (!mate) return Eval::cp(sign * value);
    if (value == 0) return Eval::checkmated(whiteToMove);
    return Eval::mate(sign * value);
}

double whiteWinProbability(const Eval& eval) {
    if (eval.isMate()) return eval.whiteMates() ? 1.0 : 0.0;
    return 1.0 / (1.0 + std::exp(-kWinCurve * eval.value));
}

int whiteCentipawns(const Eval& eval) {
    if (eval.isMate()) return eval.whiteMates() ? kMateCp : -kMateCp;
    return std::clamp(eval.value, -kMateCp, kMateCp);
}

double moveAccuracy(double winLoss) {
    const double percent = 100.0 * winLoss;
    const double accuracy = kAccuracyScale * std::exp(-kAccuracyDecay * percent) - kAccuracyOffset;
    return std::clamp(accuracy, 0.0, 100.0);
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

namespace {

MoveClass classByLoss(double winLoss) {
    if (winLoss >= kBlunderLoss) return MoveClass::Blunder;
    if (winLoss >= kMistakeLoss) return MoveClass::Mistake;
    if (winLoss >= kInaccuracyLoss) return MoveClass::Inaccuracy;
    return MoveClass::Good;
}

}  // namespace

MoveVerdict judgeMove(const Eval& before, const Eval& after, bool whiteMoved, bool playedBest) {
    MoveVerdict verdict;
    verdict.winBefore = whiteWinProbability(before);
    verdict.winAfter = whiteWinProbability(after);
    const double moverBefore = whiteMoved ? verdict.winBefore : 1.0 - verdict.winBefore;
    const double moverAfter = whiteMoved ? verdict.winAfter : 1.0 - verdict.winAfter;
    verdict.winLoss = std::max(0.0, moverBefore - moverAfter);
    const int sign = whiteMoved ? 1 : -1;
    const int cpDrop = sign * (whiteCentipawns(before) - whiteCentipawns(after));
    verdict.cpLoss = std::clamp(cpDrop, 0, kMateCp);
    verdict.accuracy = moveAccuracy(verdict.winLoss);

    const bool moverMatedBefore = whiteMoved ? before.whiteMates() : before.blackMates();
    const bool moverMatesAfter = whiteMoved ? after.whiteMates() : after.blackMates();
    const bool opponentMatedBefore = whiteMoved ? before.blackMates() : before.whiteMates();
    const bool opponentMatesAfter = whiteMoved ? after.blackMates() : after.whiteMates();
    verdict.moveClass = playedBest ? MoveClass::Best : classByLoss(verdict.winLoss);
    if (moverMatedBefore && !moverMatesAfter) {
        verdict.missedMate = true;
        verdict.moveClass = std::max(verdict.moveClass, MoveClass::Mistake);
    }
    if (opponentMatesAfter && !opponentMatedBefore) {
        verdict.walkedIntoMate = true;
        verdict.moveClass = MoveClass::Blunder;
    }
    return verdict;
}

SideSummary summarize(const std::vector<MoveVerdict>& moves) {
    SideSummary summary;
    double accuracySum = 0;
    double cpLossSum = 0;
    for (const MoveVerdict& move : moves) {
        ++summary.moves;
        accuracySum += move.accuracy;
        cpLossSum += move.cpLoss;
        summary.inaccuracies += move.moveClass == MoveClass::Inaccuracy;
        summary.mistakes += move.moveClass == MoveClass::Mistake;
        summary.blunders += move.moveClass == MoveClass::Blunder;
    }
    if (summary.moves > 0) {
        summary.accuracy = accuracySum / summary.moves;
        summary.acpl = cpLossSum / summary.moves;
    }
    return summary;
}

}  // namespace outpost::server::review
