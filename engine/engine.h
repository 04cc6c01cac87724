// The engine facade: what a UCI front end, the server's search pool and the tests use.
//
// An Engine owns its transposition table (or shares one handed to it), its search threads and
// their histories. There are no mutable globals, so one process can hold many engines.
//
//   * go()   starts a search and returns at once; results arrive through the callbacks, which run
//            on a search thread (the receiver posts them where it needs them).
//   * run()  searches on the calling thread and returns the result (the server's pool threads
//            call this); onInfo/onCurrMove callbacks still fire during the search.
//   * stop() may be called from any thread; the search ends promptly and onBestMove still fires.
//   * go()/run() while a search runs stop that search first (it still reports its bestmove).
//
// Thread-safety: go/stop/wait/ponderhit/searching may be called from any thread. setOptions and
// clearHash must not be called while a search runs (they wait for it to finish).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "search/search_params.h"

namespace outpost {

// What the engine calls itself (UCI `id name`, the server's GET /api/v1/engine).
inline constexpr const char* kEngineName = "Outpost";
inline constexpr const char* kEngineVersion = "0.1";

class TranspositionTable;

// Limits of one search. Any combination; the first limit reached ends the search.
struct SearchLimits {
    std::optional<int> depth;  // plies
    std::optional<std::uint64_t> nodes;
    std::optional<std::int64_t> movetimeMs;
    // A hard deadline whatever the other limits (a server's cap on every search): the search
    // stops there even with a depth, node, mate or clock limit, or `infinite`, not yet reached.
    // It changes nothing below it: a search that ends sooner is the same search.
    std::optional<std::int64_t> maxTimeMs;
    std::optional<int> mate;  // find a mate in N moves
    bool infinite = false;    // search until stop()
    bool ponder = false;      // like infinite until ponderhit(), then the clock applies
    // Clock play: the engine's own time management derives soft and hard bounds.
    std::optional<std::int64_t> wtimeMs, btimeMs, wincMs, bincMs;
    std::optional<int> movestogo;
    std::vector<std::string> searchmoves;  // UCI moves; empty means all
};

// Every search technique as a typed switch (defaults: on where a match shows it gains; see
// docs/search-measurements.md for the matches behind each default).
// Names used by UCI options and the server's `options` object are the lowerCamel field names.
struct SearchConfig {
    bool aspiration = true;
    bool transpositionTable = true;
    bool killers = true;
    bool history = true;
    bool mvvLva = true;
    bool recaptureFirst = false;
    bool see = true;
    bool quiescenceChecks = true;
    bool twoSidedQuiescence = false;
    bool deltaPruning = true;
    bool nullMove = true;
    bool futility = true;
    bool extendedFutility = true;
    bool razoring = false;
    bool aggressiveFutility = false;
    bool lateMoveReductions = true;
    bool checkExtension = false;
    bool mateDistancePruning = true;
    bool reverseFutility = true;
    bool lateMovePruning = true;
    bool internalIterativeReductions = true;
    // Issue 12's techniques (docs/search.md, "Techniques, switches and counters").
    bool continuationHistory = true;
    // On again with improvingFallback (29 November), on top of the second bundle: the three
    // together +40.1 ± 28.9 Elo over 200 games at 5+0.05 (docs/search-measurements.md).
    bool captureHistory = true;
    bool counterMoves = true;
    bool historyPruning = false;  // alone at 5+0.05: -7.0 ± 30.1 (docs/search-measurements.md)
    bool seeQuietPruning = true;
    bool correctionHistory = true;
    bool singularExtensions = true;
    bool nodeShareTime = false;
    // Time by the score's fall since this side's last move and over the last iterations: on at
    // 5+0.05, 400 games, +14.8 ± 19.4 (docs/search-measurements.md, "Falling eval").
    bool fallingEvalTime = true;
    bool probCut = true;
    // Issue 37's search bundle (docs/search.md): the six together (with historyPruning) measured
    // +17.8 ± 19.8 Elo over 800 games; each turned off alone at 5+0.05 (28 November), ttPv,
    // extendedLateMoveReductions and historyPruning measured below zero, so those three are off.
    bool ttPv = false;
    bool extendedLateMoveReductions = false;
    bool singularExtended = true;
    bool correctionHistoryExtended = true;
    bool continuationHistory4 = true;
    // Issue 37's second bundle (docs/search.md): the four together +33.5 ± 17.3 Elo over 800
    // games at 40,000 nodes, +5.8 ± 27.0 over 300 at 5+0.05 (29 November).
    bool ttCaptureReduction = true;
    bool childCutoffReduction = true;
    bool failHighBlend = true;
    bool quiescenceTableEval = true;
    bool improvingFallback = true;
    // Captures ordered by the victim's value plus capture history on one scale, instead of
    // MVV-LVA with capture history as a tie-break (search/movepick.cpp).
    bool captureHistoryOrdering = false;
    // A table cutoff by a quiet move rewards that move's history as a searched cutoff would.
    bool ttCutoffHistory = false;
    // The opponent's last quiet move gains or loses butterfly history by how the static eval
    // moved across it.
    bool evalDiffHistory = false;
    // Reverse futility returns a score between beta and the eval instead of the eval.
    bool reverseFutilityBlend = false;
    // Quiet moves ordered also by what their piece risks: out of a cheaper attacker's reach
    // first, into it last (search/movepick.cpp).
    bool threatOrdering = false;
    // Quiet checks that do not lose material by SEE ordered a little earlier.
    bool checkOrdering = false;
    // The butterfly history kept apart by whether the move's from and to squares are attacked by
    // the opponent (search/history.h).
    bool threatHistory = false;
    // The evaluation: the network (eval/nnue.h, docs/nnue.md) or the hand-crafted terms.
    bool network = true;
    // The margins and reductions; read only by a tunable build (search/search_params.h).
    SearchParams params;

