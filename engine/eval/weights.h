// The evaluation's parameter table: every weight of the evaluation is a named member of Weights.
//
// Each weight is a tapered pair (middlegame, endgame) in centipawns. The values live in
// weight_values.h, which tools/tuner rewrites after a fit; this header only fixes the layout and
// names, so the tuner can address every weight by index (Weights is an array of S in disguise)
// and print the table back with the same names.
#pragma once

#include <cstddef>
#include <type_traits>

namespace outpost::eval {

// A tapered score: a middlegame and an endgame value, blended by the game phase at the end.
struct S {
    int mg = 0;
    int eg = 0;
    constexpr S() = default;
    constexpr S(int m, int e) : mg(m), eg(e) {}
    constexpr S& operator+=(S o) {
        mg += o.mg;
        eg += o.eg;
        return *this;
    }
    constexpr S& operator-=(S o) {
        mg -= o.mg;
        eg -= o.eg;
        return *this;
    }
    friend constexpr S operator+(S a, S b) { return a += b; }
    friend constexpr S operator-(S a, S b) { return a -= b; }
    friend constexpr S operator-(S a) { return S(-a.mg, -a.eg); }
    friend constexpr S operator*(S a, int k) { return S(a.mg * k, a.eg * k); }
    friend constexpr bool operator==(S a, S b) = default;
};

// Piece kinds in the order the tables use (independent of the core's enum values).
enum WeightPiece { kWPawn, kWKnight, kWBishop, kWRook, kWQueen, kWKing, kWPieceCount };

inline constexpr int kMaxKnightMoves = 8;
inline constexpr int kMaxBishopMoves = 13;
inline constexpr int kMaxRookMoves = 14;
inline constexpr int kMaxQueenMoves = 27;

struct Weights {
    // Material. The king's entry stays zero (it is never traded).
    S pieceValue[kWPieceCount];
    // Piece-square tables from White's side, a1 = 0, h8 = 63; Black reads them mirrored.
    S psqt[kWPieceCount][64];

    // Mobility: indexed by the number of reachable squares in the mobility area.
    S knightMobility[kMaxKnightMoves + 1];
    S bishopMobility[kMaxBishopMoves + 1];
    S rookMobility[kMaxRookMoves + 1];
    S queenMobility[kMaxQueenMoves + 1];

    // Pieces.
    S bishopPair;
    S bishopPawnsOnColour;  // per own pawn on the bishop's square colour
    S knightOutpost;        // on an outpost square (no enemy pawn can chase it, a pawn defends it)
    S bishopOutpost;
    S minorBehindPawn;  // a pawn directly in front shields the minor piece
    S rookOpenFile;
    S rookSemiOpenFile;
    S rookOnSeventh;  // with the enemy king on the eighth or enemy pawns on the seventh
    S queenOpenFile;

    // Pawn structure (cached in the pawn hash table).
    S pawnIsolated;
    S pawnDoubled;
    S pawnBackward;
    S pawnConnected[8];  // by relative rank: defended by a pawn, or side by side with one
    S passedPawn[8];     // by relative rank

    // Passed pawns, the dynamic part (needs attacks and kings, so not cached).
    S passedFreeStop[8];       // by rank: the square in front is empty
    S passedSafePath[8];       // by rank: no enemy piece occupies or attacks the path to queen
    S passedOwnKingDist[8];    // by rank, per square of own king distance to the stop square
    S passedEnemyKingDist[8];  // by rank, per square of enemy king distance to the stop square
    S passedUnstoppable;       // pawn endgame, the enemy king is outside the pawn's square

    // King safety. The attack terms are summed into "danger units" and scaled by the number of
    // attackers (kKingAttackScale in evaluate.cpp), so a lone attacker counts for little.
    S kingAttackerWeight[kWPieceCount];  // per attacker of this kind on the king zone
    S kingZoneAttacks;                   // per attack on a king-zone square
    S kingSafeCheck[kWPieceCount];       // a check this kind of piece could give safely
    S kingWeakZone;                      // king-zone square attacked and defended only by the king
    S kingShelter[8];     // own pawn on a file near the king, by relative rank (0: none)
    S kingStorm[8];       // enemy pawn on a file near the king, by relative rank (0: none)
    S kingOpenFile;       // a file next to or at the king without any pawn
    S kingQueenOpenness;  // per square the king could reach moving as a queen over pawns

    // Threats.
    S threatByPawn[kWPieceCount];   // victim attacked by an enemy pawn
    S threatByMinor[kWPieceCount];  // victim attacked by an enemy knight or bishop
    S threatByRook[kWPieceCount];   // victim attacked by an enemy rook
    S threatByKing;                 // undefended piece or pawn attacked by the enemy king
    S hangingPiece;                 // attacked and not defended
    S pawnPushThreat;               // a safe pawn push would attack a piece

