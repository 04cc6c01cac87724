// Evaluation traces for the tuner: how often each weight entered one evaluation.
//
// The evaluation is linear in its weights apart from the phase blend and the endgame scale, both
// of which the trace records, so the tuner can re-evaluate a position for any weights as
//   mg = sum(coef[i] * w[i].mg), eg = sum(coef[i] * w[i].eg),
//   white = (mg * phase + eg * (24 - phase) * scale / 64) / 24, negated when Black is to move
// (and zero when scale is kScaleDraw).
// King-danger terms enter with fractional coefficients (the attacker-count scaling).
#pragma once

#include <array>

#include "eval/weights.h"

namespace outpost {
class Position;
}

namespace outpost::eval {

inline constexpr int kPhaseMax = 24;
inline constexpr int kScaleNormal = 64;
inline constexpr int kScaleDraw = 0;  // a known draw: the whole score is zero

// The evaluation's phase blend of White-minus-Black middlegame and endgame sums, with the endgame
// part scaled, in double precision (the evaluation itself rounds to whole centipawns); 0 for a
// known draw. Used to rescore traces: the tuner, `eval`'s term table, the trace test.
inline double blendPhases(double mg, double eg, int phase, int scale) {
    if (scale == kScaleDraw) return 0;
    return (mg * phase + eg * (kPhaseMax - phase) * scale / kScaleNormal) / kPhaseMax;
}

struct EvalTrace {
    std::array<double, kNumWeights> coef{};  // White's count minus Black's
    int phase = 0;                           // kPhaseMax = all pieces on the board
    int scale = kScaleNormal;                // endgame scale, of kScaleNormal
    bool whiteToMove = true;
};

// Evaluates like Evaluator::evaluate (same score, side to move's view) and fills the trace.
int evaluateWithTrace(const Position& pos, EvalTrace& trace);

}  // namespace outpost::eval
