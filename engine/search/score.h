// Search score conventions: centipawns from the side to move, mates as kMate - plies.
#pragma once

#include "eval/evaluate.h"

namespace outpost::search {

inline constexpr int kMaxSearchPly = 128;  // deepest ply the search reaches (stack size)
inline constexpr int kInfinity = 32001;
inline constexpr int kMate = 32000;
// Any score beyond this is a mate found inside the tree (|score| = kMate - plies to mate).
inline constexpr int kMateBound = kMate - kMaxSearchPly;
inline constexpr int kDraw = 0;
// Marks "no static evaluation" (in check); outside every real score, still fits the table's 16
// bits.
inline constexpr int kNoEval = kInfinity + 1;
static_assert(kEvalLimit < kMateBound, "evaluation scores must not look like mates");

inline constexpr int matedIn(int ply) {
    return -kMate + ply;
}
inline constexpr int mateIn(int ply) {
    return kMate - ply;
}
inline constexpr bool isMateScore(int score) {
    return score >= kMateBound || score <= -kMateBound;
}

// Mate scores are stored in the table relative to the node (distance from the node to the mate)
// and converted back to the distance from the root when read at another ply.
inline constexpr int scoreToTable(int score, int ply) {
    if (score >= kMateBound) return score + ply;
    if (score <= -kMateBound) return score - ply;
    return score;
}
inline constexpr int scoreFromTable(int score, int ply) {
    if (score >= kMateBound) return score - ply;
    if (score <= -kMateBound) return score + ply;
    return score;
}

}  // namespace outpost::search
