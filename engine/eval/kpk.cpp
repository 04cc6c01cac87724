#include "eval/kpk.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace outpost::eval {
namespace {

// Positions are normalised: the pawn is White's and stands on files a-d (the board is mirrored
// left-right otherwise, which preserves the result), ranks 2-7.
constexpr int kPawnSquares = 24;  // files a-d, ranks 2-7
constexpr int kTableSize = 2 * 64 * 64 * kPawnSquares;

enum Result : std::uint8_t { kUnknown = 0, kInvalid = 1, kDraw = 2, kWin = 4 };

int fileOf(int sq) {
    return sq & 7;
}
int rankOf(int sq) {
    return sq >> 3;
}
int distance(int a, int b) {
    return std::max(std::abs(fileOf(a) - fileOf(b)), std::abs(rankOf(a) - rankOf(b)));
}
bool pawnAttacks(int pawn, int sq) {
    return rankOf(sq) == rankOf(pawn) + 1 && std::abs(fileOf(sq) - fileOf(pawn)) == 1;
}

int pawnIndex(int pawn) {
    return (rankOf(pawn) - 1) * 4 + fileOf(pawn);
}
int pawnSquare(int index) {
    return (index / 4 + 1) * 8 + index % 4;
}

// stm: 0 = White (the pawn side) to move, 1 = Black.
int tableIndex(int stm, int wk, int bk, int pawn) {
    return ((stm * 64 + wk) * 64 + bk) * kPawnSquares + pawnIndex(pawn);
}

// King steps from sq (up to eight squares), appended to out; returns the count.
int kingSteps(int sq, std::array<int, 8>& out) {
    int n = 0;
    for (int df = -1; df <= 1; ++df) {
        for (int dr = -1; dr <= 1; ++dr) {
            if (df == 0 && dr == 0) continue;
            const int f = fileOf(sq) + df;
            const int r = rankOf(sq) + dr;
            if (f < 0 || f > 7 || r < 0 || r > 7) continue;
            out[n++] = r * 8 + f;
        }
    }
    return n;
}

Result classifyStatic(int stm, int wk, int bk, int pawn) {
    if (wk == bk || wk == pawn || bk == pawn || distance(wk, bk) <= 1) return kInvalid;
    // White to move with Black in check by the pawn cannot arise (Black moved into check).
    if (stm == 0 && pawnAttacks(pawn, bk)) return kInvalid;
    const int queening = pawn + 8;
    if (stm == 0 && rankOf(pawn) == 6 && wk != queening && bk != queening &&
        (distance(bk, queening) > 1 || distance(wk, queening) == 1)) {
        return kWin;  // promotes and the new queen cannot be taken
    }
    if (stm == 1) {
        std::array<int, 8> steps{};
        const int n = kingSteps(bk, steps);
        bool anyMove = false;
        for (int i = 0; i < n; ++i) {
            const int to = steps[i];
            if (distance(to, wk) <= 1 || pawnAttacks(pawn, to)) continue;
            anyMove = true;
            if (to == pawn) return kDraw;  // takes the undefended pawn
        }
        // No legal move: stalemate (king and pawn cannot mate while the pawn is on the board).
        if (!anyMove) return kDraw;
    }
    return kUnknown;
}

Result classifyByMoves(const std::vector<std::uint8_t>& table, int stm, int wk, int bk, int pawn) {
    std::array<int, 8> steps{};
    if (stm == 0) {
        // White wins if some move reaches a won position; draws if every move draws.
        bool allDraw = true;
        const int n = kingSteps(wk, steps);
        for (int i = 0; i < n; ++i) {
            const int to = steps[i];
            if (to == pawn || distance(to, bk) <= 1) continue;
            const std::uint8_t r = table[tableIndex(1, to, bk, pawn)];
            if (r == kWin) return kWin;
            if (r != kDraw) allDraw = false;
        }
        if (rankOf(pawn) < 6) {
            const int push = pawn + 8;
            if (push != wk && push != bk) {
                const std::uint8_t r = table[tableIndex(1, wk, bk, push)];
                if (r == kWin) return kWin;
                if (r != kDraw) allDraw = false;
                const int twoStep = pawn + 16;
                if (rankOf(pawn) == 1 && twoStep != wk && twoStep != bk) {
                    const std::uint8_t r2 = table[tableIndex(1, wk, bk, twoStep)];
                    if (r2 == kWin) return kWin;
                    if (r2 != kDraw) allDraw = false;
                }
            }
        }
        return allDraw ? kDraw : kUnknown;
    }
    // Black draws if some move reaches a drawn position; loses if every move loses.
    bool allWin = true;
    const int n = kingSteps(bk, steps);
    for (int i = 0; i < n; ++i) {
        const int to = steps[i];
        if (distance(to, wk) <= 1 || pawnAttacks(pawn, to) || to == pawn) continue;
        const std::uint8_t r = table[tableIndex(0, wk, to, pawn)];
        if (r == kDraw) return kDraw;
        if (r != kWin) allWin = false;
    }
    return allWin ? kWin : kUnknown;
}

std::vector<std::uint8_t> buildTable() {
    std::vector<std::uint8_t> table(kTableSize, kUnknown);
    for (int stm = 0; stm < 2; ++stm)
        for (int wk = 0; wk < 64; ++wk)
            for (int bk = 0; bk < 64; ++bk)
                for (int p = 0; p < kPawnSquares; ++p)
                    table[tableIndex(stm, wk, bk, pawnSquare(p))] =
                        classifyStatic(stm, wk, bk, pawnSquare(p));
    bool changed = true;
    while (changed) {
        changed = false;
        for (int stm = 0; stm < 2; ++stm)
            for (int wk = 0; wk < 64; ++wk)
                for (int bk = 0; bk < 64; ++bk)
                    for (int p = 0; p < kPawnSquares; ++p) {
                        const int pawn = pawnSquare(p);
                        std::uint8_t& entry = table[tableIndex(stm, wk, bk, pawn)];
                        if (entry != kUnknown) continue;
                        const Result r = classifyByMoves(table, stm, wk, bk, pawn);
                        if (r != kUnknown) {
                            entry = r;
                            changed = true;
                        }
                    }
    }
    // What is still unknown cannot be forced to a win.
    for (std::uint8_t& entry : table)
        if (entry == kUnknown) entry = kDraw;
    return table;
}

const std::vector<std::uint8_t>& kpkTable() {
    static const std::vector<std::uint8_t> table = buildTable();
    return table;
}

}  // namespace

void kpkPrepare() {
    kpkTable();
}

bool kpkIsWin(bool pawnIsWhite, int strongKing, int pawn, int weakKing, bool pawnSideToMove) {
    // Normalise: the pawn moves up the board (mirror ranks for Black) and stands on files a-d.
    auto normalise = [&](int sq) {
        if (!pawnIsWhite) sq ^= 56;
        if (fileOf(pawn) > 3) sq ^= 7;
        return sq;
    };
    const int wk = normalise(strongKing);
    const int bk = normalise(weakKing);
    const int p = normalise(pawn);
    if (rankOf(p) < 1 || rankOf(p) > 6) return false;
    return kpkTable()[tableIndex(pawnSideToMove ? 0 : 1, wk, bk, p)] == kWin;
}

}  // namespace outpost::eval
