// Move-ordering memory of one search thread: killer moves and the history heuristic.
//
// Both belong to one thread (Lazy SMP threads keep their own, which also diversifies their
// trees). History survives between searches of a game, aged so old knowledge fades.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "core/types.h"
#include "search/score.h"

namespace outpost::search {

// History scores stay within +-kHistoryMax; each update moves a score a fraction of the way to
// the bound ("gravity"), so scores saturate instead of overflowing and recent results weigh more.
inline constexpr int kHistoryMax = 16384;
// depth² bonus, capped so one very deep cutoff does not dominate the table.
inline constexpr int kHistoryBonusCap = 1200;

inline int historyBonus(int depth) {
    return std::min(depth * depth, kHistoryBonusCap);
}

class History {
  public:
    int quiet(Color side, Move m) const { return table_[side][m.from()][m.to()]; }

    // Reward the move that caused a cutoff; punish (malus) the quiet moves tried before it.
    void reward(Color side, Move m, int depth) { update(side, m, historyBonus(depth)); }
    void punish(Color side, Move m, int depth) { update(side, m, -historyBonus(depth)); }

    // Between searches: halve, so the next search starts informed but not bound by old scores.
    void age() {
        for (auto& bySide : table_)
            for (auto& byFrom : bySide)
                for (auto& v : byFrom) v /= 2;
    }
    void clear() {
        for (auto& bySide : table_)
            for (auto& byFrom : bySide) byFrom.fill(0);
    }

  private:
    void update(Color side, Move m, int bonus) {
        int& v = table_[side][m.from()][m.to()];
        v += bonus - v * std::abs(bonus) / kHistoryMax;
    }
    std::array<std::array<std::array<int, 64>, 64>, ColorCount> table_{};
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
