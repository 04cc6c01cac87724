// Static-evaluation correction history: what searches have found the static evaluation to miss,
// by pawn structure (and, with correctionHistoryExtended, by each side's non-pawn pieces and by
// material: one table per key, the search adds their corrections with weights).
//
// Each search of a node compares its result with the static eval it started from; where the
// bound says the eval was too high (or too low), the entry of the node's pawn structure (and side
// to move) moves towards the difference, weighted by depth. Later static evals of positions with
// that pawn structure are corrected by the entry. Pawn structures are where a hand-made (or small
// network) evaluation is most systematically wrong, and they repeat across a search.
//
// Where several tables correct one eval together, each is updated toward its own correction plus
// what the combined correction still missed (the residual), so together they converge on the
// error instead of each taking all of it: update() with `staticEval` = the corrected eval minus
// this table's correction.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/types.h"

namespace outpost::search {

class CorrectionHistory {
  public:
    // The correction in centipawns for a position of this key with `side` to move.
    int correction(Color side, Key key) const { return entry(side, key) / kGrain; }

    // After a search of `depth` that found `searched` where the static eval was `staticEval`.
    void update(Color side, Key key, int depth, int searched, int staticEval) {
        std::int32_t& e = entry(side, key);
        const int target = std::clamp((searched - staticEval) * kGrain, -kLimit, kLimit);
        const int weight = std::min(depth + 1, kMaxWeight);
        e = (e * (kWeightScale - weight) + target * weight) / kWeightScale;
    }
    void clear() {
        for (auto& bySide : table_) bySide.fill(0);
    }

  private:
    static constexpr int kSize = 16384;         // entries per side (pawn keys modulo this)
    static constexpr int kGrain = 256;          // entries hold centipawns x kGrain
    static constexpr int kLimit = 64 * kGrain;  // never correct by more than 64 cp
    static constexpr int kMaxWeight = 16;       // a deep search moves an entry 16/256 of the way
    static constexpr int kWeightScale = 256;

    std::int32_t& entry(Color side, Key k) { return table_[side][k % kSize]; }
    std::int32_t entry(Color side, Key k) const { return table_[side][k % kSize]; }

    std::array<std::array<std::int32_t, kSize>, ColorCount> table_{};
};

}  // namespace outpost::search
