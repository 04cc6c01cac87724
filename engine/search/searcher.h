// One search thread (Searcher) and what the threads of one search share (SharedSearch).
//
// A Searcher owns everything a thread mutates: its copy of the position, its evaluator, killers,
// history, search stack and counters. Searchers live as long as their Engine, so history carries
// over from move to move within a game (aged at each new search). The threads meet only in the
// transposition table and in the SharedSearch flags, which are atomics.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/position.h"
#include "engine.h"
#include "eval/evaluate.h"
#include "search/correction.h"
#include "search/history.h"
#include "search/movepick.h"
#include "search/score.h"
#include "search/stats.h"
#include "search/timeman.h"
#include "search/tt.h"

namespace outpost::search {

using Clock = std::chrono::steady_clock;

// Set up by the engine before the threads start; read by all threads during the search. Only the
// atomics change while threads run.
struct SharedSearch {
    std::atomic<bool> stop{false};
    std::atomic<bool> pondering{false};
    std::atomic<std::int64_t> clockStartNs{0};  // reset at ponderhit: the clock starts then
    // Set while pondering once the search has done a move's worth of work: ponderhit stops it.
    std::atomic<bool> stopOnPonderhit{false};

    SearchConfig config;
    SearchLimits limits;
    std::optional<TimeBounds> time;
    TranspositionTable* tt = nullptr;
    const SearchCallbacks* callbacks = nullptr;
    std::chrono::steady_clock::time_point started;  // for reported times and nps
    int multiPv = 1;
    int threadCount = 1;
    Color rootSide = White;
    // The score this side's last move in the same game ended with (ClockMemory), for time
    // management; none when this search does not continue a remembered move.
    std::optional<int> lastMoveScore;
    std::vector<class Searcher*> searchers;

    std::int64_t elapsedMs() const;       // since the search started
    std::int64_t clockElapsedMs() const;  // since the clock started (ponderhit)
    std::uint64_t totalNodes() const;
};

struct RootMove {
    Move move;
    int score = -kInfinity;
    int previousScore = -kInfinity;
    int seldepth = 0;
    std::vector<Move> pv;
    std::uint64_t nodes = 0;  // spent on this move's subtree, over all iterations (time management)
};

// What one finished iteration produced, kept so the result comes from a finished iteration.
struct IterationResult {
    int depth = 0;
    std::vector<RootMove> lines;  // the MultiPV lines, best first
};

class Searcher {
  public:
    // Late move reductions in plies by depth and move number; depths and move numbers beyond the
    // table take its last row and column.
    static constexpr int kLmrTableSize = 64;
    using LmrTable = std::array<std::array<int, kLmrTableSize>, kLmrTableSize>;

    explicit Searcher(int index);

    // Prepares a search of root (with its game history) over the given root moves.
    void prepare(const Position& root, const std::vector<Move>& rootMoves, SharedSearch& shared);
    // Iterative deepening until a limit or stop. The main thread (index 0) manages time and
    // reports progress; helpers search until stopped.
    void iterativeDeepening();

    void newGame();  // forget histories and killers
    std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    const Counters& counters() const { return counters_; }
    const IterationResult& lastIteration() const { return finished_; }
    bool isMain() const { return index_ == 0; }

    // Builds the info record of one root line.
    SearchInfo makeInfo(const RootMove& rm, int depth, int multipv, Score::Bound bound) const;

  private:
    // Whether this thread must stop now. The main thread finishes its first iteration whatever
    // happens (it takes well under a millisecond), so a search stopped at once still answers
    // with a searched move, not the first legal one.
    bool stopped() const {
        return shared_->stop.load(std::memory_order_relaxed) && (finished_.depth > 0 || !isMain());
    }

    enum class NodeType { Root, PV, NonPV };

    // The margins and reductions (search/search_params.h): the defaults, folded into the code
    // as constants, in a release build; the search's SearchConfig in a tunable build.
    const SearchParams& params() const {
        if constexpr (kTunableSearch)
            return shared_->config.params;
        else
            return kDefaultSearchParams;
    }

    struct StackEntry {
        int staticEval = 0;
        Move move;              // the move made from this ply
        Piece piece = NoPiece;  // ... the piece it moved (NoPiece after a null move)
        bool capture = false;   // ... and whether it captured
        bool nullMove = false;
        bool ttPv = false;         // a PV node, or one whose table entry was stored by one (ttPv)
        int doubleExtensions = 0;  // double extensions on the line, up to the move from here
        int cutoffCount = 0;       // beta cutoffs of this ply's nodes since the parent began
        Move excluded;             // the move a singular-extension search leaves out
        Bitboard threats = 0;      // squares the opponent attacks here (threatHistory), or none
        int pvLength = 0;
        std::array<Move, kMaxSearchPly + 1> pv{};
    };

    template <NodeType NT>
    int search(int alpha, int beta, int depth, int ply, bool cutNode);
    template <bool PvNode>
    int quiescence(int alpha, int beta, int ply, int qply);
    int aspirationSearch(int depth, int pvIndex);

    // Largest material gain the opponent threatens if we passed (0 if none); sets the square of
    // the threatened piece.
    int detectThreat(Square& threatened);