    S tempo;  // the side to move gets this
};

static_assert(std::is_standard_layout_v<Weights>);
static_assert(sizeof(Weights) % sizeof(S) == 0, "Weights must be an array of S in disguise");

inline constexpr std::size_t kNumWeights = sizeof(Weights) / sizeof(S);

// A named run of weights, for the tuner: its name, first index, number of entries, how many to
// print on one line, and (for two-dimensional members) the size of each inner array.
struct WeightGroup {
    const char* name;
    std::size_t first;
    std::size_t count;
    std::size_t perLine;
    std::size_t block;  // 0: a flat array or a single weight
};

#define OUTPOST_WEIGHT_GROUP(member, perLine, block)                                         \
    WeightGroup {                                                                            \
#member, offsetof(Weights, member) / sizeof(S), sizeof(Weights::member) / sizeof(S), \
            perLine, block                                                                   \
    }

// Every member in declaration order; tests check that the groups tile Weights exactly.
inline constexpr WeightGroup kWeightGroups[] = {
    OUTPOST_WEIGHT_GROUP(pieceValue, 6, 0),        OUTPOST_WEIGHT_GROUP(psqt, 8, 64),
    OUTPOST_WEIGHT_GROUP(knightMobility, 9, 0),    OUTPOST_WEIGHT_GROUP(bishopMobility, 7, 0),
    OUTPOST_WEIGHT_GROUP(rookMobility, 8, 0),      OUTPOST_WEIGHT_GROUP(queenMobility, 7, 0),
    OUTPOST_WEIGHT_GROUP(bishopPair, 1, 0),        OUTPOST_WEIGHT_GROUP(bishopPawnsOnColour, 1, 0),
    OUTPOST_WEIGHT_GROUP(knightOutpost, 1, 0),     OUTPOST_WEIGHT_GROUP(bishopOutpost, 1, 0),
    OUTPOST_WEIGHT_GROUP(minorBehindPawn, 1, 0),   OUTPOST_WEIGHT_GROUP(rookOpenFile, 1, 0),
    OUTPOST_WEIGHT_GROUP(rookSemiOpenFile, 1, 0),  OUTPOST_WEIGHT_GROUP(rookOnSeventh, 1, 0),
    OUTPOST_WEIGHT_GROUP(queenOpenFile, 1, 0),     OUTPOST_WEIGHT_GROUP(pawnIsolated, 1, 0),
    OUTPOST_WEIGHT_GROUP(pawnDoubled, 1, 0),       OUTPOST_WEIGHT_GROUP(pawnBackward, 1, 0),
    OUTPOST_WEIGHT_GROUP(pawnConnected, 8, 0),     OUTPOST_WEIGHT_GROUP(passedPawn, 8, 0),
    OUTPOST_WEIGHT_GROUP(passedFreeStop, 8, 0),    OUTPOST_WEIGHT_GROUP(passedSafePath, 8, 0),
    OUTPOST_WEIGHT_GROUP(passedOwnKingDist, 8, 0), OUTPOST_WEIGHT_GROUP(passedEnemyKingDist, 8, 0),
    OUTPOST_WEIGHT_GROUP(passedUnstoppable, 1, 0), OUTPOST_WEIGHT_GROUP(kingAttackerWeight, 6, 0),
    OUTPOST_WEIGHT_GROUP(kingZoneAttacks, 1, 0),   OUTPOST_WEIGHT_GROUP(kingSafeCheck, 6, 0),
    OUTPOST_WEIGHT_GROUP(kingWeakZone, 1, 0),      OUTPOST_WEIGHT_GROUP(kingShelter, 8, 0),
    OUTPOST_WEIGHT_GROUP(kingStorm, 8, 0),         OUTPOST_WEIGHT_GROUP(kingOpenFile, 1, 0),
    OUTPOST_WEIGHT_GROUP(kingQueenOpenness, 1, 0), OUTPOST_WEIGHT_GROUP(threatByPawn, 6, 0),
    OUTPOST_WEIGHT_GROUP(threatByMinor, 6, 0),     OUTPOST_WEIGHT_GROUP(threatByRook, 6, 0),
    OUTPOST_WEIGHT_GROUP(threatByKing, 1, 0),      OUTPOST_WEIGHT_GROUP(hangingPiece, 1, 0),
    OUTPOST_WEIGHT_GROUP(pawnPushThreat, 1, 0),    OUTPOST_WEIGHT_GROUP(tempo, 1, 0),
};

#undef OUTPOST_WEIGHT_GROUP

}  // namespace outpost::eval
