// The static evaluation: a classical hand-written evaluation with tapered weights.
//
// One pass computes, for both colours, the attack maps of every piece kind (pawns and king first,
// then pieces with their mobility), and then the terms that need the complete maps: king safety,
// threats and passed pawns. Material, piece-square tables and pawn structure need no attacks.
// Everything is added through Terms, which (in the tuner's build of a trace) also counts how often
// each weight was used. The middlegame and endgame sums are blended by the game phase, the endgame
// part scaled down for drawish material (endgame.h), and the result is seen from the side to move.
#include "eval/evaluate.h"

#include <algorithm>
#include <bit>

#include "core/bitboard.h"
#include "core/position.h"
#include "eval/endgame.h"
#include "eval/kpk.h"
#include "eval/masks.h"
#include "eval/nnue.h"
#include "eval/pawns.h"
#include "eval/terms.h"
#include "eval/trace.h"
#include "eval/weight_values.h"

namespace outpost {

namespace eval {
namespace {

// Phase weight of each piece kind (indexed like PieceType); 24 = all pieces on the board.
constexpr int kPhaseWeight[PieceTypeCount] = {0, 0, 1, 1, 2, 4, 0};

// King danger is scaled by the number of enemy pieces bearing on the king zone: one attacker is
// rarely dangerous, three or more usually are.
constexpr int kKingAttackScale[8] = {0, 20, 50, 75, 88, 94, 97, 100};
// Without the queen the attack is much weaker.
constexpr int kNoQueenAttackPercent = 45;
// Mobility and king-distance counts saturate here.
constexpr int kMaxKingDistance = 5;

constexpr int wIndex(PieceType pt) {
    return pt - Pawn;
}  // index into the WeightPiece tables

template <bool kTrace>
class Evaluation {
  public:
    Evaluation(const Position& pos, PawnTable* pawnTable, EvalTrace* trace)
        : pos_(pos), pawnTable_(pawnTable), terms_(trace) {}

    int run();

  private:
    void initialise(Color us);
    void materialAndPlacement(Color us);
    template <PieceType Pt>
    void pieces(Color us);
    void kingSafety(Color us);
    void passedPawns(Color us);
    void threats(Color us);
    int phase() const;

    const Position& pos_;
    PawnTable* pawnTable_;
    Terms<kTrace> terms_;
    PawnEntry traceEntry_;  // used instead of the table when tracing
    const PawnEntry* pawnEntry_ = nullptr;

