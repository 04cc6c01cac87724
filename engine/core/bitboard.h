// Bitboards and attack tables.
//
// Leaper attacks (pawn, knight, king) come from 64-entry tables. Slider attacks use one shared
// table per slider indexed by the occupancy of the relevant rays: where the CPU has a fast PEXT
// (BMI2: Intel since Haswell, AMD since Zen 3) the index is PEXT(occupancy, mask); elsewhere
// "fancy" magic multiplication (stored magics, verified at start, with a fixed-seed search as the
// fallback, so the tables are deterministic). Which one is picked at start from the CPU
// (core/cpu.h, cpuChoice()), not at compile time, so one binary serves both. All tables are
// built once, before main(), and are read-only afterwards.
#pragma once

#include <bit>
#include <cstdint>

#include "core/cpu.h"
#include "core/types.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace outpost {

inline constexpr Bitboard kFileABB = 0x0101010101010101ULL;
inline constexpr Bitboard kRank1BB = 0xFFULL;
inline constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAULL;
inline constexpr Bitboard kDarkSquares = ~kLightSquares;

constexpr Bitboard squareBB(Square s) {
    return Bitboard(1) << s;
}
constexpr Bitboard fileBB(int file) {
    return kFileABB << file;
}
constexpr Bitboard rankBB(int rank) {
    return kRank1BB << (8 * rank);
}
constexpr Bitboard fileBB(Square s) {
    return fileBB(fileOf(s));
}
constexpr Bitboard rankBB(Square s) {
    return rankBB(rankOf(s));
}

constexpr int popcount(Bitboard b) {
    return std::popcount(b);
}
constexpr Square lsb(Bitboard b) {
    return Square(std::countr_zero(b));
}
constexpr Square msb(Bitboard b) {
    return Square(63 - std::countl_zero(b));
}
// Removes and returns the least significant square; b must not be empty.
constexpr Square popLsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool moreThanOne(Bitboard b) {
    return (b & (b - 1)) != 0;
}

enum Direction : int {
    North = 8,
    South = -8,
    East = 1,
    West = -1,
    NorthEast = 9,
    NorthWest = 7,
    SouthEast = -7,
    SouthWest = -9
};

// Shifts every square one step in direction D, dropping squares that leave the board.
template <Direction D>
constexpr Bitboard shift(Bitboard b) {
    constexpr Bitboard notFileA = ~fileBB(FileA);
    constexpr Bitboard notFileH = ~fileBB(FileH);
    if constexpr (D == North)
        return b << 8;
    else if constexpr (D == South)
        return b >> 8;
    else if constexpr (D == East)
        return (b & notFileH) << 1;
    else if constexpr (D == West)
        return (b & notFileA) >> 1;
    else if constexpr (D == NorthEast)
        return (b & notFileH) << 9;
    else if constexpr (D == NorthWest)
        return (b & notFileA) << 7;
    else if constexpr (D == SouthEast)
        return (b & notFileH) >> 7;
    else
        return (b & notFileA) >> 9;
}

// Squares attacked by all pawns of color C in b.
template <Color C>
constexpr Bitboard pawnAttacksBB(Bitboard b) {
    if constexpr (C == White)
        return shift<NorthWest>(b) | shift<NorthEast>(b);
    else
        return shift<SouthWest>(b) | shift<SouthEast>(b);
}
// The same, for a colour known only at run time.
constexpr Bitboard pawnAttacksOf(Color c, Bitboard pawns) {
    return c == White ? pawnAttacksBB<White>(pawns) : pawnAttacksBB<Black>(pawns);
}

