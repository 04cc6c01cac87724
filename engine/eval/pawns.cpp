#include "eval/pawns.h"

#include "eval/masks.h"

namespace outpost::eval {

namespace {

template <bool kTrace>
void evaluateColour(Color us, Bitboard ours, Bitboard theirs, Terms<kTrace>& terms,
                    PawnEntry& entry) {
    const Bitboard theirAttacks = pawnAttacksOf(~us, theirs);
    for (Bitboard rest = ours; rest;) {
        const Square sq = popLsb(rest);
        const int file = fileOf(sq);
        const int rank = relativeRank(us, sq);
        const Square stop = Square(sq + pawnPush(us));  // a pawn never stands on its last rank
        const Square behind = Square(sq - pawnPush(us));

        const Bitboard neighbours = ours & adjacentFilesBB(file);
        const Bitboard phalanx = neighbours & rankBB(sq);
        const Bitboard supporters = neighbours & rankBB(behind);
        const bool doubled = (ours & kForwardFile[us][sq]) != 0;
        const bool passed = (theirs & kPassedSpan[us][sq]) == 0 && !doubled;

        if (doubled) terms.add(us, kWeights.pawnDoubled);
        if (neighbours == 0) {
            terms.add(us, kWeights.pawnIsolated);
        } else if ((neighbours & ~ranksAhead(us, sq)) == 0 && (theirAttacks & squareBB(stop))) {
            // Every neighbour has gone ahead, so none can ever defend this pawn, and an enemy
            // pawn guards the square it would advance to.
            terms.add(us, kWeights.pawnBackward);
        }
        if (phalanx | supporters) terms.add(us, kWeights.pawnConnected[rank]);
        if (passed) {
            terms.add(us, kWeights.passedPawn[rank]);
            entry.passed[us] |= squareBB(sq);
        }
    }
}

}  // namespace

template <bool kTrace>
void evaluatePawnStructure(Bitboard whitePawns, Bitboard blackPawns, Terms<kTrace>& terms,
                           PawnEntry& entry) {
    entry.passed[White] = entry.passed[Black] = 0;
    evaluateColour(White, whitePawns, blackPawns, terms, entry);
    evaluateColour(Black, blackPawns, whitePawns, terms, entry);
}

template void evaluatePawnStructure<false>(Bitboard, Bitboard, Terms<false>&, PawnEntry&);
template void evaluatePawnStructure<true>(Bitboard, Bitboard, Terms<true>&, PawnEntry&);

const PawnEntry& PawnTable::probe(Bitboard whitePawns, Bitboard blackPawns) {
    // Multiply-shift hash of both sets; the exact sets are stored, so a hit is never wrong.
    const std::uint64_t h =
        (whitePawns * 0x9E3779B97F4A7C15ULL) ^ (blackPawns * 0xC2B2AE3D27D4EB4FULL);
    PawnEntry& entry = entries_[(h >> 32) % kEntries];
    if (entry.valid && entry.whitePawns == whitePawns && entry.blackPawns == blackPawns)
        return entry;
    Terms<false> terms(nullptr);
    evaluatePawnStructure(whitePawns, blackPawns, terms, entry);
    entry.whitePawns = whitePawns;
    entry.blackPawns = blackPawns;
    entry.score = terms.total();
    entry.valid = true;
    return entry;
}

void PawnTable::clear() {
    for (PawnEntry& e : entries_) e = PawnEntry{};
}

}  // namespace outpost::eval
