#include "core/see.h"

#include <algorithm>

namespace outpost {

namespace {

// The least valuable piece of color c among `attackers`; NoPieceType if none.
PieceType leastValuable(const Position& pos, Bitboard attackers, Color c, Square& from) {
    for (int pt = Pawn; pt <= King; ++pt) {
        const Bitboard b = attackers & pos.pieces(c, PieceType(pt));
        if (b) {
            from = lsb(b);
            return PieceType(pt);
        }
    }
    return NoPieceType;
}

}  // namespace

int see(const Position& pos, Move m) {
    if (m.isCastling()) return 0;
    const Square from = m.from(), to = m.to();
    const Color us = pos.sideToMove();
    constexpr int kMaxExchanges = 40;
    int gain[kMaxExchanges];

    Bitboard occupied = pos.pieces() ^ squareBB(from);
    int captured = kSeeValue[typeOf(pos.pieceOn(to))];
    if (m.isEnPassant()) {
        captured = kSeeValue[Pawn];
        occupied ^= squareBB(Square(to - pawnPush(us)));
    }
    int onSquare = kSeeValue[typeOf(pos.pieceOn(from))];  // the piece that may be recaptured
    gain[0] = captured;
    if (m.isPromotion()) {
        gain[0] += kSeeValue[m.promotionType()] - kSeeValue[Pawn];
        onSquare = kSeeValue[m.promotionType()];
    }

    const Bitboard diagonal = pos.pieces(Bishop, Queen), straight = pos.pieces(Rook, Queen);
    Bitboard attackers = pos.attackersTo(to, occupied) & occupied;
    Color side = ~us;
    int d = 0;
    while (d + 1 < kMaxExchanges) {
        Square sq = NoSquare;
        const PieceType pt = leastValuable(pos, attackers, side, sq);
        if (pt == NoPieceType) break;
        // A king may only capture last, when nothing defends the square any more.
        if (pt == King && (attackers & pos.pieces(~side) & ~squareBB(sq))) break;
        ++d;
        gain[d] = onSquare - gain[d - 1];
        onSquare = kSeeValue[pt];
        occupied ^= squareBB(sq);
        // Sliders behind the piece that just captured join in.
        if (pt == Pawn || pt == Bishop || pt == Queen)
            attackers |= bishopAttacks(to, occupied) & diagonal;
        if (pt == Rook || pt == Queen) attackers |= rookAttacks(to, occupied) & straight;
        attackers &= occupied;
        side = ~side;
    }
    // Each side may stop capturing when continuing would lose.
    while (d > 0) {
        gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
        --d;
    }
    return gain[0];
}

bool seeGe(const Position& pos, Move m, int threshold) {
    if (m.kind() != MoveKind::Normal) return see(pos, m) >= threshold;
    const Square from = m.from(), to = m.to();

    // Balance after our capture if the opponent does not recapture.
    int balance = kSeeValue[typeOf(pos.pieceOn(to))] - threshold;
    if (balance < 0) return false;
    // Balance if the opponent recaptures and we stop there.
    balance = kSeeValue[typeOf(pos.pieceOn(from))] - balance;
    if (balance <= 0) return true;

    Bitboard occupied = pos.pieces() ^ squareBB(from) ^ squareBB(to);
    Bitboard attackers = pos.attackersTo(to, occupied);
    const Bitboard diagonal = pos.pieces(Bishop, Queen), straight = pos.pieces(Rook, Queen);
    Color side = pos.sideToMove();
    bool result = true;  // true: the side that made the last capture is satisfied
    for (;;) {
        side = ~side;
        attackers &= occupied;
        const Bitboard mine = attackers & pos.pieces(side);
        if (!mine) break;
        result = !result;
        Square sq = NoSquare;
        const PieceType pt = leastValuable(pos, mine, side, sq);
        if (pt == King) {
            // The king may capture only if the square is no longer defended.
            return (attackers & pos.pieces(~side)) ? !result : result;
        }
        balance = kSeeValue[pt] - balance;
        if (balance < int(result)) break;
        occupied ^= squareBB(sq);
        if (pt == Pawn || pt == Bishop || pt == Queen)
            attackers |= bishopAttacks(to, occupied) & diagonal;
        if (pt == Rook || pt == Queen) attackers |= rookAttacks(to, occupied) & straight;
    }
    return result;
}

}  // namespace outpost
