#include "eval/endgame.h"

#include <bit>

#include "core/position.h"
#include "eval/kpk.h"
#include "eval/masks.h"
#include "eval/trace.h"

namespace outpost::eval {
namespace {

// Scales, of kScaleNormal (64).
constexpr int kScaleHardToWin = 16;           // e.g. rook against minor piece, no pawns
constexpr int kScaleOppositeBishops = 22;     // only opposite-coloured bishops and pawns
constexpr int kScaleOppositeBishopsFar = 34;  // the same, two or more pawns up
constexpr int kScaleOppositeBishopsPieces = 46;
constexpr int kScaleSinglePawnVsPieces = 40;  // one pawn, no more piece material than the defence

int nonPawnMaterial(const Position& pos, Color c) {
    return std::popcount(pos.pieces(c, Knight)) * kSeeValue[Knight] +
           std::popcount(pos.pieces(c, Bishop)) * kSeeValue[Bishop] +
           std::popcount(pos.pieces(c, Rook)) * kSeeValue[Rook] +
           std::popcount(pos.pieces(c, Queen)) * kSeeValue[Queen];
}

bool onlyBishops(const Position& pos, Color c) {
    return (pos.pieces(c, Knight) | pos.pieces(c, Rook) | pos.pieces(c, Queen)) == 0;
}

}  // namespace

int endgameScale(const Position& pos, int egScore) {
    const Color strong = egScore >= 0 ? White : Black;
    const Color weak = ~strong;
    const int strongMaterial = nonPawnMaterial(pos, strong);
    const int weakMaterial = nonPawnMaterial(pos, weak);
    const Bitboard strongPawns = pos.pieces(strong, Pawn);
    const Bitboard weakPawns = pos.pieces(weak, Pawn);
    const int strongPawnCount = std::popcount(strongPawns);

    // King and pawn against king: exact.
    if (strongMaterial == 0 && weakMaterial == 0 && strongPawnCount == 1 && weakPawns == 0) {
        const bool win = kpkIsWin(strong == White, pos.kingSquare(strong), lsb(strongPawns),
                                  pos.kingSquare(weak), pos.sideToMove() == strong);
        return win ? kScaleNormal : kScaleDraw;
    }

    if (strongPawnCount == 0) {
        // Without pawns, a minor piece more does not win, and a rook against a minor rarely does.
        if (strongMaterial - weakMaterial <= kSeeValue[Bishop])
            return strongMaterial < kSeeValue[Rook] ? kScaleDraw : kScaleHardToWin;
        // Two knights cannot force mate.
        if (weakMaterial == 0 && strongMaterial == 2 * kSeeValue[Knight] &&
            std::popcount(pos.pieces(strong, Knight)) == 2)
            return kScaleDraw;
    }

    // Opposite-coloured bishops.
    const Bitboard strongBishops = pos.pieces(strong, Bishop);
    const Bitboard weakBishops = pos.pieces(weak, Bishop);
    if (std::popcount(strongBishops) == 1 && std::popcount(weakBishops) == 1 &&
        ((strongBishops & kDarkSquares) != 0) != ((weakBishops & kDarkSquares) != 0)) {
        if (onlyBishops(pos, strong) && onlyBishops(pos, weak)) {
            const int pawnLead = strongPawnCount - std::popcount(weakPawns);
            return pawnLead >= 2 ? kScaleOppositeBishopsFar : kScaleOppositeBishops;
        }
        return kScaleOppositeBishopsPieces;
    }

    // Rook pawns only, with the defending king in the queening corner: a draw unless the strong
    // side has a bishop that controls the corner (or other pieces).
    if (strongPawnCount > 0 &&
        ((strongPawns & ~fileBB(FileA)) == 0 || (strongPawns & ~fileBB(FileH)) == 0)) {
        const Square queening =
            makeSquare(fileOf(lsb(strongPawns)), strong == White ? Rank8 : Rank1);
        const bool bishopHelps = strongBishops != 0 && (((strongBishops & kDarkSquares) != 0) ==
                                                        ((squareBB(queening) & kDarkSquares) != 0));
        const bool onlyBishopOrNothing =
            strongMaterial == 0 || (strongMaterial == kSeeValue[Bishop] && strongBishops != 0);
        if (onlyBishopOrNothing && !bishopHelps && distance(pos.kingSquare(weak), queening) <= 1)
            return kScaleDraw;
    }

    if (strongPawnCount == 1 && weakMaterial > 0 && strongMaterial <= weakMaterial)
        return kScaleSinglePawnVsPieces;

    return kScaleNormal;
}

}  // namespace outpost::eval
