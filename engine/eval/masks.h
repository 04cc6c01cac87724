// Square masks the evaluation needs beyond the core's (spans in front of pawns, distances),
// built at compile time.
#pragma once

#include <array>
#include <cstdlib>

#include "core/bitboard.h"
#include "core/types.h"

namespace outpost::eval {

// Chebyshev distance: king steps between two squares.
constexpr int distance(Square a, Square b) {
    const int df = std::abs(fileOf(a) - fileOf(b));
    const int dr = std::abs(rankOf(a) - rankOf(b));
    return df > dr ? df : dr;
}

constexpr Bitboard adjacentFilesBB(int file) {
    return (file > FileA ? fileBB(file - 1) : 0) | (file < FileH ? fileBB(file + 1) : 0);
}

namespace detail {
constexpr Bitboard computeRanksAhead(Color c, Square s) {
    Bitboard m = 0;
    for (int r = 0; r < 8; ++r)
        if (c == White ? r > rankOf(s) : r < rankOf(s)) m |= rankBB(r);
    return m;
}

template <typename F>
constexpr std::array<std::array<Bitboard, SquareCount>, ColorCount> perColourSquare(F f) {
    std::array<std::array<Bitboard, SquareCount>, ColorCount> t{};
    for (int c = 0; c < ColorCount; ++c)
        for (int s = 0; s < SquareCount; ++s) t[c][s] = f(Color(c), Square(s));
    return t;
}
}  // namespace detail

// All ranks strictly in front of a square's rank, seen from colour c.
inline constexpr auto kRanksAhead = detail::perColourSquare(detail::computeRanksAhead);
constexpr Bitboard ranksAhead(Color c, Square s) {
    return kRanksAhead[c][s];
}

// Squares in front of s on its own file.
inline constexpr auto kForwardFile = detail::perColourSquare(
    [](Color c, Square s) { return detail::computeRanksAhead(c, s) & fileBB(fileOf(s)); });
// Squares in front of s on the adjacent files: where an enemy pawn could one day attack s from
// (seen from the side that owns s).
inline constexpr auto kAttackSpan = detail::perColourSquare(
    [](Color c, Square s) { return detail::computeRanksAhead(c, s) & adjacentFilesBB(fileOf(s)); });
// A pawn on s is passed when no enemy pawn stands in this span.
inline constexpr auto kPassedSpan = detail::perColourSquare([](Color c, Square s) {
    return detail::computeRanksAhead(c, s) & (fileBB(fileOf(s)) | adjacentFilesBB(fileOf(s)));
});

// Squares attacked by two pawns of colour c at once.
constexpr Bitboard pawnDoubleAttacksOf(Color c, Bitboard pawns) {
    return c == White ? shift<NorthWest>(pawns) & shift<NorthEast>(pawns)
                      : shift<SouthWest>(pawns) & shift<SouthEast>(pawns);
}
// One step towards colour c's promotion rank.
constexpr Bitboard pushUp(Color c, Bitboard b) {
    return c == White ? shift<North>(b) : shift<South>(b);
}

}  // namespace outpost::eval
