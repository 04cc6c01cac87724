// The Engine facade (engine.h): validates requests, runs the search threads, picks the result.
//
// Threads: go() starts a worker thread that runs the main searcher and joins the helpers; run()
// does the same on the caller's thread. Helper threads are started per search (cheap next to any
// search) and always joined before the result is built, so no thread outlives its search.
#include "engine.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"
#include "search/clock_memory.h"
#include "search/levels.h"
#include "search/searcher.h"
#include "search/timeman.h"
#include "search/tt.h"

namespace outpost {

using search::Searcher;
using search::SharedSearch;

namespace {

constexpr int kMaxThreads = 256;
constexpr int kMaxMultiPv = 256;
constexpr std::size_t kMaxHashMb = 1 << 16;
constexpr std::uint64_t kLevelSeed = 0x5EED0F0C7A57ULL;  // fixed: level play is reproducible

// A request turned into typed, validated search input.
struct PreparedSearch {
    Position root;
    std::vector<Move> rootMoves;
    SearchLimits limits;
    SearchConfig config;
    int multiPv = 1;
    int level = 0;
    std::string fen;  // the game's start, to recognise its next move
    std::size_t movesPlayed = 0;
    std::string game;
    std::optional<std::uint64_t> seed;
};

PreparedSearch prepareRequest(const SearchRequest& request, const SearchConfig& defaults) {
    PreparedSearch p;
    if (!request.fen.empty()) {
        std::string error;
        auto pos = Position::fromFen(request.fen, &error);
        if (!pos) throw std::invalid_argument("invalid FEN: " + error);
        p.root = std::move(*pos);
    }
    for (std::size_t i = 0; i < request.moves.size(); ++i) {
        std::string error;
        const auto m = moveFromUci(p.root, request.moves[i], &error);
        if (!m) {
            throw std::invalid_argument("illegal move '" + request.moves[i] + "' (move " +
                                        std::to_string(i + 1) + "): " + error);
        }
        p.root.makeMove(*m);
    }
    MoveList legal;
    generateLegal(p.root, legal);
    if (request.limits.searchmoves.empty()) {
        for (const auto& sm : legal) p.rootMoves.push_back(sm.move);
    } else {
        for (const auto& text : request.limits.searchmoves) {
            std::string error;
            const auto m = moveFromUci(p.root, text, &error);
            if (!m) throw std::invalid_argument("illegal searchmove '" + text + "': " + error);
            if (std::find(p.rootMoves.begin(), p.rootMoves.end(), *m) == p.rootMoves.end())
                p.rootMoves.push_back(*m);
        }
    }
    p.limits = request.limits;
    p.config = request.config.value_or(defaults);
    p.multiPv = std::clamp(request.multiPv, 1, kMaxMultiPv);
    p.level = request.level;
    p.fen = request.fen;
    p.movesPlayed = request.moves.size();
    p.game = request.game;
    p.seed = request.seed;
    if (p.level < 0 || p.level > search::kMaxLevel) {
        throw std::invalid_argument("level must be 0 (full strength) or 1.." +
                                    std::to_string(search::kMaxLevel));
    }
    return p;
}

// A mate score as a large centipawn value, so levels can compare lines.
int comparableCp(const Score& s) {
    constexpr int kMateCp = 100000;
    if (s.kind == Score::Kind::Cp) return s.value;
    return s.value > 0 ? kMateCp - s.value : -kMateCp - s.value;
}

}  // namespace

std::shared_ptr<TranspositionTable> makeSharedTable(std::size_t megabytes,
                                                    std::chrono::milliseconds agePeriod) {
    return std::make_shared<TranspositionTable>(std::clamp<std::size_t>(megabytes, 1, kMaxHashMb),
                                                agePeriod);
}

struct Engine::Impl {
    EngineOptions options;
    std::shared_ptr<TranspositionTable> table;
    std::vector<std::unique_ptr<Searcher>> searchers;
    SharedSearch shared;
    std::mt19937_64 levelRng{kLevelSeed};