    // Switch by name (the boundary where strings become typed fields). False if unknown.
    bool set(std::string_view name, bool on);
    std::optional<bool> get(std::string_view name) const;
    // Every switch by name, in declaration order.
    std::vector<std::pair<std::string, bool>> list() const;

    bool operator==(const SearchConfig&) const = default;
};

// A score from the side to move's point of view.
struct Score {
    enum class Kind { Cp, Mate };
    enum class Bound { Exact, Lower, Upper };
    Kind kind = Kind::Cp;
    int value = 0;  // centipawns, or moves to mate (negative: the side to move is mated)
    Bound bound = Bound::Exact;
};

// One progress report: a finished iteration (or one MultiPV line of it).
struct SearchInfo {
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    Score score;
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    std::int64_t timeMs = 0;
    int hashfull = 0;             // per mille
    std::vector<std::string> pv;  // UCI moves
};

// How often each technique fired in a search (cutoffs, prunes, reductions, re-searches).
struct SearchStats {
    std::vector<std::pair<std::string, std::uint64_t>> counters;  // name -> count
};

struct SearchResult {
    std::string bestmove;           // UCI; "0000" when the position has no legal move
    std::string ponder;             // UCI; may be empty
    SearchInfo info;                // the last (best) report, multipv 1
    std::vector<SearchInfo> lines;  // the last report of each MultiPV line
    SearchStats stats;
    bool stopped = false;  // ended by stop() rather than by a limit
};

// What to search: a position (FEN, or empty for the start position) with moves played from it.
struct SearchRequest {
    std::string fen;
    std::vector<std::string> moves;  // UCI moves played from fen (kept for repetition detection)
    SearchLimits limits;
    int multiPv = 1;
    std::optional<SearchConfig> config;  // overrides the engine's configuration for this search
    int level = 0;                       // 0 = full strength; 1..8 = playing levels for people
    // The game this search plays a move in, for what the engine remembers between the moves of a
    // game (the clock's unseen latency). Empty: the engine plays one game at a time (UCI), and a
    // search continues the previous one when its position does.
    std::string game;
    // Seeds a level's random choice among its candidate moves for this search alone (the server
    // derives it from the game and the ply: the same game and position give the same move).
    // Unset: the engine's own sequence, which advances with every level search.
    std::optional<std::uint64_t> seed;
};

struct SearchCallbacks {
    std::function<void(const SearchInfo&)> onInfo;
    std::function<void(const std::string& move, int number, int depth)> onCurrMove;
    std::function<void(const SearchResult&)> onBestMove;
};

struct EngineOptions {
    std::size_t hashMb = 16;
    int threads = 1;
    int moveOverheadMs = 10;
    SearchConfig config;
    // When set, the engine uses this table instead of owning one (the server shares one table
    // among its pool of engines); hashMb is then ignored.
    std::shared_ptr<TranspositionTable> sharedTable;
};

// A table to share among several engines (EngineOptions::sharedTable), sized in MB. A non-zero
// agePeriod ages it by time rather than per search (see search/tt.h).
std::shared_ptr<TranspositionTable> makeSharedTable(
    std::size_t megabytes, std::chrono::milliseconds agePeriod = std::chrono::milliseconds{0});

class Engine {
  public:
    explicit Engine(EngineOptions options = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Throws std::invalid_argument (with the reason) for a bad FEN or an illegal move in request.
    void go(const SearchRequest& request, SearchCallbacks callbacks);
    SearchResult run(const SearchRequest& request, const SearchCallbacks& callbacks = {});
    void stop();
    void ponderhit();
    void wait();
    bool searching() const;

    void setOptions(const EngineOptions& options);
    const EngineOptions& options() const;
    void clearHash();  // also clears histories: a new game
    // Forgets what earlier searches taught this engine: histories, killers, evaluation caches and
    // its own table (a shared table is left alone), but not what it remembers of each game's
    // clock. The next search then depends on its request and the shared table only.
    void forgetSearches();
    int hashfull() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace outpost
