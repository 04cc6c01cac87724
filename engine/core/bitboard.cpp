#include "core/bitboard.h"

#include <vector>

namespace outpost::detail {

namespace {

constexpr int kRookDirections[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirections[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool onBoard(int file, int rank) {
    return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

// Attacks along the four rays, each stopping at (and including) the first occupied square.
Bitboard slidingAttacks(const int (&dirs)[4][2], Square s, Bitboard occupied) {
    Bitboard attacks = 0;
    for (const auto& d : dirs) {
        int f = fileOf(s) + d[0], r = rankOf(s) + d[1];
        while (onBoard(f, r)) {
            const Bitboard b = squareBB(makeSquare(f, r));
            attacks |= b;
            if (occupied & b) break;
            f += d[0];
            r += d[1];
        }
    }
    return attacks;
}

Bitboard leaperAttacks(Square s, const int (*steps)[2], int count) {
    Bitboard attacks = 0;
    for (int i = 0; i < count; ++i) {
        const int f = fileOf(s) + steps[i][0], r = rankOf(s) + steps[i][1];
        if (onBoard(f, r)) attacks |= squareBB(makeSquare(f, r));
    }
    return attacks;
}

// Magics found once by the search below (with its fixed seed) and stored, so start-up does not
// pay for the search (about 0.2 s). initSlider() verifies each one and searches again if a stored
// magic ever failed.
// clang-format off
constexpr Bitboard kBishopMagics[SquareCount] = {
    0x10102002004A1420ULL, 0x8020040400584008ULL, 0x10510800811201C8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200A02020ULL,
    0x1500241990010E00ULL, 0x8001200182020A40ULL, 0x40004101030B0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020A00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006E080100C3040ULL, 0x0501044A11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422C012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xA010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802A02020000B098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488A00ULL,
    0x2000081104004040ULL, 0x4C8E029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008A0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4A1500401041004AULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800B62048ULL, 0x0000810400C44420ULL, 0x00080400440C0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810D00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};
constexpr Bitboard kRookMagics[SquareCount] = {
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021D00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000A00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040A00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xC100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000A0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04C1002414824001ULL, 0x020020000B001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
// clang-format on

// xorshift64* with a fixed seed: the magics found are the same on every run.
struct Prng {
    std::uint64_t state;
    std::uint64_t next() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 2685821657736338717ULL;
    }
    // Magics work best with few bits set.
    std::uint64_t sparse() { return next() & next() & next(); }
};

// Fills one slider's entries and its shared attack table, indexed as tables.sliderIndex() will
// read it.
void initSlider(const AttackTables& tables, const int (&dirs)[4][2], SliderEntry* entries,
                Bitboard* table, const Bitboard* storedMagics) {
    std::vector<Bitboard> occupancies(4096), reference(4096);
    std::vector<int> epoch(4096, 0);
    int attempt = 0;
    Prng prng{0x9E3779B97F4A7C15ULL};
    Bitboard* next = table;
    for (int sq = 0; sq < SquareCount; ++sq) {
        const Square s = Square(sq);
        // Board edges do not affect the attacks unless the piece stands on them.
        const Bitboard edges = ((rankBB(Rank1) | rankBB(Rank8)) & ~rankBB(s)) |
                               ((fileBB(FileA) | fileBB(FileH)) & ~fileBB(s));
        SliderEntry& e = entries[sq];
        e.mask = slidingAttacks(dirs, s, 0) & ~edges;
        e.shift = unsigned(64 - popcount(e.mask));
        e.attacks = next;
        e.magic = 0;

        // Enumerate all subsets of the mask (carry-rippler).
        int size = 0;
        Bitboard b = 0;
        do {
            occupancies[size] = b;
            reference[size] = slidingAttacks(dirs, s, b);
            ++size;
            b = (b - e.mask) & e.mask;
        } while (b);

        if (tables.usePext) {
            for (int i = 0; i < size; ++i)
                next[tables.sliderIndex(e, occupancies[i])] = reference[i];
            next += size;
            continue;
        }
        for (bool found = false, first = true; !found; first = false) {
            if (first) {
                e.magic = storedMagics[sq];
            } else {
                do {
                    e.magic = prng.sparse();
                } while (popcount((e.mask * e.magic) >> 56) < 6);
            }
            ++attempt;
            found = true;
            for (int i = 0; i < size; ++i) {
                const unsigned idx = tables.sliderIndex(e, occupancies[i]);
                if (epoch[idx] < attempt) {
                    epoch[idx] = attempt;
                    next[idx] = reference[i];
                } else if (next[idx] != reference[i]) {
                    found = false;
                    break;
                }
            }
        }
        next += size;
    }
}

}  // namespace

AttackTables::AttackTables(Sliders method) : usePext(method == Sliders::Pext) {
    constexpr int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                        {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    constexpr int kKingSteps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                      {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    constexpr int kWhitePawnSteps[2][2] = {{-1, 1}, {1, 1}};
    constexpr int kBlackPawnSteps[2][2] = {{-1, -1}, {1, -1}};

    for (int sq = 0; sq < SquareCount; ++sq) {
        const Square s = Square(sq);
        knight[s] = leaperAttacks(s, kKnightSteps, 8);
        king[s] = leaperAttacks(s, kKingSteps, 8);
        pawn[White][s] = leaperAttacks(s, kWhitePawnSteps, 2);
        pawn[Black][s] = leaperAttacks(s, kBlackPawnSteps, 2);
        bishopEmpty[s] = slidingAttacks(kBishopDirections, s, 0);
        rookEmpty[s] = slidingAttacks(kRookDirections, s, 0);
    }
    initSlider(*this, kBishopDirections, bishop, bishopTable, kBishopMagics);
    initSlider(*this, kRookDirections, rook, rookTable, kRookMagics);

    for (int a = 0; a < SquareCount; ++a) {
        for (int b = 0; b < SquareCount; ++b) {
            const Square sa = Square(a), sb = Square(b);
            between[a][b] = 0;
            line[a][b] = 0;
            if (a == b) continue;
            for (const auto* dirs : {&kBishopDirections, &kRookDirections}) {
                if (slidingAttacks(*dirs, sa, 0) & squareBB(sb)) {
                    line[a][b] = (slidingAttacks(*dirs, sa, 0) & slidingAttacks(*dirs, sb, 0)) |
                                 squareBB(sa) | squareBB(sb);
                    between[a][b] = slidingAttacks(*dirs, sa, squareBB(sb)) &
                                    slidingAttacks(*dirs, sb, squareBB(sa));
                }
            }
        }
    }
}

// Built during static initialisation, before main(). The priority makes it come before every
// ordinary static initialiser of any translation unit, so even a global Position built before
// main() finds the tables ready; only the CPU floor check (priority 101, core/cpu_detect.cpp)
// comes earlier. The slider method is the process's choice (core/cpu.h).
__attribute__((init_priority(102))) const AttackTables kTables(cpuChoice().sliders);

}  // namespace outpost::detail