    // Adaptive move overhead (search/clock_memory.h), per game.
    search::ClockMemory clocks;
    std::int64_t unseenLatency(const PreparedSearch& p);
    std::optional<int> lastMoveScore(const PreparedSearch& p);
    void rememberClock(const PreparedSearch& p, std::optional<int> score);

    std::mutex mutex;  // pairs with wakeUp: stop / ponderhit wake a search waiting to report
    std::condition_variable wakeUp;
    std::mutex workerMutex;  // guards worker (never held while waiting on wakeUp)
    std::thread worker;
    std::atomic<bool> running{false};
    std::atomic<bool> userStop{false};
    // The evaluation the table's scores and the searchers' corrections were made with (unset
    // before the first search).
    std::optional<bool> evaluationInUse;

    // A switch of evaluation (setoption, or one request's config) makes every stored score and
    // static eval, and every learned eval correction, belong to the other evaluation: the next
    // search would cut on them as if they were its own. Forget them, as for a new game. A shared
    // table is the pool's to clear (the server keeps searches with other options off it).
    void useEvaluation(bool network) {
        if (evaluationInUse && *evaluationInUse != network) {
            if (!options.sharedTable) table->clear();
            for (auto& s : searchers) s->newGame();
        }
        evaluationInUse = network;
    }

    // Throws std::bad_alloc, changing nothing, when the table of the size asked for cannot be
    // had (the engine keeps its options and its table).
    void applyOptions(const EngineOptions& o) {
        const bool hadOwnTable = table && !options.sharedTable;
        EngineOptions next = o;
        next.threads = std::clamp(o.threads, 1, kMaxThreads);
        next.hashMb = std::clamp<std::size_t>(o.hashMb, 1, kMaxHashMb);
        if (o.sharedTable) {
            table = o.sharedTable;
        } else if (!hadOwnTable) {
            table = std::make_shared<TranspositionTable>(next.hashMb);
        } else if (table->megabytes() != next.hashMb) {
            table->resize(next.hashMb);
        }
        options = std::move(next);
        while (static_cast<int>(searchers.size()) < options.threads)
            searchers.push_back(std::make_unique<Searcher>(static_cast<int>(searchers.size())));
        searchers.resize(static_cast<std::size_t>(options.threads));
        useEvaluation(options.config.network);
    }

    // Resets the per-search flags; called on the caller's thread before the search starts so a
    // stop() right after go() is never lost.
    void arm(const PreparedSearch& p) {
        shared.stop.store(false);
        userStop.store(false);
        shared.pondering.store(p.limits.ponder);
        shared.stopOnPonderhit.store(false);
        shared.started = search::Clock::now();
        shared.clockStartNs.store(
            std::chrono::duration_cast<std::chrono::nanoseconds>(shared.started.time_since_epoch())
                .count());
        running.store(true);
    }

