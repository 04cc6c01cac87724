// Move ordering: hands out the legal moves of a node one at a time, best guess first.
//
// Main search, not in check (staged, so a cutoff by an early move saves generating the rest):
//   1. the transposition-table move
//   2. captures and queen promotions: winning and equal captures (SEE >= 0) by most valuable
//      victim / least valuable attacker; then quiet queen promotions
//   3. the two killer moves of this ply
//   4. quiet moves by history score (butterfly plus continuation history 1 and 2 plies back)
//   5. losing captures and under-promotions
// Three switches add orderings, all off by default (measured, docs/search.md): recaptureFirst
// (the recapture of the piece that just moved before the other good captures), captureHistory
// (capture history breaking MVV-LVA ties) and counterMoves (after the killers, the quiet move
// that last refuted the opponent's previous move). The others (mvvLva, killers, history,
// continuationHistory, see) are on by default and can be switched off.
// In check: the table move, then every evasion (captures by MVV-LVA, quiets by history).
// Quiescence: the table move when it is a capture (or a check / evasion where those are
// searched), captures, then optionally quiet checks and quiet moves of a threatened piece.
// Root: the root moves in the order given (the previous iteration's best first).
//
// The generators produce legal moves only, so every move handed out is legal; moves from
// elsewhere (table, killers) are checked with Position::isLegal first.
#pragma once

#include <array>

#include "core/movegen.h"
#include "core/position.h"
#include "core/types.h"
#include "engine.h"
#include "search/history.h"

namespace outpost::search {

// Where a move came from, for the per-technique counters.
enum class PickStage {
    None,
    TableMove,
    GoodCapture,
    Killer,
    CounterMove,
    Quiet,
    BadCapture,
    Evasion,
    Root
};

// What the search knows beyond the butterfly history to order a node's moves; every part is
// optional (null or none where the switch is off or the line has no such move).
struct OrderingHints {
    // Continuation history of the moves 1 and 2 plies back ...
    std::array<const PieceToHistory*, 2> continuation{nullptr, nullptr};
    // ... and with continuationHistory4 of our move 4 plies back, at 1/kContinuation4Divisor
    // weight (further back, so less specific to this node).
    const PieceToHistory* continuation4 = nullptr;
    const CaptureHistory* captures = nullptr;
    Move counter;
    // With threatHistory: the squares the opponent attacks, which pick the butterfly table's
    // slice for each move (History::quiet).
    Bitboard threats = 0;
};

inline constexpr int kContinuation4Divisor = 2;

// A quiet move's history score: butterfly plus the continuation tables (what ordering, pruning
// and reductions all read).
int quietHistoryScore(const Position& pos, Move m, const History& history,
                      const OrderingHints& hints);

class MovePicker {
  public:
    // Main search node.
    MovePicker(const Position& pos, Move ttMove, int ply, const Killers& killers,
               const History& history, const SearchConfig& config, const OrderingHints& hints);
    // Quiescence node. includeChecks: quiet checking moves too; threatSquare: also quiet moves of
    // the piece standing there (two-sided quiescence), NoSquare for none.
    MovePicker(const Position& pos, Move ttMove, const History& history, const SearchConfig& config,
               bool includeChecks, Square threatSquare, const OrderingHints& hints = {});
    // Root node: the given moves in the given order.
    MovePicker(const Position& pos, const MoveList& rootMoves, const History& history,
               const SearchConfig& config);

    // The next move, or Move::none() when there are no more. skipQuiets: quiet moves that are
    // still to come are skipped (the search pruned them).
    Move next(bool skipQuiets = false);
    PickStage stage() const { return lastStage_; }

  private:
    enum class Stage {
        TableMove,
        GenerateCaptures,
        GoodCaptures,
        Killer1,
        Killer2,
        CounterMove,
        GenerateQuiets,
        Quiets,
        BadCaptures,
        GenerateEvasions,
        Evasions,
        QsGenerateCaptures,
        QsCaptures,
        QsGenerateQuiets,
        QsQuiets,
        Root,
        Done
    };

    void scoreCaptures();
    void scoreQuiets();
    void scoreEvasions();
    int captureScore(Move m) const;
    // Index of the best-scored move in [from, end) moved to the front of that range.
    Move pickBest();

    const Position& pos_;
    const History& history_;
    const SearchConfig& config_;
    const Killers* killers_ = nullptr;
    OrderingHints hints_;
    Stage stage_;
    PickStage lastStage_ = PickStage::None;
    Move ttMove_;
    Move killer1_, killer2_, counter_;
    bool includeChecks_ = false;
    Square threatSquare_ = NoSquare;
    MoveList moves_;
    MoveList badCaptures_;
    std::size_t cursor_ = 0;
};

}  // namespace outpost::search
