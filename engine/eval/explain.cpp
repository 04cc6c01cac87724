#include "eval/explain.h"

#include <cmath>
#include <cstdio>

#include "core/position.h"
#include "eval/terms.h"
#include "eval/trace.h"

namespace outpost::eval {

namespace {
// Groups whose coefficients cancel to less than this are left out of the table.
constexpr double kNegligibleCoef = 1e-9;
}  // namespace

Explanation explain(const Position& pos) {
    EvalTrace trace;
    Explanation result;
    result.moverScore = evaluateWithTrace(pos, trace);
    result.whiteScore = trace.whiteToMove ? result.moverScore : -result.moverScore;
    result.phase = trace.phase;
    result.scale = trace.scale;

    const S* weights = weightArray();
    for (const WeightGroup& group : kWeightGroups) {
        TermShare share{group.name, 0, 0, 0};
        bool used = false;
        for (std::size_t i = group.first; i < group.first + group.count; ++i) {
            if (std::abs(trace.coef[i]) < kNegligibleCoef) continue;
            used = true;
            share.mg += trace.coef[i] * weights[i].mg;
            share.eg += trace.coef[i] * weights[i].eg;
        }
        if (!used) continue;
        // A known draw scores 0 whatever the terms say, so no term has a share of it.
        share.blended = blendPhases(share.mg, share.eg, trace.phase, trace.scale);
        result.terms.push_back(std::move(share));
    }
    return result;
}

std::string formatExplanation(const Explanation& explanation) {
    std::string out =
        "term                        mg       eg    total  (centipawns, White's view)\n";
    char line[128];
    for (const TermShare& term : explanation.terms) {
        std::snprintf(line, sizeof line, "%-22s %8.1f %8.1f %8.1f\n", term.name.c_str(), term.mg,
                      term.eg, term.blended);
        out += line;
    }
    std::snprintf(line, sizeof line, "phase %d/%d, endgame scale %d/%d%s\n", explanation.phase,
                  kPhaseMax, explanation.scale, kScaleNormal,
                  explanation.scale == kScaleDraw ? " (a known draw: the score is 0)" : "");
    out += line;
    std::snprintf(line, sizeof line, "evaluation: %+d cp for White, %+d cp for the side to move",
                  explanation.whiteScore, explanation.moverScore);
    out += line;
    return out;
}

}  // namespace outpost::eval