    SearchResult execute(PreparedSearch p, const SearchCallbacks& callbacks);
    void waitForStopIfInfinite(const SearchLimits& limits);
    void join() {
        std::lock_guard<std::mutex> lock(workerMutex);
        if (!worker.joinable()) return;
        if (worker.get_id() == std::this_thread::get_id()) {
            worker.detach();  // called from a callback on the worker itself
        } else {
            worker.join();
        }
    }
};

void Engine::Impl::waitForStopIfInfinite(const SearchLimits& limits) {
    // UCI: in infinite and ponder mode the best move waits for stop (or ponderhit).
    std::unique_lock<std::mutex> lock(mutex);
    wakeUp.wait(lock,
                [&] { return userStop.load() || (!limits.infinite && !shared.pondering.load()); });
}

SearchResult Engine::Impl::execute(PreparedSearch p, const SearchCallbacks& callbacks) {
    SearchResult result;
    search::LevelSettings level = search::levelSettings(p.level);
    int threadCount = options.threads;
    if (p.level >= search::kMinLevel && p.level < search::kMaxLevel) {
        if (level.depth > 0)
            p.limits.depth = std::min(p.limits.depth.value_or(level.depth), level.depth);
        if (level.nodes > 0)
            p.limits.nodes = std::min(p.limits.nodes.value_or(level.nodes), level.nodes);
        p.multiPv = std::max(p.multiPv, level.multiPv);
        threadCount = 1;  // levels play from a fixed node budget: one thread keeps it exact
    }

    useEvaluation(p.config.network);
    shared.config = p.config;
    shared.limits = p.limits;
    shared.time = search::computeTimeBounds(p.limits, p.root.sideToMove() == White,
                                            options.moveOverheadMs, unseenLatency(p));
    shared.tt = table.get();
    shared.callbacks = &callbacks;
    shared.multiPv = p.multiPv;
    shared.threadCount = threadCount;
    shared.rootSide = p.root.sideToMove();
    shared.lastMoveScore = lastMoveScore(p);
    shared.searchers.clear();
    for (int i = 0; i < threadCount; ++i)
        shared.searchers.push_back(searchers[static_cast<std::size_t>(i)].get());
    table->newSearch();

    if (p.rootMoves.empty()) {
        // Checkmate or stalemate at the root (or no search move given): nothing to search.
        waitForStopIfInfinite(p.limits);
        result.bestmove = "0000";
        result.info.depth = 0;
        result.info.score.kind = p.root.inCheck() ? Score::Kind::Mate : Score::Kind::Cp;
        result.info.score.value = 0;
        result.lines.push_back(result.info);
        result.stopped = userStop.load();
        return result;
    }

    for (Searcher* s : shared.searchers) s->prepare(p.root, p.rootMoves, shared);
    std::vector<std::thread> helpers;
    for (int i = 1; i < threadCount; ++i) {
        helpers.emplace_back(
            [s = shared.searchers[static_cast<std::size_t>(i)]] { s->iterativeDeepening(); });
    }
    shared.searchers[0]->iterativeDeepening();
    shared.stop.store(true);
    for (auto& t : helpers) t.join();
    waitForStopIfInfinite(p.limits);

    // The result comes from the best finished iteration: the main thread's, unless a helper
    // finished a deeper one (Lazy SMP). MultiPV and levels use the main thread's lines.
    const Searcher* best = shared.searchers[0];
    if (p.multiPv == 1) {
        for (const Searcher* s : shared.searchers) {
            const auto& it = s->lastIteration();
            const auto& bi = best->lastIteration();
            if (it.depth == 0) continue;
            if (bi.depth == 0 || it.depth > bi.depth ||
                (it.depth == bi.depth && it.lines[0].score > bi.lines[0].score)) {
                best = s;
            }
        }
    }
    const auto& iteration = best->lastIteration();
    std::vector<search::RootMove> lines = iteration.lines;
    if (lines.empty()) {
        // Stopped before the first iteration finished: the first root move (in the order the
        // search had reached) is still a legal move.
        search::RootMove rm;
        rm.move = p.rootMoves.front();
        rm.score = 0;
        rm.pv = {rm.move};
        lines.push_back(rm);
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        result.lines.push_back(best->makeInfo(lines[i], iteration.depth, static_cast<int>(i) + 1,
                                              Score::Bound::Exact));
    }
    std::size_t chosen = 0;
    if (p.level >= search::kMinLevel && p.level < search::kMaxLevel) {
        std::vector<int> scores;
        for (const auto& info : result.lines) scores.push_back(comparableCp(info.score));
        if (p.seed) {
            std::mt19937_64 requestRng(*p.seed);
            chosen = search::chooseLevelMove(scores, level, requestRng);
        } else {
            chosen = search::chooseLevelMove(scores, level, levelRng);
        }
    }
    result.info = result.lines[chosen];
    result.info.multipv = 1;
    const auto& pv = lines[chosen].pv;
    result.bestmove = moveToUci(pv.front());
    if (pv.size() > 1) {
        result.ponder = moveToUci(pv[1]);
    } else {
        // The table often knows the reply even when the PV was cut short.
        Position after = p.root;
        after.makeMove(pv.front());
        TTData tte;
        if (table->probe(after.key(), tte) && tte.move != 0 && after.isLegal(Move(tte.move))) {
            result.ponder = moveToUci(Move(tte.move));
        }
    }
    search::Counters total;
    for (const Searcher* s : shared.searchers) total += s->counters();
    for (std::size_t i = 0; i < total.values.size(); ++i) {
        result.stats.counters.emplace_back(std::string(search::kCounterNames[i]), total.values[i]);
    }
    result.stopped = userStop.load();
    rememberClock(p, iteration.depth > 0 ? std::optional<int>(lines[0].score) : std::nullopt);
    return result;
}

namespace {
search::ClockKey clockKey(const PreparedSearch& p) {
    return search::ClockKey{p.game, p.fen, p.movesPlayed, p.root.sideToMove()};
}
}  // namespace

std::int64_t Engine::Impl::unseenLatency(const PreparedSearch& p) {
    const Color side = p.root.sideToMove();
    const auto& clock = side == White ? p.limits.wtimeMs : p.limits.btimeMs;
    if (!clock) return 0;
    return clocks.unseenLatency(clockKey(p), *clock, p.limits.ponder);
}

std::optional<int> Engine::Impl::lastMoveScore(const PreparedSearch& p) {
    return clocks.lastScore(clockKey(p));
}

void Engine::Impl::rememberClock(const PreparedSearch& p, std::optional<int> score) {
    const Color side = p.root.sideToMove();
    const auto& clock = side == White ? p.limits.wtimeMs : p.limits.btimeMs;
    const auto& inc = side == White ? p.limits.wincMs : p.limits.bincMs;
    const bool usable = clock.has_value() && !p.limits.ponder && !p.limits.movestogo;
    clocks.remember(clockKey(p), usable, clock.value_or(0), inc.value_or(0),
                    usable ? shared.clockElapsedMs() : 0, score);
}

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>()) {
    impl_->applyOptions(options);
}