    Bitboard attackedBy_[ColorCount][PieceTypeCount] = {};  // [c][NoPieceType] = all
    Bitboard attackedBy2_[ColorCount] = {};                 // squares attacked at least twice
    Bitboard mobilityArea_[ColorCount] = {};
    Bitboard kingZone_[ColorCount] = {};
    int kingAttackers_[ColorCount] = {};  // indexed by the defending colour
    int kingAttackersOfType_[ColorCount][PieceTypeCount] = {};
    int kingZoneAttacks_[ColorCount] = {};
};

template <bool kTrace>
int Evaluation<kTrace>::run() {
    const Bitboard whitePawns = pos_.pieces(White, Pawn);
    const Bitboard blackPawns = pos_.pieces(Black, Pawn);
    if constexpr (kTrace) {
        evaluatePawnStructure(whitePawns, blackPawns, terms_, traceEntry_);
        pawnEntry_ = &traceEntry_;
    } else {
        pawnEntry_ = &pawnTable_->probe(whitePawns, blackPawns);
        terms_.addCached(pawnEntry_->score);
    }

    initialise(White);
    initialise(Black);
    for (Color c : {White, Black}) {
        materialAndPlacement(c);
        pieces<Knight>(c);
        pieces<Bishop>(c);
        pieces<Rook>(c);
        pieces<Queen>(c);
    }
    for (Color c : {White, Black}) {
        kingSafety(c);
        passedPawns(c);
        threats(c);
    }
    const Color stm = pos_.sideToMove();
    terms_.add(stm, kWeights.tempo);

    const S total = terms_.total();
    const int ph = phase();
    const int scale = endgameScale(pos_, total.eg);
    // A known draw is a draw whatever the middlegame terms say.
    const int white =
        scale == kScaleDraw
            ? 0
            : (total.mg * ph + total.eg * (kPhaseMax - ph) * scale / kScaleNormal) / kPhaseMax;
    if constexpr (kTrace) {
        EvalTrace* t = terms_.trace();
        t->phase = ph;
        t->scale = scale;
        t->whiteToMove = stm == White;
    }
    const int forMover = stm == White ? white : -white;
    return std::clamp(forMover, -kEvalLimit + 1, kEvalLimit - 1);
}

template <bool kTrace>
int Evaluation<kTrace>::phase() const {
    int ph = 0;
    for (PieceType pt : {Knight, Bishop, Rook, Queen})
        ph += kPhaseWeight[pt] * std::popcount(pos_.pieces(White, pt) | pos_.pieces(Black, pt));
    return std::min(ph, kPhaseMax);
}

template <bool kTrace>
void Evaluation<kTrace>::initialise(Color us) {
    const Color them = ~us;
    const Bitboard ourPawns = pos_.pieces(us, Pawn);
    const Square ksq = pos_.kingSquare(us);

    const Bitboard pawnAttacks = pawnAttacksOf(us, ourPawns);
    // Squares attacked by two pawns at once.
    const Bitboard pawnDouble = pawnDoubleAttacksOf(us, ourPawns);
    attackedBy_[us][Pawn] = pawnAttacks;
    attackedBy_[us][King] = kingAttacks(ksq);
    attackedBy_[us][NoPieceType] = pawnAttacks | attackedBy_[us][King];
    attackedBy2_[us] = pawnDouble | (pawnAttacks & attackedBy_[us][King]);

    // Mobility counts squares that are neither blocked by our own pawns or king nor attacked by
    // enemy pawns (a piece going there would just be chased away).
    const Bitboard theirPawnAttacks = pawnAttacksOf(them, pos_.pieces(them, Pawn));
    mobilityArea_[us] = ~(ourPawns | pos_.pieces(us, King) | theirPawnAttacks);

    // The king zone: the king's square and neighbours, plus the next rank towards the enemy.
    Bitboard zone = attackedBy_[us][King] | squareBB(ksq);
    zone |= pushUp(us, zone);
    kingZone_[us] = zone;
}

template <bool kTrace>
void Evaluation<kTrace>::materialAndPlacement(Color us) {
    for (PieceType pt : {Pawn, Knight, Bishop, Rook, Queen, King}) {
        const S& value = kWeights.pieceValue[wIndex(pt)];
        for (Bitboard b = pos_.pieces(us, pt); b; b &= b - 1) {
            const Square sq = lsb(b);
            if (pt != King) terms_.add(us, value);
            terms_.add(us, kWeights.psqt[wIndex(pt)][relativeSquare(us, sq)]);
        }
    }
    if (std::popcount(pos_.pieces(us, Bishop)) >= 2) terms_.add(us, kWeights.bishopPair);
}

template <bool kTrace>
template <PieceType Pt>
void Evaluation<kTrace>::pieces(Color us) {
    const Color them = ~us;
    const Bitboard occupied = pos_.pieces();
    const Bitboard ourPawns = pos_.pieces(us, Pawn);
    const Bitboard theirPawns = pos_.pieces(them, Pawn);
    const Bitboard allPawns = ourPawns | theirPawns;

    for (Bitboard b = pos_.pieces(us, Pt); b; b &= b - 1) {
        const Square sq = lsb(b);
        Bitboard attacks;
        if constexpr (Pt == Knight) {
            attacks = knightAttacks(sq);
        } else if constexpr (Pt == Bishop) {
            // Bishops see through their own queen (a battery counts as one line).
            attacks = bishopAttacks(sq, occupied ^ pos_.pieces(us, Queen));
        } else if constexpr (Pt == Rook) {
            // Rooks see through their own queen and rooks (doubled rooks support each other).
            attacks = rookAttacks(sq, occupied ^ pos_.pieces(us, Queen) ^ pos_.pieces(us, Rook));
        } else {
            attacks = bishopAttacks(sq, occupied) | rookAttacks(sq, occupied);
        }

        attackedBy2_[us] |= attackedBy_[us][NoPieceType] & attacks;
        attackedBy_[us][Pt] |= attacks;
        attackedBy_[us][NoPieceType] |= attacks;

        if (attacks & kingZone_[them]) {
            ++kingAttackers_[them];
            ++kingAttackersOfType_[them][Pt];
            kingZoneAttacks_[them] += std::popcount(attacks & attackedBy_[them][King]);
        }

        const int mobility = std::popcount(attacks & mobilityArea_[us]);
        const int relRank = relativeRank(us, sq);
        if constexpr (Pt == Knight || Pt == Bishop) {
            if constexpr (Pt == Knight)
                terms_.add(us, kWeights.knightMobility[mobility]);
            else
                terms_.add(us, kWeights.bishopMobility[mobility]);

            // An outpost: in the enemy half, defended by a pawn, and no enemy pawn can ever
            // attack the square.
            const bool outpost = relRank >= 3 && relRank <= 5 &&
                                 (attackedBy_[us][Pawn] & squareBB(sq)) != 0 &&
                                 (theirPawns & kAttackSpan[us][sq]) == 0;
            if (outpost)
                terms_.add(us, Pt == Knight ? kWeights.knightOutpost : kWeights.bishopOutpost);
            if (pushUp(us, squareBB(sq)) & allPawns) terms_.add(us, kWeights.minorBehindPawn);
            if constexpr (Pt == Bishop) {
                const Bitboard sameColour =
                    (kDarkSquares & squareBB(sq)) ? kDarkSquares : ~kDarkSquares;
                terms_.add(us, kWeights.bishopPawnsOnColour, std::popcount(ourPawns & sameColour));
            }
        } else if constexpr (Pt == Rook) {
            terms_.add(us, kWeights.rookMobility[mobility]);
            const Bitboard file = fileBB(fileOf(sq));
            if ((allPawns & file) == 0)
                terms_.add(us, kWeights.rookOpenFile);
            else if ((ourPawns & file) == 0)
                terms_.add(us, kWeights.rookSemiOpenFile);
            if (relRank == 6 &&
                ((theirPawns & rankBB(rankOf(sq))) || relativeRank(us, pos_.kingSquare(them)) == 7))
                terms_.add(us, kWeights.rookOnSeventh);
        } else {
            terms_.add(us, kWeights.queenMobility[mobility]);
            if ((allPawns & fileBB(fileOf(sq))) == 0) terms_.add(us, kWeights.queenOpenFile);
        }
    }
}

template <bool kTrace>
void Evaluation<kTrace>::kingSafety(Color us) {
    const Color them = ~us;
    const Square ksq = pos_.kingSquare(us);
    const Bitboard ourPawns = pos_.pieces(us, Pawn);
    const Bitboard theirPawns = pos_.pieces(them, Pawn);
    const Bitboard allPawns = ourPawns | theirPawns;

    // Pawn shelter and storm on the king's file and its neighbours (a king on the edge looks at
    // the two files next to it as well).
    const int centreFile = std::clamp(fileOf(ksq), 1, 6);
    const Bitboard ahead = ranksAhead(us, ksq);
    for (int f = centreFile - 1; f <= centreFile + 1; ++f) {
        const Bitboard file = fileBB(f);
        const Bitboard shelter = ourPawns & file & ahead;
        const Bitboard storm = theirPawns & file & ahead;
        auto nearest = [&](Bitboard b) { return us == White ? lsb(b) : msb(b); };
        const int shelterRank = shelter ? relativeRank(us, nearest(shelter)) : 0;
        const int stormRank = storm ? relativeRank(us, nearest(storm)) : 0;
        terms_.add(us, kWeights.kingShelter[shelterRank]);
        terms_.add(us, kWeights.kingStorm[stormRank]);
        if ((allPawns & file) == 0) terms_.add(us, kWeights.kingOpenFile);
    }

    // Openness: the squares the king could reach in front of it if it moved like a queen, with
    // only pawns in the way.
    const Bitboard queenView = (bishopAttacks(ksq, allPawns) | rookAttacks(ksq, allPawns)) & ahead;
    terms_.add(us, kWeights.kingQueenOpenness, std::popcount(queenView));

    // Attack on the king, scored for the attacker.
    const int attackers = kingAttackers_[us];
    if (attackers == 0) return;
    int percent = kKingAttackScale[std::min(attackers, 7)];
    if (pos_.pieces(them, Queen) == 0) percent = percent * kNoQueenAttackPercent / 100;

    for (PieceType pt : {Knight, Bishop, Rook, Queen})
        if (kingAttackersOfType_[us][pt])
            terms_.addScaled(them, kWeights.kingAttackerWeight[wIndex(pt)],
                             kingAttackersOfType_[us][pt], percent);
    terms_.addScaled(them, kWeights.kingZoneAttacks, kingZoneAttacks_[us], percent);

    // Zone squares we defend at most with the king or queen while the enemy attacks them.
    const Bitboard weak =
        attackedBy_[them][NoPieceType] & ~attackedBy2_[us] &
        (~attackedBy_[us][NoPieceType] | attackedBy_[us][King] | attackedBy_[us][Queen]);
    terms_.addScaled(them, kWeights.kingWeakZone, std::popcount(weak & kingZone_[us]), percent);

    // Checks the enemy could give on squares we do not guard (or guard only weakly).
    const Bitboard occupied = pos_.pieces();
    const Bitboard safe =
        ~pos_.pieces(them) & (~attackedBy_[us][NoPieceType] | (weak & attackedBy2_[them]));
    const Bitboard rookLines = rookAttacks(ksq, occupied);
    const Bitboard bishopLines = bishopAttacks(ksq, occupied);
    const Bitboard checks[PieceTypeCount] = {0,
                                             0,
                                             knightAttacks(ksq) & attackedBy_[them][Knight],
                                             bishopLines & attackedBy_[them][Bishop],
                                             rookLines & attackedBy_[them][Rook],
                                             (rookLines | bishopLines) & attackedBy_[them][Queen],
                                             0};
    for (PieceType pt : {Knight, Bishop, Rook, Queen})
        if (checks[pt] & safe)
            terms_.addScaled(them, kWeights.kingSafeCheck[wIndex(pt)], 1, percent);
}

template <bool kTrace>
void Evaluation<kTrace>::passedPawns(Color us) {
    const Color them = ~us;
    const Bitboard occupied = pos_.pieces();
    const Square ourKing = pos_.kingSquare(us);
    const Square theirKing = pos_.kingSquare(them);
    const bool pawnEnding =
        (pos_.pieces(them) & ~pos_.pieces(them, Pawn) & ~pos_.pieces(them, King)) == 0;

    for (Bitboard b = pawnEntry_->passed[us]; b; b &= b - 1) {
        const Square sq = lsb(b);
        const int rank = relativeRank(us, sq);
        const Square stop = Square(sq + pawnPush(us));
        const Bitboard path = kForwardFile[us][sq];

        if ((occupied & squareBB(stop)) == 0) terms_.add(us, kWeights.passedFreeStop[rank]);
        if ((path & (pos_.pieces(them) | attackedBy_[them][NoPieceType])) == 0)
            terms_.add(us, kWeights.passedSafePath[rank]);
        terms_.add(us, kWeights.passedOwnKingDist[rank],
                   std::min(distance(ourKing, stop), kMaxKingDistance));
        terms_.add(us, kWeights.passedEnemyKingDist[rank],
                   std::min(distance(theirKing, stop), kMaxKingDistance));

        // The rule of the square: with only pawns against it, a king that cannot catch the pawn
        // loses the race (the path must be clear of every piece).
        if (pawnEnding && (path & occupied) == 0) {
            const Square queening = makeSquare(fileOf(sq), us == White ? Rank8 : Rank1);
            const int pawnSteps = std::min(7 - rank, 5);  // a pawn on its start rank jumps
            const int kingSteps =
                distance(theirKing, queening) - (pos_.sideToMove() == them ? 1 : 0);
            if (kingSteps > pawnSteps) terms_.add(us, kWeights.passedUnstoppable);
        }
    }
}

template <bool kTrace>
void Evaluation<kTrace>::threats(Color us) {
    const Color them = ~us;
    const Bitboard theirPieces = pos_.pieces(them) & ~pos_.pieces(them, King);
    const Bitboard theirNonPawns = theirPieces & ~pos_.pieces(them, Pawn);

    auto victims = [&](Bitboard targets, const S* table) {
        for (Bitboard b = targets; b; b &= b - 1) {
            const Square sq = lsb(b);
            terms_.add(us, table[wIndex(typeOf(pos_.pieceOn(sq)))]);
        }
    };

    victims(theirNonPawns & attackedBy_[us][Pawn], kWeights.threatByPawn);

    // Strongly protected: defended by a pawn, or by two pieces when we attack only once.
    const Bitboard stronglyProtected =
        attackedBy_[them][Pawn] | (attackedBy2_[them] & ~attackedBy2_[us]);
    const Bitboard weak = theirPieces & ~stronglyProtected & attackedBy_[us][NoPieceType];
    const Bitboard minorTargets = theirNonPawns | weak;
    victims(minorTargets & (attackedBy_[us][Knight] | attackedBy_[us][Bishop]),
            kWeights.threatByMinor);
    victims((pos_.pieces(them, Queen) | weak) & attackedBy_[us][Rook], kWeights.threatByRook);
    if (weak & attackedBy_[us][King]) terms_.add(us, kWeights.threatByKing);

    const Bitboard hanging =
        weak & (~attackedBy_[them][NoPieceType] | (theirNonPawns & attackedBy2_[us]));
    terms_.add(us, kWeights.hangingPiece, std::popcount(hanging));

    // Safe pawn pushes that would attack a piece next move.
    const Bitboard empty = ~pos_.pieces();
    Bitboard pushes = pushUp(us, pos_.pieces(us, Pawn)) & empty;
    pushes &=
        ~attackedBy_[them][Pawn] & (attackedBy_[us][NoPieceType] | ~attackedBy_[them][NoPieceType]);
    terms_.add(us, kWeights.pawnPushThreat,
               std::popcount(pawnAttacksOf(us, pushes) & theirNonPawns));
}

}  // namespace

// The network's score, with the known draws of the endgame rules (king and pawn against king
// from the bitbase, a minor piece up without pawns, two knights, the wrong rook pawn) scored as
// draws: the data shows the network too few of them to learn what the rules know exactly. Each
// of those draws has at most three pieces besides kings and pawns, so other positions skip the
// check.
int networkEvaluation(const Position& pos, nnue::AccumulatorStack& network) {
    constexpr int kMaxPiecesForKnownDraw = 3;
    const int score = network.evaluate(pos);
    const Bitboard pieces = pos.pieces() & ~pos.pieces(Pawn, King);
    if (std::popcount(pieces) <= kMaxPiecesForKnownDraw &&
        endgameScale(pos, pos.sideToMove() == White ? score : -score) == kScaleDraw)
        return 0;
    return std::clamp(score, -kEvalLimit + 1, kEvalLimit - 1);
}

}  // namespace eval

struct Evaluator::Impl {
    eval::PawnTable pawns;
    std::unique_ptr<nnue::AccumulatorStack> network;  // set while the network is in use
};

// The first evaluator builds the king-and-pawn table, so no search pays for it mid-game.
Evaluator::Evaluator() : impl_(std::make_unique<Impl>()) {
    eval::kpkPrepare();
}
Evaluator::~Evaluator() = default;

int Evaluator::evaluate(const Position& pos) {
    if (impl_->network) return eval::networkEvaluation(pos, *impl_->network);
    return eval::Evaluation<false>(pos, &impl_->pawns, nullptr).run();
}

void Evaluator::clear() {
    impl_->pawns.clear();
    if (impl_->network) impl_->network->clear();
}

void Evaluator::useNetwork(bool on) {
    if (!on) {
        impl_->network.reset();
    } else if (!impl_->network) {
        if (const nnue::Network* net = nnue::embeddedNetwork())
            impl_->network = std::make_unique<nnue::AccumulatorStack>(*net);
    }
}

bool Evaluator::usingNetwork() const {
    return impl_->network != nullptr;
}

namespace eval {
int evaluateWithTrace(const Position& pos, EvalTrace& trace) {
    trace = EvalTrace{};
    return Evaluation<true>(pos, nullptr, &trace).run();
}
}  // namespace eval

}  // namespace outpost
