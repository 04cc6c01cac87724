// Pawn structure: the part of the evaluation that depends only on the pawns, cached per search
// thread in a small hash table keyed by the exact pawn placement (so a hit is never a collision).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.h"
#include "eval/terms.h"
#include "eval/weights.h"

namespace outpost::eval {

struct PawnEntry {
    Bitboard whitePawns = 0;  // the key: both pawn sets, compared exactly
    Bitboard blackPawns = 0;
    S score;                               // White minus Black, structure terms only
    Bitboard passed[ColorCount] = {0, 0};  // per colour, for the passed-pawn terms needing attacks
    bool valid = false;
};

// Computes the structure terms of both colours into `terms` and the passed-pawn sets into `entry`.
template <bool kTrace>
void evaluatePawnStructure(Bitboard whitePawns, Bitboard blackPawns, Terms<kTrace>& terms,
                           PawnEntry& entry);

class PawnTable {
  public:
    static constexpr std::size_t kEntries = 8192;  // ~0.5 MB per search thread

    PawnTable() : entries_(kEntries) {}

    // The entry for this pawn placement, computed on a miss.
    const PawnEntry& probe(Bitboard whitePawns, Bitboard blackPawns);
    void clear();

  private:
    std::vector<PawnEntry> entries_;
};

}  // namespace outpost::eval