Engine::~Engine() {
    stop();
    wait();
}

void Engine::go(const SearchRequest& request, SearchCallbacks callbacks) {
    PreparedSearch p = prepareRequest(request, impl_->options.config);
    // A new search replaces a running one (which still reports its bestmove): never block on an
    // infinite search that nobody stops.
    if (searching()) stop();
    wait();
    impl_->arm(p);
    std::lock_guard<std::mutex> lock(impl_->workerMutex);
    impl_->worker = std::thread([this, p = std::move(p), cb = std::move(callbacks)]() mutable {
        SearchResult result = impl_->execute(std::move(p), cb);
        impl_->running.store(false);
        if (cb.onBestMove) cb.onBestMove(result);
    });
}

SearchResult Engine::run(const SearchRequest& request, const SearchCallbacks& callbacks) {
    PreparedSearch p = prepareRequest(request, impl_->options.config);
    if (searching()) stop();
    wait();
    impl_->arm(p);
    SearchResult result = impl_->execute(std::move(p), callbacks);
    impl_->running.store(false);
    if (callbacks.onBestMove) callbacks.onBestMove(result);
    return result;
}

void Engine::stop() {
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        impl_->userStop.store(true);
        impl_->shared.stop.store(true);
    }
    impl_->wakeUp.notify_all();
}

void Engine::ponderhit() {
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        // The clock starts now: the time spent pondering was the opponent's. The search's
        // work while pondering still counts: one that has done a move's worth ends now.
        impl_->shared.clockStartNs.store(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             search::Clock::now().time_since_epoch())
                                             .count());
        impl_->shared.pondering.store(false);
        if (impl_->shared.stopOnPonderhit.load()) impl_->shared.stop.store(true);
    }
    impl_->wakeUp.notify_all();
}

void Engine::wait() {
    impl_->join();
}

bool Engine::searching() const {
    return impl_->running.load();
}

void Engine::setOptions(const EngineOptions& options) {
    wait();
    impl_->applyOptions(options);
}

const EngineOptions& Engine::options() const {
    return impl_->options;
}

void Engine::clearHash() {
    wait();
    // A shared table belongs to the pool: clearing it is the owner's decision.
    if (!impl_->options.sharedTable) impl_->table->clear();
    for (auto& s : impl_->searchers) s->newGame();
    impl_->clocks.clear();
}

void Engine::forgetSearches() {
    wait();
    if (!impl_->options.sharedTable) impl_->table->clear();
    for (auto& s : impl_->searchers) s->newGame();
}

int Engine::hashfull() const {
    return impl_->table->hashfull();
}

}  // namespace outpost