namespace detail {

// PEXT: the bits of src where mask is set, packed at the bottom. Without BMI2 in the build's
// flags the instruction is written as inline assembly, so a build for an older floor still has
// it; it only runs where cpuChoice() found BMI2.
inline std::uint64_t pext(std::uint64_t src, std::uint64_t mask) {
#if defined(__BMI2__)
    return _pext_u64(src, mask);
#elif defined(__x86_64__)
    std::uint64_t packed;
    __asm__("pextq %2, %1, %0" : "=r"(packed) : "r"(src), "rm"(mask));
    return packed;
#else
    (void)src;
    (void)mask;
    return 0;  // never called: no PEXT off x86-64 (pextSupported says so)
#endif
}

struct SliderEntry {
    Bitboard mask;   // relevant occupancy (ray squares without the board edge)
    Bitboard magic;  // unused with PEXT
    const Bitboard* attacks;
    unsigned shift;  // unused with PEXT
};

inline constexpr int kRookTableSize = 0x19000;  // sum over squares of 2^(relevant bits)
inline constexpr int kBishopTableSize = 0x1480;

struct AttackTables {
    // Builds every table, the sliders' indexed for the given method (PEXT only where
    // pextSupported()).
    explicit AttackTables(Sliders method);

    unsigned sliderIndex(const SliderEntry& e, Bitboard occupied) const {
        // One well-predicted branch on a value fixed at start.
        return usePext ? unsigned(pext(occupied, e.mask))
                       : unsigned(((occupied & e.mask) * e.magic) >> e.shift);
    }
    Bitboard bishopAttacks(Square s, Bitboard occupied) const {
        return bishop[s].attacks[sliderIndex(bishop[s], occupied)];
    }
    Bitboard rookAttacks(Square s, Bitboard occupied) const {
        return rook[s].attacks[sliderIndex(rook[s], occupied)];
    }

    bool usePext;
    Bitboard pawn[ColorCount][SquareCount];
    Bitboard knight[SquareCount];
    Bitboard king[SquareCount];
    Bitboard bishopEmpty[SquareCount];  // attacks on an empty board
    Bitboard rookEmpty[SquareCount];
    SliderEntry bishop[SquareCount];
    SliderEntry rook[SquareCount];
    Bitboard between[SquareCount][SquareCount];  // squares strictly between, 0 if not aligned
    Bitboard line[SquareCount][SquareCount];     // the whole line through both, 0 if not aligned
    Bitboard bishopTable[kBishopTableSize];
    Bitboard rookTable[kRookTableSize];
};

extern const AttackTables kTables;

}  // namespace detail

inline Bitboard pawnAttacks(Color c, Square s) {
    return detail::kTables.pawn[c][s];
}
inline Bitboard knightAttacks(Square s) {
    return detail::kTables.knight[s];
}
inline Bitboard kingAttacks(Square s) {
    return detail::kTables.king[s];
}
inline Bitboard bishopAttacks(Square s, Bitboard occupied) {
    return detail::kTables.bishopAttacks(s, occupied);
}
inline Bitboard rookAttacks(Square s, Bitboard occupied) {
    return detail::kTables.rookAttacks(s, occupied);
}
inline Bitboard queenAttacks(Square s, Bitboard occupied) {
    return bishopAttacks(s, occupied) | rookAttacks(s, occupied);
}
// Slider attacks on an empty board (for quick "could it ever attack" tests).
inline Bitboard bishopPseudoAttacks(Square s) {
    return detail::kTables.bishopEmpty[s];
}
inline Bitboard rookPseudoAttacks(Square s) {
    return detail::kTables.rookEmpty[s];
}

// Attacks of a non-pawn piece type from s given the occupancy.
inline Bitboard attacksBB(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
        case Knight:
            return knightAttacks(s);
        case Bishop:
            return bishopAttacks(s, occupied);
        case Rook:
            return rookAttacks(s, occupied);
        case Queen:
            return queenAttacks(s, occupied);
        case King:
            return kingAttacks(s);
        default:
            return 0;
    }
}

// Squares strictly between a and b when they share a rank, file or diagonal; otherwise 0.
inline Bitboard betweenBB(Square a, Square b) {
    return detail::kTables.between[a][b];
}
// The full rank, file or diagonal through a and b (edge to edge); 0 if they are not aligned.
inline Bitboard lineBB(Square a, Square b) {
    return detail::kTables.line[a][b];
}
inline bool aligned(Square a, Square b, Square c) {
    return (lineBB(a, b) & squareBB(c)) != 0;
}

}  // namespace outpost
