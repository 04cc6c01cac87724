// Move-ordering memory of one search thread: killer moves and the history heuristic.
//
// Both belong to one thread (Lazy SMP threads keep their own, which also diversifies their
// trees). History survives between searches of a game, aged so old knowledge fades.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "core/types.h"
#include "search/score.h"

namespace outpost::search {

// History scores stay within +-kHistoryMax; each update moves a score a fraction of the way to
// the bound ("gravity"), so scores saturate instead of overflowing and recent results weigh more.
inline constexpr int kHistoryMax = 16384;
// depth² bonus, capped so one very deep cutoff does not dominate the table, times a scale
// (SearchParams::historyBonusScale, 1 by default), the product kept well below kHistoryMax so
// the gravity below never overshoots the bound.
inline constexpr int kHistoryBonusCap = 1200;
inline constexpr int kHistoryScaledBonusCap = kHistoryMax / 4;

inline int historyBonus(int depth, int scale) {
    return std::min(scale * std::min(depth * depth, kHistoryBonusCap), kHistoryScaledBonusCap);
}

class History {
  public:
    // threats: the squares the opponent attacks (threatHistory), or none. A move from an attacked
    // square, or to one, keeps a score apart from the same move between safe squares: escaping
    // an attack and walking into one are different moves to learn about.
    int quiet(Color side, Move m, Bitboard threats = 0) const {
        return table_[side][attacked(threats, m.from())][attacked(threats, m.to())][m.from()]
                     [m.to()];
    }

    // Reward the move that caused a cutoff; punish (malus) the quiet moves tried before it.
    void reward(Color side, Move m, int bonus, Bitboard threats = 0) {
        update(side, m, bonus, threats);
    }
    void punish(Color side, Move m, int bonus, Bitboard threats = 0) {
        update(side, m, -bonus, threats);
    }

    // Between searches: halve, so the next search starts informed but not bound by old scores.
    void age() {
        forEach([](int& v) { v /= 2; });
    }
    void clear() {
        forEach([](int& v) { v = 0; });
    }

  private:
    static int attacked(Bitboard threats, Square s) { return static_cast<int>((threats >> s) & 1); }
    void update(Color side, Move m, int bonus, Bitboard threats) {
        int& v =
            table_[side][attacked(threats, m.from())][attacked(threats, m.to())][m.from()][m.to()];
        v += bonus - v * std::abs(bonus) / kHistoryMax;
    }
    template <typename F>
    void forEach(F f) {
        for (auto& bySide : table_)
            for (auto& byFromThreat : bySide)
                for (auto& byToThreat : byFromThreat)
                    for (auto& byFrom : byToThreat)
                        for (auto& v : byFrom) f(v);
    }
    // [side][from attacked][to attacked][from][to]: 128 KB.
    using FromTo = std::array<std::array<int, 64>, 64>;
    std::array<std::array<std::array<FromTo, 2>, 2>, ColorCount> table_{};
};

// One (piece, destination) table of history scores, the unit of the tables below.
using PieceToHistory = std::array<std::array<std::int16_t, 64>, PieceCount>;

// Moves gain or lose a bonus with the same gravity as History: scores saturate at +-kHistoryMax.
inline void applyHistoryBonus(std::int16_t& v, int bonus) {
    const int now = v + bonus - v * std::abs(bonus) / kHistoryMax;
    v = static_cast<std::int16_t>(std::clamp(now, -kHistoryMax, kHistoryMax));
}

// Continuation history: how good a quiet move (piece, to) was right after a given earlier move
// (piece, to) in the line: 1 ply back (the opponent's move it answers: a counter-move statistic)
// and 2 plies back (our own previous move: a follow-up statistic). Far more specific than the
// butterfly table above, so it separates quiet moves the butterfly table ranks alike.
class ContinuationHistory {
  public:
    ContinuationHistory() : table_(std::make_unique<Table>()) {}
    PieceToHistory& after(Piece prevPiece, Square prevTo) { return (*table_)[prevPiece][prevTo]; }
    const PieceToHistory& after(Piece prevPiece, Square prevTo) const {
        return (*table_)[prevPiece][prevTo];
    }
    void age() {
        for (auto& byTo : *table_)
            for (auto& t : byTo)
                for (auto& row : t)
                    for (auto& v : row) v = static_cast<std::int16_t>(v / 2);
    }
    void clear() {
        for (auto& byTo : *table_)
            for (auto& t : byTo)
                for (auto& row : t) row.fill(0);
    }

  private:
    using Table = std::array<std::array<PieceToHistory, 64>, PieceCount>;  // 2 MB: on the heap
    std::unique_ptr<Table> table_;
};

// Capture history: how often a capture (moving piece, destination, captured type) caused a
// cutoff. Added to MVV-LVA within the good captures, so among captures of equal material the
// ones that worked before come first.
class CaptureHistory {
  public:
    int score(Piece moved, Square to, PieceType captured) const {
        return table_[moved][to][captured];
    }
    void update(Piece moved, Square to, PieceType captured, int bonus) {
        applyHistoryBonus(table_[moved][to][captured], bonus);
    }
    void age() {
        for (auto& byTo : table_)
            for (auto& row : byTo)
                for (auto& v : row) v = static_cast<std::int16_t>(v / 2);
    }
    void clear() {
        for (auto& byTo : table_)
            for (auto& row : byTo) row.fill(0);
    }

  private:
    std::array<std::array<std::array<std::int16_t, PieceTypeCount>, 64>, PieceCount> table_{};
};

// Counter moves: the quiet move that last refuted the opponent's move (piece, to), tried after
// the killers.
class CounterMoves {
  public:
    Move get(Piece prevPiece, Square prevTo) const { return table_[prevPiece][prevTo]; }
    void set(Piece prevPiece, Square prevTo, Move m) { table_[prevPiece][prevTo] = m; }
    void clear() {
        for (auto& row : table_) row.fill(Move::none());
    }

  private:
    std::array<std::array<Move, 64>, PieceCount> table_{};
};

class Killers {
  public:
    Move first(int ply) const { return table_[ply][0]; }
    Move second(int ply) const { return table_[ply][1]; }
    bool isKiller(int ply, Move m) const { return m == table_[ply][0] || m == table_[ply][1]; }
    // A new killer pushes the old first killer to second place.
    void add(int ply, Move m) {
        if (table_[ply][0] == m) return;
        table_[ply][1] = table_[ply][0];
        table_[ply][0] = m;
    }
    void clear() {
        for (auto& k : table_) k = {Move::none(), Move::none()};
    }

  private:
    std::array<std::array<Move, 2>, kMaxSearchPly + 2> table_{};
};

}  // namespace outpost::search
