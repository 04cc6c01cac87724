#include "core/movegen.h"

namespace outpost {

namespace {

// Where generated moves go: a list, or just a count (perft's bulk counting at the leaves).
struct ListSink {
    MoveList& list;
    void add(Square from, Bitboard targets) {
        while (targets) list.push(Move(from, popLsb(targets)));
    }
    void addPawnMoves(Bitboard targets, int delta) {
        while (targets) {
            const Square to = popLsb(targets);
            list.push(Move(Square(to - delta), to));
        }
    }
    void addPromotion(Square from, Square to) {
        // Queen first: move pickers that keep generation order try the likely best first.
        list.push(Move::make(from, to, MoveKind::Promotion, Queen));
        list.push(Move::make(from, to, MoveKind::Promotion, Rook));
        list.push(Move::make(from, to, MoveKind::Promotion, Bishop));
        list.push(Move::make(from, to, MoveKind::Promotion, Knight));
    }
    void addPromotions(Bitboard targets, int delta) {
        while (targets) {
            const Square to = popLsb(targets);
            addPromotion(Square(to - delta), to);
        }
    }
    void addMove(Move m) { list.push(m); }
};

struct CountSink {
    int count = 0;
    void add(Square, Bitboard targets) { count += popcount(targets); }
    void addPawnMoves(Bitboard targets, int) { count += popcount(targets); }
    void addPromotion(Square, Square) { count += 4; }
    void addPromotions(Bitboard targets, int) { count += 4 * popcount(targets); }
    void addMove(Move) { ++count; }
};

// Is square s attacked by color `by` when the board holds `occupied`?
template <Color By>
inline bool attacked(const Position& pos, Square s, Bitboard occupied) {
    return (pawnAttacks(~By, s) & pos.pieces(By, Pawn)) ||
           (knightAttacks(s) & pos.pieces(By, Knight)) || (kingAttacks(s) & pos.pieces(By, King)) ||
           (bishopAttacks(s, occupied) & pos.pieces(By, Bishop, Queen)) ||
           (rookAttacks(s, occupied) & pos.pieces(By, Rook, Queen));
}

// Is the en-passant capture from `from` legal? Checked on the board after the capture, which
// covers the pinned capturing pawn, the horizontal pin through both pawns and evasions alike.
template <Color Us>
inline bool epIsLegal(const Position& pos, Square from, Square to) {
    constexpr Color Them = ~Us;
    const Square captured = Square(to - pawnPush(Us));
    const Square ksq = pos.kingSquare(Us);
    const Bitboard occupied = (pos.pieces() ^ squareBB(from) ^ squareBB(captured)) | squareBB(to);
    return !(rookAttacks(ksq, occupied) & pos.pieces(Them, Rook, Queen)) &&
           !(bishopAttacks(ksq, occupied) & pos.pieces(Them, Bishop, Queen)) &&
           !(knightAttacks(ksq) & pos.pieces(Them, Knight)) &&
           !(pawnAttacks(Us, ksq) & pos.pieces(Them, Pawn) & ~squareBB(captured));
}

template <GenType T, Color Us, class Sink>
void generateAll(const Position& pos, Sink& sink) {
    constexpr Color Them = ~Us;
    constexpr bool kCaptures = T != GenType::Quiets;
    constexpr bool kQuiets = T != GenType::Captures;
    constexpr Direction Up = Us == White ? North : South;
    constexpr Direction UpLeft = Us == White ? NorthWest : SouthEast;
    constexpr Direction UpRight = Us == White ? NorthEast : SouthWest;
    constexpr Bitboard kRank7 = Us == White ? rankBB(Rank7) : rankBB(Rank2);
    constexpr Bitboard kRank3 = Us == White ? rankBB(Rank3) : rankBB(Rank6);

    const Square ksq = pos.kingSquare(Us);
    const Bitboard occupied = pos.pieces();
    const Bitboard ours = pos.pieces(Us);
    const Bitboard theirs = pos.pieces(Them);
    const Bitboard empty = ~occupied;
    const Bitboard checkers = pos.checkers();

    // Which destination squares the kind asks for.
    Bitboard kindMask = 0;
    if constexpr (kCaptures) kindMask |= theirs;
    if constexpr (kQuiets) kindMask |= empty;

    // King moves: the king must not step onto an attacked square; it is removed from the
    // occupancy so a slider's ray through its current square counts.
    {
        Bitboard targets = kingAttacks(ksq) & kindMask;
        const Bitboard occWithoutKing = occupied ^ squareBB(ksq);
        while (targets) {
            const Square to = popLsb(targets);
            if (!attacked<Them>(pos, to, occWithoutKing)) sink.addMove(Move(ksq, to));
        }
    }
    if (moreThanOne(checkers)) return;  // double check: only the king can move

    // Non-king moves must land on the check mask: capture the checker or block its ray.
    const Bitboard checkMask = checkers ? (betweenBB(ksq, lsb(checkers)) | checkers) : ~Bitboard(0);
    const Bitboard targetMask = kindMask & checkMask;
    // A pinned piece can never resolve a check, so in check the pinned pieces stay put.
    const Bitboard pinned = pos.pinned(Us);
    const Bitboard movable = checkers ? ours & ~pinned : ours;

    for (Bitboard b = pos.pieces(Us, Knight) & ~pinned; b;) {
        const Square from = popLsb(b);
        sink.add(from, knightAttacks(from) & targetMask);
    }
    for (Bitboard b = pos.pieces(Us, Bishop, Queen) & movable; b;) {
        const Square from = popLsb(b);
        Bitboard targets = bishopAttacks(from, occupied) & targetMask;
        if (pinned & squareBB(from)) targets &= lineBB(ksq, from);
        sink.add(from, targets);
    }
    for (Bitboard b = pos.pieces(Us, Rook, Queen) & movable; b;) {
        const Square from = popLsb(b);
        Bitboard targets = rookAttacks(from, occupied) & targetMask;
        if (pinned & squareBB(from)) targets &= lineBB(ksq, from);
        sink.add(from, targets);
    }

    // Pawns, set-wise for the unpinned ones.
    const Bitboard pawns = pos.pieces(Us, Pawn);
    const Bitboard freePawns = pawns & ~pinned;
    const Bitboard enemiesInMask = theirs & checkMask;
    {
        const Bitboard base = freePawns & ~kRank7;
        if constexpr (kQuiets) {
            const Bitboard single = shift<Up>(base) & empty;
            const Bitboard dbl = shift<Up>(single & kRank3) & empty & checkMask;
            sink.addPawnMoves(single & checkMask, Up);
            sink.addPawnMoves(dbl, 2 * Up);
        }
        if constexpr (kCaptures) {
            sink.addPawnMoves(shift<UpLeft>(base) & enemiesInMask, UpLeft);
            sink.addPawnMoves(shift<UpRight>(base) & enemiesInMask, UpRight);
        }
    }
    if constexpr (kCaptures) {
        // Every promotion counts as a capture-like move.
        const Bitboard promoting = freePawns & kRank7;
        if (promoting) {
            sink.addPromotions(shift<Up>(promoting) & empty & checkMask, Up);
            sink.addPromotions(shift<UpLeft>(promoting) & enemiesInMask, UpLeft);
            sink.addPromotions(shift<UpRight>(promoting) & enemiesInMask, UpRight);
        }
        const Square ep = pos.epSquare();
        if (ep != NoSquare) {
            for (Bitboard b = pawnAttacks(Them, ep) & pawns; b;) {
                const Square from = popLsb(b);
                if (epIsLegal<Us>(pos, from, ep))
                    sink.addMove(Move::make(from, ep, MoveKind::EnPassant));
            }
        }
    }
    // Pinned pawns (never when in check): only moves along the pin line.
    if (!checkers) {
        for (Bitboard b = pawns & pinned; b;) {
            const Square from = popLsb(b);
            const Bitboard line = lineBB(ksq, from);
            Bitboard targets = pawnAttacks(Us, from) & theirs & line;
            const Square push = Square(int(from) + int(Up));
            if (isOk(push) && (empty & squareBB(push) & line)) {
                targets |= squareBB(push);
                const Square push2 = Square(int(push) + int(Up));
                if ((squareBB(push) & kRank3) && (empty & squareBB(push2)))
                    targets |= squareBB(push2);
            }
            if (squareBB(from) & kRank7) {
                if constexpr (kCaptures)
                    while (targets) sink.addPromotion(from, popLsb(targets));
            } else {
                if constexpr (!kCaptures) targets &= empty;
                if constexpr (!kQuiets) targets &= theirs;
                sink.add(from, targets);
            }
        }
    }

    // Castling: not out of, through or into check; the path to the rook must be empty.
    if constexpr (kQuiets) {
        if (!checkers) {
            constexpr CastlingRights kKingSide = Us == White ? WhiteKingSide : BlackKingSide;
            constexpr CastlingRights kQueenSide = Us == White ? WhiteQueenSide : BlackQueenSide;
            constexpr Square kE = relativeSquare(Us, E1), kF = relativeSquare(Us, F1),
                             kG = relativeSquare(Us, G1), kD = relativeSquare(Us, D1),
                             kC = relativeSquare(Us, C1), kB = relativeSquare(Us, B1);
            if (pos.canCastle(kKingSide) && !(occupied & (squareBB(kF) | squareBB(kG))) &&
                !attacked<Them>(pos, kF, occupied) && !attacked<Them>(pos, kG, occupied))
                sink.addMove(Move::make(kE, kG, MoveKind::Castling));
            if (pos.canCastle(kQueenSide) &&
                !(occupied & (squareBB(kD) | squareBB(kC) | squareBB(kB))) &&
                !attacked<Them>(pos, kD, occupied) && !attacked<Them>(pos, kC, occupied))
                sink.addMove(Move::make(kE, kC, MoveKind::Castling));
        }
    }
}

template <GenType T, class Sink>
inline void generateFor(const Position& pos, Sink& sink) {
    if (pos.sideToMove() == White)
        generateAll<T, White>(pos, sink);
    else
        generateAll<T, Black>(pos, sink);
}

}  // namespace

template <GenType T>
void generate(const Position& pos, MoveList& list) {
    ListSink sink{list};
    generateFor<T>(pos, sink);
}

template void generate<GenType::Captures>(const Position&, MoveList&);
template void generate<GenType::Quiets>(const Position&, MoveList&);
template void generate<GenType::Evasions>(const Position&, MoveList&);
template void generate<GenType::NonEvasions>(const Position&, MoveList&);
template void generate<GenType::Legal>(const Position&, MoveList&);

int countLegalMoves(const Position& pos) {
    CountSink sink;
    generateFor<GenType::Legal>(pos, sink);
    return sink.count;
}

bool hasLegalMove(const Position& pos) {
    return countLegalMoves(pos) > 0;
}

}  // namespace outpost