    // A transposition table probe at one node (counted as a hit when it hits); the score is
    // already relative to this node. With the table switched off it never hits.
    struct TableProbe {
        Key key = 0;
        TTData entry;
        bool hit = false;
        int score = 0;
        // A non-mate score whose bound says the true value is nearer to it than `eval` is (exact;
        // a lower bound above eval; an upper bound below it): a better guess than the eval.
        bool refines(int eval) const {
            return hit && !isMateScore(score) &&
                   (entry.bound == TTBound::Exact ||
                    (entry.bound == TTBound::Lower && score > eval) ||
                    (entry.bound == TTBound::Upper && score < eval));
        }
    };
    TableProbe probeTable(int ply);

    // Steps of search() kept apart (searcher.cpp says why each is sound). A returned score ends
    // the node (a cutoff, or 0 from a stopped search); nothing means search on.
    std::optional<int> nullMovePruning(int beta, int depth, int ply, bool cutNode, int eval);
    // Confirms a deep null-move cutoff by a reduced normal search without null moves.
    bool nullMoveVerified(int beta, int depth, int reduction, int ply);
    std::optional<int> probCut(int beta, int depth, int ply, bool cutNode, int staticEval,
                               int rawEval, const TableProbe& table, Move ttMove);
    // The extension of the table move in plies, or a multi-cut (or stopped) score.
    struct SingularOutcome {
        int extension = 0;
        std::optional<int> cutoff;
    };
    SingularOutcome singularExtension(Move ttMove, int beta, int depth, int ply, bool pvNode,
                                      bool cutNode, const TableProbe& table);
    // What the move loop knows of one move, for the steps that decide about it.
    struct MoveFacts {
        Move move;
        bool capture = false;
        bool noisy = false;  // a capture or a promotion
        bool givesCheck = false;
        bool killer = false;
        bool counterMove = false;
        int statScore = 0;  // butterfly + continuation history of a quiet move (with the
                            // extended reductions: capture history of a capture)
    };
    // Step 14 of search(): search the move, skip it, or skip it and every later quiet move.
    enum class MovePrune { Search, Skip, SkipQuiets };
    MovePrune shallowPruning(const MoveFacts& mv, int depth, int alpha, int eval, bool improving,
                             int moveCount, int quietCount);
    // The reduction table's plies for this depth and move number, before any adjustment.
    int baseReduction(int depth, int moveCount) const {
        return lmrTable_[std::min(depth, kLmrTableSize - 1)]
                        [std::min(moveCount, kLmrTableSize - 1)];
    }
    // Plies a late move is searched shallower (0 up to newDepth - 1).
    int lateMoveReduction(const MoveFacts& mv, int depth, int moveCount, int newDepth, bool pvNode,
                          bool ttPv, bool improving, bool cutNode, bool ttCapture,
                          int childCutoffs);
    // A root move's score, PV and effort after its search (exact: the first move or one that
    // beat alpha; otherwise only an upper bound).
    void recordRootMove(Move m, int score, bool exact, std::uint64_t nodesBefore);
    // Step 20 of search(): a cutoff teaches the move ordering.
    void learnFromCutoff(int ply, int depth, Move bestMove, PickStage bestStage, int moveCount,
                         const MoveList& quietsTried, const MoveList& capturesTried);

    bool shouldStop();
    void checkTime();
    // Counts a node searched at this ply (nodes, seldepth, the PV length a PV node starts from).
    void countNode(int ply, bool pvNode);
    bool isDrawInTree(int ply) const;
    int evaluate();
    // The static eval corrected by the correction history (where switched on).
    int correctedEval(int rawEval) const;
    // Step 21 of search(): teaches the correction histories what the search found.
    void updateCorrection(int depth, int searched, int rawEval, int staticEval);
    // The entry of the real move `back` plies before `ply` (null before the root or after a
    // null move): what continuation history and counter moves are keyed by.
    const StackEntry* moveBefore(int ply, int back) const;
    // What ordering knows of the node at `ply` beyond the butterfly history; for captures only
    // (quiescence, ProbCut) the capture history.
    OrderingHints orderingHints(int ply) const;
    OrderingHints captureHints() const;
    // A cutoff by a quiet move: killers, counter move, butterfly and continuation histories.
    void rewardQuiet(int ply, Move best, int bonus, const MoveList& quietsTried);
    // The butterfly and continuation histories' part of rewardQuiet (no killer, no counter move).
    void rewardQuietHistories(int ply, Move best, int bonus, const MoveList& quietsTried);
    void updateCaptureHistory(Move m, int bonus);
    void updatePv(int ply, Move m);
    void reportLines(int depth);

    int index_;
    Position pos_;
    Evaluator evaluator_;
    History history_;
    ContinuationHistory continuation_;
    CaptureHistory captureHistory_;
    CounterMoves counterMoves_;
    CorrectionHistory correction_;  // by pawn structure
    // correctionHistoryExtended: by the non-pawn pieces of each color, and by material.
    std::array<CorrectionHistory, ColorCount> nonPawnCorrection_;
    CorrectionHistory materialCorrection_;
    Killers killers_;
    Counters counters_;
    std::atomic<std::uint64_t> nodes_{0};
    SharedSearch* shared_ = nullptr;
    LmrTable lmrTable_;  // from params(): built once, and again at prepare() in a tunable build
    std::vector<RootMove> rootMoves_;
    IterationResult finished_;
    std::array<StackEntry, kMaxSearchPly + 4> stack_{};
    int pvIndex_ = 0;
    int rootDepth_ = 0;
    int seldepth_ = 0;
    int nullMoveMinPly_ = 0;  // null move is off below this ply during a verification search
    std::uint32_t timeCheckCounter_ = 0;
};

}  // namespace outpost::search
