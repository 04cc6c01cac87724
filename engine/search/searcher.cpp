// The search proper: iterative deepening, aspiration windows, principal variation search with
// its pruning and reductions, and quiescence. Each step is numbered and says why it is sound;
// each technique can be switched off in SearchConfig and counts what it did.
#include "search/searcher.h"

#include <algorithm>
#include <cmath>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/see.h"
#include "search/movepick.h"

namespace outpost::search {
namespace {

// The margins and reductions a tuner may change are in search/search_params.h, read through
// params(); what stays here is structure (depth limits of a step, counts, report intervals).

// --- Aspiration windows ---------------------------------------------------------------------
constexpr int kAspirationMinDepth = 4;       // shallower scores swing too much for a narrow window
constexpr int kAspirationFullWidth = 1000;   // beyond this half-width, search the full window
constexpr int kAspirationGrowthDivisor = 2;  // after a fail, the half-width grows by 1/2 of itself
// Fifty-move rule: at 100 half-moves the game is drawn (unless mated); from 90 on a table score
// is not trusted for a cutoff, since the draw may be closer than the stored line knew.
constexpr int kFiftyMoveDraw = 100;
constexpr int kFiftyMoveTableTrust = 90;
constexpr std::int64_t kBoundReportMs = 1000;  // report fail-high/low lines on longer searches
constexpr std::int64_t kCurrMoveReportMs = 3000;

// --- Node-level pruning ---------------------------------------------------------------------
constexpr int kReverseFutilityImprovingPlies = 1;  // a margin of one ply less when improving
constexpr int kRazoringDepth = 3;                  // pre-pre-frontier
constexpr int kNullMoveMinDepth = 2;
constexpr int kNullMoveVerifyDepth = 12;  // verify null-move cutoffs at and beyond this depth
// The verification search allows no null move for this fraction of its remaining depth.
constexpr int kNullMoveVerifyPlyNumerator = 3;
constexpr int kNullMoveVerifyPlyDenominator = 4;

// --- Move-level pruning ---------------------------------------------------------------------
constexpr int kFutilityDepth = 1;          // frontier
constexpr int kExtendedFutilityDepth = 2;  // pre-frontier
constexpr int kLateMovePruningNotImprovingDivisor = 2;

// --- Reductions and extensions --------------------------------------------------------------
constexpr int kLmrFullMovesPv = 2;         // moves searched unreduced first: in PV nodes ...
constexpr int kLmrFullMovesNonPv = 1;      // ... and elsewhere
constexpr int kLmrNodeAdjustment = 1;      // plies less in PV nodes, more when not improving or at
                                           // expected cut nodes
constexpr int kMaxExtensionPlyFactor = 2;  // no extensions beyond twice the iteration depth
constexpr int kCheckExtension = 1;         // plies
constexpr int kSingularDepthDivisor = 2;   // the search without the table move: (depth - 1) / 2
constexpr int kSingularExtension = 1;      // plies: a singular move is searched deeper ...
constexpr int kNegativeExtension = -1;     // ... a non-singular one that beats beta shallower
// With singularExtended: a move far more singular than the margin asks is searched two plies
// deeper (in non-PV nodes, a few times per line); a non-singular one that beats beta two plies
// shallower, and one at an expected cut node one ply shallower.
constexpr int kDoubleExtension = 2;
constexpr int kNegativeExtensionExtended = -2;
constexpr int kNegativeExtensionCutNode = -1;
// ttCaptureReduction: a quiet move is reduced this many plies more when the table move is a
// capture or promotion (the node's best is likely tactical, the quiet moves unlikely to matter).
constexpr int kTtCaptureReduction = 1;
// childCutoffReduction: once more than this many of the node's children have failed high (their
// moves were refuted: the node looks like an all node), late moves are reduced a ply more.
constexpr int kChildCutoffsForReduction = 3;
constexpr int kChildCutoffReduction = 1;

// --- Scores and history ---------------------------------------------------------------------
// reverseFutilityBlend: the pruned node returns beta plus this fraction of the eval's margin.
constexpr int kReverseFutilityBlendDivisor = 3;
// evalDiffHistory: centipawns of the eval swing per history unit, and the bound of one update
// (the bonus of a depth-8 cutoff: a swing of a pawn weighs about as much as a cutoff at the
// depths where most nodes are).
constexpr int kEvalDiffHistoryDivisor = 2;
constexpr int kEvalDiffHistoryMax = 64;

// --- Quiescence -----------------------------------------------------------------------------
constexpr int kThreatMinGain = 100;  // threats of less than a pawn are ignored
constexpr int kQuiescenceTableDepth = -1;

// correctionHistoryExtended: the tables' corrections are added with weights
// (SearchParams::correction*Weight) in 1/kCorrectionWeightScale.
constexpr int kCorrectionWeightScale = 128;

// continuationHistory4: our own move this many plies back also keys a continuation table.
constexpr int kContinuation4Plies = 4;

// "Improving": the static eval against the side's own eval this many plies earlier.
constexpr int kImprovingPlies = 2;

constexpr std::uint32_t kTimeCheckInterval = 512;  // nodes between clock reads
constexpr int kIterationStartDivisor = 2;          // start an iteration only before soft / 2
// Best-move changes earn extra time; their count halves every few iterations so only recent
// instability counts.
constexpr int kChangesDecayIterations = 4;
constexpr int kChangesDecayDivisor = 2;
// The score's fall within a search (fallingEvalTime) is measured over this many iterations.
constexpr int kFallingEvalIterations = 3;

// Late move reductions in plies by depth and move number: base + ln(depth) ln(move) / divisor.
Searcher::LmrTable buildLmrTable(const SearchParams& p) {
    const double base = p.lmrBaseCentiPlies / 100.0, divisor = p.lmrDivisorCenti / 100.0;
    Searcher::LmrTable t{};
    for (int d = 1; d < Searcher::kLmrTableSize; ++d)
        for (int m = 1; m < Searcher::kLmrTableSize; ++m)
            t[d][m] = static_cast<int>(base + std::log(d) * std::log(m) / divisor);
    return t;
}

bool boundAllowsCutoff(TTBound bound, int score, int alpha, int beta) {
    return bound == TTBound::Exact || (bound == TTBound::Lower && score >= beta) ||
           (bound == TTBound::Upper && score <= alpha);
}

}  // namespace

// --- SharedSearch ---------------------------------------------------------------------------

std::int64_t SharedSearch::elapsedMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
}

std::int64_t SharedSearch::clockElapsedMs() const {
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
            .count();
    return (now - clockStartNs.load(std::memory_order_relaxed)) / 1'000'000;
}

std::uint64_t SharedSearch::totalNodes() const {
    std::uint64_t n = 0;
    for (const Searcher* s : searchers) n += s->nodes();
    return n;
}

// --- Searcher -------------------------------------------------------------------------------

Searcher::Searcher(int index) : index_(index), lmrTable_(buildLmrTable(kDefaultSearchParams)) {}

void Searcher::newGame() {
    history_.clear();
    continuation_.clear();
    captureHistory_.clear();
    counterMoves_.clear();
    correction_.clear();
    for (auto& c : nonPawnCorrection_) c.clear();
    materialCorrection_.clear();
    killers_.clear();
    evaluator_.clear();
}

void Searcher::prepare(const Position& root, const std::vector<Move>& rootMoves,
                       SharedSearch& shared) {
    pos_ = root;
    shared_ = &shared;
    if constexpr (kTunableSearch) lmrTable_ = buildLmrTable(params());
    evaluator_.useNetwork(shared.config.network);
    counters_ = Counters{};
    nodes_.store(0, std::memory_order_relaxed);
    rootMoves_.clear();
    for (const Move m : rootMoves)
        rootMoves_.push_back(RootMove{m, -kInfinity, -kInfinity, 0, {m}});
    finished_ = IterationResult{};
    // Knowledge from the previous move is still useful, but should not dominate.
    history_.age();
    continuation_.age();
    captureHistory_.age();
    killers_.clear();
    seldepth_ = 0;
    nullMoveMinPly_ = 0;
    timeCheckCounter_ = 0;
    for (auto& e : stack_) e = StackEntry{};
}

bool Searcher::shouldStop() {
    SharedSearch& sh = *shared_;
    if (stopped()) return true;
    if (!isMain()) return false;
    // With one thread the node limit is checked exactly, so node-limited searches repeat exactly.
    // The first iteration always finishes, so even a tiny budget yields a searched move.
    if (sh.limits.nodes && sh.threadCount == 1 && finished_.depth > 0 &&
        nodes() >= *sh.limits.nodes) {
        sh.stop.store(true, std::memory_order_relaxed);
        return true;
    }
    if (++timeCheckCounter_ % kTimeCheckInterval == 0) checkTime();
    return stopped();
}

void Searcher::checkTime() {
    SharedSearch& sh = *shared_;
    if (sh.limits.nodes && finished_.depth > 0 && sh.totalNodes() >= *sh.limits.nodes) {
        sh.stop.store(true, std::memory_order_relaxed);
    }
    // The hard bound counts from go, pondering included: a ponder search that ran past it ends as
    // soon as ponderhit comes (its work is done, and the clock, which runs from ponderhit, is
    // spared). Without pondering, go is when the clock started.
    if (sh.time && !sh.pondering.load(std::memory_order_relaxed) &&
        sh.elapsedMs() >= sh.time->hardMs) {
        sh.stop.store(true, std::memory_order_relaxed);
    }
}

bool Searcher::isDrawInTree(int ply) const {
    // The fifty-move rule yields to checkmate on the hundredth ply.
    if (pos_.rule50() >= kFiftyMoveDraw) return !(pos_.inCheck() && !hasLegalMove(pos_));
    return pos_.isDraw(ply);
}

Searcher::TableProbe Searcher::probeTable(int ply) {
    TableProbe probe;
    probe.key = pos_.key();
    probe.hit = shared_->config.transpositionTable && shared_->tt->probe(probe.key, probe.entry);
    if (probe.hit) {
        probe.score = scoreFromTable(probe.entry.score, ply);
        counters_.add(Counter::TTHits);
    }
    return probe;
}

void Searcher::countNode(int ply, bool pvNode) {
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    counters_.add(Counter::Nodes);
    if (pvNode) stack_[ply].pvLength = ply;
    seldepth_ = std::max(seldepth_, ply + 1);
}

int Searcher::evaluate() {
    return std::clamp(evaluator_.evaluate(pos_), -kEvalLimit, kEvalLimit);
}

int Searcher::correctedEval(int rawEval) const {
    const SearchConfig& cfg = shared_->config;
    if (!cfg.correctionHistory) return rawEval;
    const Color us = pos_.sideToMove();
    if (!cfg.correctionHistoryExtended) {
        return std::clamp(rawEval + correction_.correction(us, pos_.pawnKey()), -kEvalLimit,
                          kEvalLimit);
    }
    // Pawn structure, each side's piece placement and the material balance each miss something
    // of their own; their corrections add up, each with its weight.
    const int weighted =
        params().correctionPawnWeight * correction_.correction(us, pos_.pawnKey()) +
        params().correctionNonPawnWeight *
            (nonPawnCorrection_[White].correction(us, pos_.nonPawnKey(White)) +
             nonPawnCorrection_[Black].correction(us, pos_.nonPawnKey(Black))) +
        params().correctionMaterialWeight * materialCorrection_.correction(us, pos_.materialKey());
    return std::clamp(rawEval + weighted / kCorrectionWeightScale, -kEvalLimit, kEvalLimit);
}

void Searcher::updateCorrection(int depth, int searched, int rawEval, int staticEval) {
    const Color us = pos_.sideToMove();
    if (!shared_->config.correctionHistoryExtended) {
        correction_.update(us, pos_.pawnKey(), depth, searched, rawEval);
        return;
    }
    // Each table moves toward its own correction plus the residual the combined correction
    // left (correction.h), so the tables share the error instead of each taking all of it.
    const auto teach = [&](CorrectionHistory& table, Key key) {
        table.update(us, key, depth, searched, staticEval - table.correction(us, key));
    };
    teach(correction_, pos_.pawnKey());
    for (const Color c : {White, Black}) teach(nonPawnCorrection_[c], pos_.nonPawnKey(c));
    teach(materialCorrection_, pos_.materialKey());
}

const Searcher::StackEntry* Searcher::moveBefore(int ply, int back) const {
    if (ply < back) return nullptr;
    const StackEntry& e = stack_[ply - back];
    return e.move.isOk() && e.piece != NoPiece ? &e : nullptr;
}

OrderingHints Searcher::captureHints() const {
    OrderingHints hints;
    if (shared_->config.captureHistory) hints.captures = &captureHistory_;
    return hints;
}

OrderingHints Searcher::orderingHints(int ply) const {
    const SearchConfig& cfg = shared_->config;
    OrderingHints hints = captureHints();
    for (int back = 1; back <= 2; ++back) {
        const StackEntry* e = moveBefore(ply, back);
        if (e == nullptr) continue;
        if (cfg.continuationHistory) {
            hints.continuation[static_cast<std::size_t>(back - 1)] =
                &continuation_.after(e->piece, e->move.to());
        }
        if (back == 1 && cfg.counterMoves)
            hints.counter = counterMoves_.get(e->piece, e->move.to());
    }
    if (cfg.continuationHistory && cfg.continuationHistory4) {
        if (const StackEntry* e = moveBefore(ply, kContinuation4Plies))
            hints.continuation4 = &continuation_.after(e->piece, e->move.to());
    }
    hints.threats = stack_[ply].threats;
    return hints;
}

void Searcher::rewardQuiet(int ply, Move best, int bonus, const MoveList& quietsTried) {
    const SearchConfig& cfg = shared_->config;
    if (cfg.killers) killers_.add(ply, best);
    if (cfg.counterMoves) {
        if (const StackEntry* e = moveBefore(ply, 1))
            counterMoves_.set(e->piece, e->move.to(), best);
    }
    rewardQuietHistories(ply, best, bonus, quietsTried);
}

void Searcher::rewardQuietHistories(int ply, Move best, int bonus, const MoveList& quietsTried) {
    const SearchConfig& cfg = shared_->config;
    const Color us = pos_.sideToMove();
    if (cfg.history) {
        const Bitboard threats = stack_[ply].threats;
        history_.reward(us, best, bonus, threats);
        for (const auto& sm : quietsTried) history_.punish(us, sm.move, bonus, threats);
    }
    for (int back = 1; back <= 2; ++back) {
        const StackEntry* e = moveBefore(ply, back);
        if (e == nullptr || !cfg.continuationHistory) continue;
        PieceToHistory& table = continuation_.after(e->piece, e->move.to());
        applyHistoryBonus(table[pos_.movedPiece(best)][best.to()], bonus);
        for (const auto& sm : quietsTried)
            applyHistoryBonus(table[pos_.movedPiece(sm.move)][sm.move.to()], -bonus);
    }
    // continuationHistory4: the move 4 plies back learns too, at the weight ordering gives it.
    if (cfg.continuationHistory && cfg.continuationHistory4) {
        if (const StackEntry* e = moveBefore(ply, kContinuation4Plies)) {
            PieceToHistory& table = continuation_.after(e->piece, e->move.to());
            const int bonus4 = bonus / kContinuation4Divisor;
            applyHistoryBonus(table[pos_.movedPiece(best)][best.to()], bonus4);
            for (const auto& sm : quietsTried)
                applyHistoryBonus(table[pos_.movedPiece(sm.move)][sm.move.to()], -bonus4);
        }
    }
}

void Searcher::updateCaptureHistory(Move m, int bonus) {
    const PieceType victim = pos_.capturedType(m);
    captureHistory_.update(pos_.movedPiece(m), m.to(), victim, bonus);
}

void Searcher::updatePv(int ply, Move m) {
    StackEntry& here = stack_[ply];
    const StackEntry& child = stack_[ply + 1];
    here.pv[ply] = m;
    for (int i = ply + 1; i < child.pvLength; ++i) here.pv[i] = child.pv[i];
    here.pvLength = std::max(child.pvLength, ply + 1);
}

SearchInfo Searcher::makeInfo(const RootMove& rm, int depth, int multipv,
                              Score::Bound bound) const {
    SearchInfo info;
    info.depth = depth;
    info.seldepth = std::max(rm.seldepth, depth);
    info.multipv = multipv;
    const int s = rm.score == -kInfinity ? rm.previousScore : rm.score;
    if (isMateScore(s) && std::abs(s) <= kMate) {
        info.score.kind = Score::Kind::Mate;
        info.score.value = s > 0 ? (kMate - s + 1) / 2 : -(kMate + s) / 2;
    } else {
        info.score.kind = Score::Kind::Cp;
        info.score.value = std::clamp(s, -kEvalLimit, kEvalLimit);
    }
    info.score.bound = bound;
    info.nodes = shared_->totalNodes();
    info.timeMs = shared_->elapsedMs();
    info.nps =
        info.nodes * 1000 / static_cast<std::uint64_t>(std::max<std::int64_t>(1, info.timeMs));
    info.hashfull = shared_->tt->hashfull();
    for (const Move m : rm.pv) info.pv.push_back(moveToUci(m));
    return info;
}

void Searcher::reportLines(int depth) {
    const SearchCallbacks* cb = shared_->callbacks;
    if (cb == nullptr || !cb->onInfo) return;
    const int lines = std::min<int>(shared_->multiPv, static_cast<int>(rootMoves_.size()));
    for (int i = 0; i < lines; ++i) {
        cb->onInfo(
            makeInfo(rootMoves_[static_cast<std::size_t>(i)], depth, i + 1, Score::Bound::Exact));
    }
}

// --- Iterative deepening --------------------------------------------------------------------

void Searcher::iterativeDeepening() {
    SharedSearch& sh = *shared_;
    const int maxDepth =
        std::clamp(sh.limits.depth.value_or(kMaxSearchPly - 1), 1, kMaxSearchPly - 1);
    const int lines = std::min<int>(sh.multiPv, static_cast<int>(rootMoves_.size()));
    Move lastBest = Move::none();
    int stability = 0;
    int changes = 0;
    // The main thread's best score of the last few finished iterations (a ring), for the
    // falling-eval time factor.
    std::array<int, kFallingEvalIterations> recentBest{};
    int finishedIterations = 0;
    const auto byScore = [](const RootMove& a, const RootMove& b) {
        return a.score != b.score ? a.score > b.score : a.previousScore > b.previousScore;
    };

    for (int iteration = 1; iteration <= maxDepth; ++iteration) {
        // Lazy SMP: odd helpers search one ply deeper than the main thread, so the threads
        // spread over two depths and fill the shared table for each other.
        const int depth =
            !isMain() && index_ % 2 == 1 ? std::min(iteration + 1, kMaxSearchPly - 1) : iteration;
        rootDepth_ = depth;
        for (auto& rm : rootMoves_) {
            rm.previousScore = rm.score;
            rm.score = -kInfinity;
        }
        for (pvIndex_ = 0; pvIndex_ < lines; ++pvIndex_) {
            seldepth_ = 0;
            aspirationSearch(depth, pvIndex_);
            std::stable_sort(rootMoves_.begin(), rootMoves_.begin() + pvIndex_ + 1, byScore);
            if (stopped()) break;
        }
        if (stopped()) {
            // Stopped inside an iteration: a move that beat the previous best in this
            // iteration (fully searched, its score above the old best's bound) is kept: the old
            // best was just refuted.
            const RootMove& now = rootMoves_[0];
            if (lines == 1 && finished_.depth > 0 && now.score != -kInfinity &&
                now.move != finished_.lines[0].move) {
                finished_.lines[0] = now;
            }
            break;
        }

        finished_.depth = depth;
        finished_.lines.assign(rootMoves_.begin(), rootMoves_.begin() + lines);
        if (!isMain()) continue;

        reportLines(depth);
        const int best = rootMoves_[0].score;
        if (sh.limits.mate && best >= mateIn(2 * *sh.limits.mate - 1)) break;
        if (rootMoves_[0].move == lastBest) {
            ++stability;
        } else {
            stability = 0;
            if (lastBest) ++changes;
        }
        lastBest = rootMoves_[0].move;
        // The fall since the score kFallingEvalIterations finished iterations ago (none until
        // there are that many); this iteration's score then takes that one's slot.
        int& ringSlot =
            recentBest[static_cast<std::size_t>(finishedIterations % kFallingEvalIterations)];
        const int dropOverIterations =
            finishedIterations >= kFallingEvalIterations ? ringSlot - best : 0;
        ringSlot = best;
        ++finishedIterations;
        if (sh.time && sh.time->plan != TimeBounds::Plan::Deadline && !sh.limits.infinite) {
            // While pondering the search goes on, but notes when it has done a move's worth of
            // work: ponderhit then ends it at once (Engine::ponderhit), and the clock is spared.
            const bool pondering = sh.pondering.load(std::memory_order_relaxed);
            const auto enough = [&] {
                if (!pondering) return true;
                sh.stopOnPonderhit.store(true, std::memory_order_relaxed);
                // A ponderhit that came just before the note was made did not see it.
                return !sh.pondering.load(std::memory_order_relaxed);
            };
            // Only one legal move: no need to think.
            if (rootMoves_.size() == 1 && enough()) break;
            // movetime asks for exactly that long: only the hard bound ends it. Otherwise an
            // iteration takes about as long as all before it, so one that starts after half the
            // soft bound would likely end beyond it: do not start it.
            std::int64_t soft = scaledSoftBound(*sh.time, stability, changes);
            if (sh.config.nodeShareTime && nodes() > 0) {
                const double share =
                    static_cast<double>(rootMoves_[0].nodes) / static_cast<double>(nodes());
                soft = std::min(
                    sh.time->hardMs,
                    static_cast<std::int64_t>(nodeShareFactor(share) * static_cast<double>(soft)));
            }
            if (sh.config.fallingEvalTime) {
                const std::optional<int> dropSinceLastMove =
                    sh.lastMoveScore ? std::optional<int>(*sh.lastMoveScore - best) : std::nullopt;
                soft = std::min(sh.time->hardMs,
                                static_cast<std::int64_t>(
                                    fallingEvalFactor(dropSinceLastMove, dropOverIterations) *
                                    static_cast<double>(soft)));
            }
            // The search's effort counts from go, pondering included (as the hard bound does:
            // checkTime).
            if (sh.time->plan == TimeBounds::Plan::Clock &&
                sh.elapsedMs() * kIterationStartDivisor >= soft && enough()) {
                break;
            }
        }
        // Decay the count of changes so only recent instability earns extra time.
        if (iteration % kChangesDecayIterations == 0) changes /= kChangesDecayDivisor;
    }
    // The main thread ends the search: the helpers stop when it does.
    if (isMain()) sh.stop.store(true, std::memory_order_relaxed);
}

int Searcher::aspirationSearch(int depth, int pvIndex) {
    SharedSearch& sh = *shared_;
    const int previous = rootMoves_[static_cast<std::size_t>(pvIndex)].previousScore;
    int delta = params().aspirationWindow;
    int alpha = -kInfinity;
    int beta = kInfinity;
    // Step A. Aspiration window around the previous iteration's score: a narrow window cuts more,
    // and the score rarely moves far from one iteration to the next. Mate scores get the full
    // window (they jump by design).
    if (sh.config.aspiration && depth >= kAspirationMinDepth && previous != -kInfinity &&
        !isMateScore(previous)) {
        alpha = std::max(previous - delta, -kInfinity);
        beta = std::min(previous + delta, kInfinity);
    }
    const auto byScore = [](const RootMove& a, const RootMove& b) {
        return a.score != b.score ? a.score > b.score : a.previousScore > b.previousScore;
    };
    while (true) {
        const int score = search<NodeType::Root>(alpha, beta, depth, 0, false);
        std::stable_sort(rootMoves_.begin() + pvIndex, rootMoves_.end(), byScore);
        if (stopped()) return score;

        // Step B. Outside the window the score is only a bound: report it as one and widen the
        // window on that side, gradually (half as much again each time), then search again.
        Score::Bound bound;
        if (score <= alpha) {
            counters_.add(Counter::AspirationFailLows);
            bound = Score::Bound::Upper;
            beta = (alpha + beta) / 2;
            alpha = std::max(score - delta, -kInfinity);
        } else if (score >= beta) {
            counters_.add(Counter::AspirationFailHighs);
            bound = Score::Bound::Lower;
            beta = std::min(score + delta, kInfinity);
        } else {
            return score;
        }
        if (isMain() && sh.callbacks && sh.callbacks->onInfo && sh.multiPv == 1 &&
            sh.elapsedMs() >= kBoundReportMs) {
            RootMove shown = rootMoves_[static_cast<std::size_t>(pvIndex)];
            shown.score = score;
            sh.callbacks->onInfo(makeInfo(shown, depth, pvIndex + 1, bound));
        }
        delta += delta / kAspirationGrowthDivisor;
        if (delta > kAspirationFullWidth || isMateScore(score)) {
            alpha = -kInfinity;
            beta = kInfinity;
        }
    }
}

// --- Alpha-beta -----------------------------------------------------------------------------

template <Searcher::NodeType NT>
int Searcher::search(int alpha, int beta, int depth, int ply, bool cutNode) {
    constexpr bool rootNode = NT == NodeType::Root;
    constexpr bool pvNode = NT != NodeType::NonPV;
    const SearchConfig& cfg = shared_->config;

    // Step 1. At the horizon, resolve captures before evaluating (quiescence).
    if (depth <= 0) return quiescence<pvNode>(alpha, beta, ply, 0);

    // Step 2. Honour a stop (before counting, so a node limit is met exactly), count the node,
    // guard the stack.
    if (shouldStop()) return 0;
    countNode(ply, pvNode);
    const bool inCheck = pos_.inCheck();
    if (ply >= kMaxSearchPly - 1) return inCheck ? kDraw : evaluate();
    stack_[ply + 1].cutoffCount = 0;

    if (!rootNode) {
        // Step 3. Draws inside the tree: repetition (with the game's history), fifty moves,
        // insufficient material. Scored before anything else: no move changes them.
        if (isDrawInTree(ply)) {
            counters_.add(Counter::DrawsInTree);
            return kDraw;
        }
        // Step 4. Mate distance pruning: even mating at once cannot beat a shorter mate already
        // found, and being mated here is no worse than a faster mate found elsewhere.
        if (cfg.mateDistancePruning) {
            alpha = std::max(alpha, matedIn(ply));
            beta = std::min(beta, mateIn(ply + 1));
            if (alpha >= beta) {
                counters_.add(Counter::MateDistancePrunes);
                return alpha;
            }
        }
    }

    // Step 4a. Threats (threatHistory): the squares the opponent attacks pick the slice of the
    // butterfly history that this node's quiet moves read and teach.
    stack_[ply].threats = cfg.threatHistory ? pos_.attackedBy(~pos_.sideToMove()) : 0;

    // Step 5. Transposition table: a deep enough entry with a fitting bound decides a non-PV
    // node at once; its move is tried first in any case.
    // A singular-extension search of this node (one move left out) must not take the node's own
    // table entry as its answer, nor store one.
    const Move excluded = stack_[ply].excluded;
    const TableProbe table = probeTable(ply);
    Move ttMove = rootNode ? rootMoves_[static_cast<std::size_t>(pvIndex_)].move
                           : (table.hit ? Move(table.entry.move) : Move::none());
    if (!pvNode && !excluded && table.hit && table.entry.depth >= depth &&
        boundAllowsCutoff(table.entry.bound, table.score, alpha, beta) &&
        pos_.rule50() < kFiftyMoveTableTrust) {
        counters_.add(Counter::TTCutoffs);
        // Step 5a. A quiet table move that fails high here would have earned history had it
        // been searched (ttCutoffHistory); its histories learn it (not the killers: table
        // cutoffs are far more frequent than searched ones and would keep overwriting them).
        if (cfg.ttCutoffHistory && ttMove && table.score >= beta &&
            !pos_.isCaptureOrPromotion(ttMove) && pos_.isLegal(ttMove)) {
            rewardQuietHistories(ply, ttMove, historyBonus(depth, params().historyBonusScale), {});
            counters_.add(Counter::TtCutoffHistoryUpdates);
        }
        return table.score;
    }
    // Step 5b. Former PV node (ttPv): a node on a principal variation, or one whose table entry
    // was stored by a PV node, is likely to be on one again when the PV shifts; its late moves
    // are reduced less. A singular-extension search keeps the flag of the node it searches.
    const bool ttPv =
        cfg.ttPv && (excluded ? stack_[ply].ttPv : pvNode || (table.hit && table.entry.pv));
    stack_[ply].ttPv = ttPv;
    // Double extensions on the line to this node (singularExtended caps them); what the null
    // move, ProbCut and singular searches of this node see until a move sets its own.
    const int doubleExtensionsBefore = ply > 0 ? stack_[ply - 1].doubleExtensions : 0;
    stack_[ply].doubleExtensions = doubleExtensionsBefore;

    // Step 6. Static evaluation (none in check), corrected by what searches of positions with the
    // same pawn structure found it to miss (correction history), then refined by a table score
    // whose bound points the right way. "Improving": better than two plies ago, so pruning can be
    // bolder. The table keeps the raw eval; the correction may have moved on since.
    int rawEval = kNoEval;
    int staticEval = kNoEval;
    int eval = kNoEval;
    if (!inCheck) {
        rawEval = table.hit && table.entry.eval != kNoEval ? table.entry.eval : evaluate();
        staticEval = correctedEval(rawEval);
        eval = staticEval;
        if (table.refines(eval)) eval = table.score;
    }
    stack_[ply].staticEval = staticEval;
    // Step 6a. The eval swing across the opponent's last quiet move teaches its butterfly history
    // (evalDiffHistory): a move after which the mover's eval rose was good for it, whatever the
    // search of this node finds. Both evals are the side to move's, so their sum is the swing.
    if (cfg.evalDiffHistory && cfg.history && !excluded && staticEval != kNoEval) {
        const StackEntry* prev = moveBefore(ply, 1);
        if (prev != nullptr && !prev->capture && !prev->move.isPromotion() &&
            prev->staticEval != kNoEval) {
            const int bonus = std::clamp(-(prev->staticEval + staticEval) / kEvalDiffHistoryDivisor,
                                         -kEvalDiffHistoryMax, kEvalDiffHistoryMax);
            history_.reward(~pos_.sideToMove(), prev->move, bonus, prev->threats);
            counters_.add(Counter::EvalDiffHistoryUpdates);
        }
    }
    // improvingFallback: when the side was in check two plies ago (no eval there), four plies.
    const auto earlierEval = [&](int plies) {
        return ply >= plies ? stack_[ply - plies].staticEval : kNoEval;
    };
    int improvingBase = earlierEval(kImprovingPlies);
    if (cfg.improvingFallback && improvingBase == kNoEval)
        improvingBase = earlierEval(2 * kImprovingPlies);
    const bool improving = !inCheck && improvingBase != kNoEval && staticEval > improvingBase;
    // The exclusions every pruning step shares: not in check, not in PV nodes, not when the
    // window holds a mate score (mates must be searched exactly).
    const bool prunableNode = !pvNode && !inCheck && !isMateScore(alpha) && !isMateScore(beta);
    // The node-level steps (7-10) also stay out of a singular-extension search: it asks about the
    // moves, not about the node.
    const bool prunableNodeSteps = prunableNode && !excluded;

    // Step 7. Reverse futility pruning: at shallow depth, a static eval that beats beta by a
    // margin growing with depth will almost surely still beat it after a search.
    if (prunableNodeSteps && cfg.reverseFutility && depth <= params().reverseFutilityMaxDepth &&
        eval - params().reverseFutilityMargin *
                    (depth - (improving ? kReverseFutilityImprovingPlies : 0)) >=
            beta) {
        counters_.add(Counter::ReverseFutilityPrunes);
        // reverseFutilityBlend: how far the eval beats beta is its least reliable part.
        if (cfg.reverseFutilityBlend && !isMateScore(eval)) {
            counters_.add(Counter::ReverseFutilityBlends);
            return beta + (eval - beta) / kReverseFutilityBlendDivisor;
        }
        return eval;
    }

    // Step 8. Aggressive futility pruning (Project Invincible): at a frontier node of the
    // engine's own side, after a quiet move by the opponent, a static eval more than half a pawn
    // below alpha is trusted: a sacrifice "won back at a leaf" is taken not to be won back.
    if (prunableNodeSteps && cfg.aggressiveFutility && depth == kFutilityDepth && ply > 0 &&
        pos_.sideToMove() == shared_->rootSide && !stack_[ply - 1].capture &&
        eval + params().aggressiveFutilityMargin < alpha) {
        counters_.add(Counter::AggressiveFutilityPrunes);
        return eval;
    }

    // Step 9. Razoring at the pre-pre-frontier: if even a queen more would not reach alpha, the
    // node is hopeless enough to search one ply shallower (not to prune: tactics may remain).
    if (prunableNodeSteps && cfg.razoring && depth == kRazoringDepth &&
        eval + params().razoringMargin < alpha) {
        counters_.add(Counter::RazoringReductions);
        --depth;
    }

    // Step 10. Null-move pruning: if passing still fails high after a reduced search, a real
    // move would too (nullMovePruning).
    if (prunableNodeSteps && cfg.nullMove) {
        if (const auto cut = nullMovePruning(beta, depth, ply, cutNode, eval)) return *cut;
    }

    // Step 11. ProbCut: a good capture whose shallow search beats beta by a clear margin would
    // almost surely beat beta at full depth too (probCut).
    if (prunableNodeSteps && cfg.probCut) {
        if (const auto cut = probCut(beta, depth, ply, cutNode, staticEval, rawEval, table, ttMove))
            return *cut;
    }

    // Step 12. Internal iterative reduction: without a table move the ordering is poor, so a
    // shallower search here is cheaper and fills the table for the next visit.
    if (cfg.internalIterativeReductions && !rootNode && !ttMove && depth >= params().iirMinDepth &&
        (pvNode || cutNode)) {
        counters_.add(Counter::InternalIterativeReductions);
        --depth;
    }

    // Step 13. The moves.
    MoveList rootList;
    if (rootNode) {
        for (std::size_t i = static_cast<std::size_t>(pvIndex_); i < rootMoves_.size(); ++i)
            rootList.push(rootMoves_[i].move);
    }
    const OrderingHints hints = orderingHints(ply);
    const bool ttCapture = ttMove && pos_.isCaptureOrPromotion(ttMove);
    MovePicker picker = rootNode ? MovePicker(pos_, rootList, history_, cfg)
                                 : MovePicker(pos_, ttMove, ply, killers_, history_, cfg, hints);
    const int originalAlpha = alpha;
    int bestScore = -kInfinity;
    Move bestMove = Move::none();
    PickStage bestStage = PickStage::None;
    int moveCount = 0;
    int quietCount = 0;
    MoveList quietsTried;
    MoveList capturesTried;
    bool skipQuiets = false;

    while (const Move m = picker.next(skipQuiets)) {
        if (m == excluded) continue;
        // The child's table entry is fetched from memory while the move is weighed and made
        // (docs/performance.md, "Prefetching the child's entry early").
        const std::uint64_t childKey = cfg.transpositionTable ? pos_.keyAfter(m) : 0;
        if (cfg.transpositionTable) shared_->tt->prefetch(childKey);
        ++moveCount;
        const PickStage stage = picker.stage();
        const bool capture = pos_.isCapture(m);
        const bool noisy = capture || m.isPromotion();
        const bool givesCheck = pos_.givesCheck(m);
        const bool killer = cfg.killers && killers_.isKiller(ply, m);
        const bool counterMove = stage == PickStage::CounterMove;
        // The quiet move's history (butterfly + continuation), read by pruning and reductions;
        // with the extended reductions a capture's capture history (where that is kept).
        int statScore = noisy || !cfg.history ? 0 : quietHistoryScore(pos_, m, history_, hints);
        if (cfg.extendedLateMoveReductions && capture && cfg.captureHistory)
            statScore = captureHistory_.score(pos_.movedPiece(m), m.to(), pos_.capturedType(m));
        const MoveFacts facts{m, capture, noisy, givesCheck, killer, counterMove, statScore};
        if (!noisy) ++quietCount;

        if (rootNode && isMain() && shared_->callbacks && shared_->callbacks->onCurrMove &&
            shared_->elapsedMs() >= kCurrMoveReportMs) {
            shared_->callbacks->onCurrMove(moveToUci(m), moveCount + pvIndex_, depth);
        }

        // Step 14. Pruning of single moves at shallow depth (shallowPruning), once one move has
        // been searched (so a node is never left without a score).
        if (!rootNode && prunableNode && bestScore > -kMateBound) {
            const MovePrune prune =
                shallowPruning(facts, depth, alpha, eval, improving, moveCount, quietCount);
            if (prune == MovePrune::SkipQuiets) skipQuiets = true;
            if (prune != MovePrune::Search) continue;
        }

        // Step 15. Singular extension of the table move (singularExtension): one ply deeper
        // when it alone holds the node (two with singularExtended when it does so by far), a
        // cut when other moves reach beta too (multi-cut), shallower when it is less critical
        // than it looked.
        int extension = 0;
        if (cfg.singularExtensions && !rootNode && !excluded && m == ttMove) {
            const SingularOutcome singular =
                singularExtension(m, beta, depth, ply, pvNode, cutNode, table);
            if (singular.cutoff) return *singular.cutoff;
            extension = singular.extension;
        }
        // The double extensions along the line to the child (their number is capped).
        stack_[ply].doubleExtensions =
            doubleExtensionsBefore + (extension >= kDoubleExtension ? 1 : 0);
        // Step 16. Check extension: a checking move is searched one ply deeper (forcing lines
        // are narrow and decisive); bounded so extensions cannot run away.
        if (cfg.checkExtension && extension == 0 && givesCheck &&
            ply < kMaxExtensionPlyFactor * rootDepth_) {
            extension = kCheckExtension;
            counters_.add(Counter::CheckExtensions);
        }
        int newDepth = depth - 1 + extension;

        const std::uint64_t nodesBefore = rootNode ? nodes() : 0;
        stack_[ply].move = m;
        stack_[ply].piece = pos_.movedPiece(m);
        stack_[ply].capture = capture;
        // Asked again as the move is made: cheap, and faster in bench than the early one alone.
        if (cfg.transpositionTable) shared_->tt->prefetch(childKey);
        pos_.makeMove(m);
        stack_[ply + 1].pvLength = ply + 1;

        int score = 0;
        bool fullDepthZeroWindow;
        // Step 17. Late move reductions: quiet moves late in the ordering are rarely best;
        // search them shallower first and again at full depth only if they beat alpha. PV nodes
        // reduce one ply less, killers and checks are not reduced. With the extended reductions
        // late captures and killers are reduced too, a little less than quiet moves (they were
        // ordered late for a reason, but are likelier to matter); promotions and checks never.
        const bool reducible =
            cfg.extendedLateMoveReductions ? !m.isPromotion() : !noisy && !killer;
        if (cfg.lateMoveReductions && depth >= params().lmrMinDepth &&
            moveCount > (pvNode ? kLmrFullMovesPv : kLmrFullMovesNonPv) && reducible &&
            !givesCheck && !inCheck) {
            const int r =
                lateMoveReduction(facts, depth, moveCount, newDepth, pvNode, ttPv, improving,
                                  cutNode, ttCapture, stack_[ply + 1].cutoffCount);
            if (r > 0) counters_.add(Counter::LateMoveReductions);
            const int reducedDepth = newDepth - r;
            score = -search<NodeType::NonPV>(-alpha - 1, -alpha, reducedDepth, ply + 1, true);
            // Step 17b. Deeper or shallower re-search (extended reductions): a reduced move
            // that beats alpha by far is searched a ply deeper than planned (it may be a new
            // best line worth the effort), one that barely beats the best so far a ply
            // shallower (the re-search will likely fail low again).
            if (cfg.extendedLateMoveReductions && score > alpha && r > 0) {
                if (score >
                    bestScore + params().lmrDeeperMargin + params().lmrDeeperMarginPerPly * r) {
                    ++newDepth;
                    counters_.add(Counter::LmrDeeperResearches);
                } else if (score < bestScore + params().lmrShallowerMargin) {
                    --newDepth;
                    counters_.add(Counter::LmrShallowerResearches);
                }
            }
            fullDepthZeroWindow = score > alpha && newDepth > reducedDepth;
            if (fullDepthZeroWindow) counters_.add(Counter::LateMoveResearches);
        } else {
            fullDepthZeroWindow = !pvNode || moveCount > 1;
        }
        // Step 18. Principal variation search: after the first move, prove each move worse with
        // a zero window; only a move that beats alpha is searched again with the full window.
        if (fullDepthZeroWindow) {
            score = -search<NodeType::NonPV>(-alpha - 1, -alpha, newDepth, ply + 1, !cutNode);
        }
        if (pvNode && (moveCount == 1 || (score > alpha && (rootNode || score < beta)))) {
            if (moveCount > 1) counters_.add(Counter::PvsResearches);
            stack_[ply + 1].pvLength = ply + 1;
            score = -search<NodeType::PV>(-beta, -alpha, newDepth, ply + 1, false);
        }
        pos_.unmakeMove();

        // An aborted search returns garbage: keep nothing from it.
        if (stopped()) return 0;

        if (rootNode) recordRootMove(m, score, moveCount == 1 || score > alpha, nodesBefore);

        if (score > bestScore) {
            bestScore = score;
            if (score > alpha) {
                bestMove = m;
                bestStage = stage;
                if (pvNode && !rootNode) updatePv(ply, m);
                if (score >= beta) {
                    ++stack_[ply].cutoffCount;
                    break;
                }
                alpha = score;
            }
        }
        if (m != bestMove) {
            if (!noisy) quietsTried.push(m);
            if (capture) capturesTried.push(m);
        }
    }

    // Step 19. No legal move: checkmate or stalemate (in a singular-extension search, only the
    // left-out move was legal: it is singular, so fail low).
    if (moveCount == 0) return excluded ? alpha : inCheck ? matedIn(ply) : kDraw;

    // Step 19b. A fail high's score is pulled toward beta, the more so the shallower the node
    // (failHighBlend): how far a cutoff beats beta is the least reliable part of its score, and a
    // smaller margin keeps the parent's bounds from overshooting.
    if (cfg.failHighBlend && !rootNode && bestScore >= beta && !isMateScore(bestScore) &&
        !isMateScore(beta) && !isMateScore(alpha)) {
        bestScore = (bestScore * depth + beta) / (depth + 1);
        counters_.add(Counter::FailHighBlends);
    }

    // Step 20. A cutoff teaches the move ordering: a quiet move becomes a killer and the counter
    // move of the opponent's last move, and gains history (depth²) in the butterfly and
    // continuation tables, the quiet moves tried before it lose as much; a capture gains capture
    // history. The captures tried before the cutoff move lose capture history.
    if (bestScore >= beta)
        learnFromCutoff(ply, depth, bestMove, bestStage, moveCount, quietsTried, capturesTried);

    const TTBound bound = bestScore >= beta                                   ? TTBound::Lower
                          : (pvNode && bestScore > originalAlpha && bestMove) ? TTBound::Exact
                                                                              : TTBound::Upper;
    // Step 21. Correction history: the search result against the static eval, where the bound
    // says which way the eval erred (a fail high only shows the eval too low, a fail low only
    // too high). Not from nodes decided by a capture or promotion (material, not structure), not
    // from mate scores. With correctionHistoryExtended the tables by each side's pieces and by
    // material learn too, each from what the weighted sum still missed (updateCorrection).
    if (cfg.correctionHistory && !inCheck && !excluded && !isMateScore(bestScore) &&
        !(bestMove && pos_.isCaptureOrPromotion(bestMove)) &&
        !(bound == TTBound::Lower && bestScore <= staticEval) &&
        !(bound == TTBound::Upper && bestScore >= staticEval)) {
        updateCorrection(depth, bestScore, rawEval, staticEval);
    }

    // Step 22. Store the result. At the root of a MultiPV search only the first line is stored
    // (later lines exclude the best moves, so their scores are not the node's score).
    if (cfg.transpositionTable && !excluded && !(rootNode && pvIndex_ > 0)) {
        shared_->tt->store(table.key, TTData{bestMove.raw(), scoreToTable(bestScore, ply), rawEval,
                                             depth, bound, pvNode || ttPv});
    }
    return bestScore;
}

Searcher::MovePrune Searcher::shallowPruning(const MoveFacts& mv, int depth, int alpha, int eval,
                                             bool improving, int moveCount, int quietCount) {
    // Quiet moves that give no check; of the rest only captures (by SEE), never checks or
    // promotions.
    const SearchConfig& cfg = shared_->config;
    if (!mv.noisy && !mv.givesCheck) {
        // Step 14a. Late move pruning: late quiet moves at low depth almost never
        // matter once the well-ordered moves have been searched.
        if (cfg.lateMovePruning && depth <= params().lateMovePruningMaxDepth &&
            quietCount > (params().lateMovePruningBase + depth * depth) /
                             (improving ? 1 : kLateMovePruningNotImprovingDivisor)) {
            counters_.add(Counter::LateMovePrunes);
            return MovePrune::SkipQuiets;
        }
        // Step 14b. Futility pruning at the frontier: a quiet move changes the eval by
        // less than a minor piece, so if eval + margin cannot reach alpha, skip quiets.
        if (cfg.futility && depth == kFutilityDepth && eval + params().futilityMargin <= alpha) {
            counters_.add(Counter::FutilityPrunes);
            return MovePrune::SkipQuiets;
        }
        // Step 14c. Extended futility at the pre-frontier, with a rook's margin (the
        // opponent's reply may also change the eval).
        if (cfg.extendedFutility && depth == kExtendedFutilityDepth &&
            eval + params().extendedFutilityMargin <= alpha) {
            counters_.add(Counter::ExtendedFutilityPrunes);
            return MovePrune::SkipQuiets;
        }
        // Step 14c'. Futility by the depth left after reduction (off while futilityLmrMaxDepth is
        // 0): a quiet move whose reduced search would start at most futilityLmrMaxDepth plies
        // deep is not searched when even a margin growing with that depth cannot reach alpha.
        // The reduction grows with the move number, so the later quiet moves go too.
        if (cfg.futility && params().futilityLmrMaxDepth > 0) {
            const int lmrDepth = depth - 1 - baseReduction(depth, moveCount);
            if (lmrDepth <= params().futilityLmrMaxDepth &&
                eval + params().futilityLmrBase +
                        params().futilityLmrPerDepth * std::max(lmrDepth, 0) <=
                    alpha) {
                counters_.add(Counter::FutilityPrunes);
                return MovePrune::SkipQuiets;
            }
        }
        // Step 14d. History pruning: at low depth, a quiet move whose history says it
        // has failed again and again in this context is not searched (killers and the
        // counter move were chosen for this node and are kept).
        if (cfg.historyPruning && cfg.history && depth <= params().historyPruningMaxDepth &&
            !mv.killer && !mv.counterMove &&
            mv.statScore < -params().historyPruningMargin * depth) {
            counters_.add(Counter::HistoryPrunes);
            return MovePrune::Skip;
        }
        // Step 14e. SEE pruning of quiet moves: a quiet move that puts material en prise
        // for more than a margin growing with depth is not worth the search.
        if (cfg.seeQuietPruning && depth <= params().seeQuietPruningMaxDepth &&
            !seeGe(pos_, mv.move, -params().seeQuietMarginPerDepth * depth)) {
            counters_.add(Counter::SeeQuietPrunes);
            return MovePrune::Skip;
        }
    } else if (mv.capture && !mv.givesCheck && cfg.see && depth <= params().seePruningMaxDepth &&
               !seeGe(pos_, mv.move, -params().seePruningMarginPerDepth * depth)) {
        // Step 14f. SEE pruning: a capture that loses material heavily is not worth a
        // shallow search.
        counters_.add(Counter::SeePrunes);
        return MovePrune::Skip;
    }
    return MovePrune::Search;
}

// --- Bookkeeping of search() ----------------------------------------------------------------

int Searcher::lateMoveReduction(const MoveFacts& mv, int depth, int moveCount, int newDepth,
                                bool pvNode, bool ttPv, bool improving, bool cutNode,
                                bool ttCapture, int childCutoffs) {
    const SearchConfig& cfg = shared_->config;
    int r = baseReduction(depth, moveCount);
    if (pvNode) r -= kLmrNodeAdjustment;
    if (ttPv) r -= params().lmrTtPvRelief;
    if (!improving) r += kLmrNodeAdjustment;
    if (cutNode) r += kLmrNodeAdjustment;
    if (cfg.childCutoffReduction && childCutoffs > kChildCutoffsForReduction) {
        r += kChildCutoffReduction;
        counters_.add(Counter::ChildCutoffReductions);
    }
    if (mv.capture) {
        // Step 17a. Captures (extended reductions only): less than a quiet move, and less
        // again (more) by capture history.
        r -= params().lmrCaptureRelief + mv.statScore / params().lmrCaptureHistoryDivisor;
    } else {
        if (mv.killer) r -= params().lmrKillerRelief;  // killers only with extended reductions
        if (cfg.ttCaptureReduction && ttCapture) {
            r += kTtCaptureReduction;
            counters_.add(Counter::TtCaptureReductions);
        }
        if (cfg.history) {
            r -= cfg.continuationHistory ? mv.statScore / params().lmrStatDivisor
                                         : mv.statScore / params().lmrHistoryDivisor;
        }
    }
    // Never into quiescence, never an extension.
    return std::clamp(r, 0, newDepth - 1);
}

void Searcher::recordRootMove(Move m, int score, bool exact, std::uint64_t nodesBefore) {
    auto it = std::find_if(rootMoves_.begin(), rootMoves_.end(),
                           [m](const RootMove& rm) { return rm.move == m; });
    it->nodes += nodes() - nodesBefore;
    if (exact) {
        it->score = score;
        it->seldepth = seldepth_;
        it->pv.assign(1, m);
        for (int i = 1; i < stack_[1].pvLength; ++i) it->pv.push_back(stack_[1].pv[i]);
    } else {
        it->score = -kInfinity;  // only an upper bound: sorts behind the best
    }
}

void Searcher::learnFromCutoff(int ply, int depth, Move bestMove, PickStage bestStage,
                               int moveCount, const MoveList& quietsTried,
                               const MoveList& capturesTried) {
    const SearchConfig& cfg = shared_->config;
    counters_.add(Counter::BetaCutoffs);
    if (moveCount == 1) counters_.add(Counter::FirstMoveCutoffs);
    if (bestStage == PickStage::TableMove) counters_.add(Counter::HashMoveCutoffs);
    if (bestStage == PickStage::Killer) counters_.add(Counter::KillerCutoffs);
    if (bestStage == PickStage::CounterMove) counters_.add(Counter::CounterMoveCutoffs);
    if (bestStage == PickStage::Quiet) counters_.add(Counter::HistoryCutoffs);
    const int bonus = historyBonus(depth, params().historyBonusScale);
    if (!pos_.isCaptureOrPromotion(bestMove)) {
        rewardQuiet(ply, bestMove, bonus, quietsTried);
    } else if (cfg.captureHistory && pos_.isCapture(bestMove)) {
        updateCaptureHistory(bestMove, bonus);
    }
    if (cfg.captureHistory) {
        for (const auto& sm : capturesTried) updateCaptureHistory(sm.move, -bonus);
    }
}

// --- Pruning and extension steps of search() ------------------------------------------------
// Each takes the node as search() sees it and answers with a score to return (a cutoff, or 0
// when the search was stopped inside it: an aborted search keeps nothing) or with nothing.

std::optional<int> Searcher::nullMovePruning(int beta, int depth, int ply, bool cutNode, int eval) {
    // Not twice in a row, not inside a verification search's first plies, and not with only king
    // and pawns (zugzwang makes passing better than any move there).
    if (depth < kNullMoveMinDepth || eval < beta || ply < nullMoveMinPly_ || ply == 0 ||
        stack_[ply - 1].nullMove ||
        pos_.pieces(pos_.sideToMove()) == pos_.pieces(pos_.sideToMove(), Pawn, King)) {
        return std::nullopt;
    }
    counters_.add(Counter::NullMoveTries);
    const int r =
        params().nullMoveBaseReduction + depth / params().nullMoveDepthDivisor +
        std::min((eval - beta) / params().nullMoveEvalDivisor, params().nullMoveMaxEvalReduction);
    stack_[ply].move = Move::null();
    stack_[ply].piece = NoPiece;
    stack_[ply].nullMove = true;
    stack_[ply].capture = false;
    pos_.makeNullMove();
    int score = -search<NodeType::NonPV>(-beta, -beta + 1, depth - 1 - r, ply + 1, !cutNode);
    pos_.unmakeNullMove();
    stack_[ply].nullMove = false;
    if (stopped()) return 0;
    if (score < beta) return std::nullopt;
    if (score >= kMateBound) score = beta;  // a mate after a pass proves nothing
    // Deep cutoffs are verified (unless this is already a verification search).
    if (depth >= kNullMoveVerifyDepth && nullMoveMinPly_ == 0 &&
        !nullMoveVerified(beta, depth, r, ply)) {
        return std::nullopt;
    }
    counters_.add(Counter::NullMoveCutoffs);
    return score;
}

bool Searcher::nullMoveVerified(int beta, int depth, int reduction, int ply) {
    // Null-move cutoffs fail in zugzwang, which deep in the tree costs most: confirm the cutoff
    // by a normal search of the same reduced depth that allows no null move for its first plies
    // (so it cannot lean on the same mistake).
    counters_.add(Counter::NullMoveVerifications);
    nullMoveMinPly_ =
        ply + kNullMoveVerifyPlyNumerator * (depth - reduction) / kNullMoveVerifyPlyDenominator;
    const int verified = search<NodeType::NonPV>(beta - 1, beta, depth - reduction, ply, false);
    nullMoveMinPly_ = 0;
    return verified >= beta;
}

std::optional<int> Searcher::probCut(int beta, int depth, int ply, bool cutNode, int staticEval,
                                     int rawEval, const TableProbe& table, Move ttMove) {
    // Skipped when the table already knows that a search nearly as deep stayed below the raised
    // bound.
    const int probBeta = beta + params().probCutMargin;
    if (depth < params().probCutMinDepth || isMateScore(probBeta) ||
        (table.hit && table.entry.depth >= depth - params().probCutReduction + 1 &&
         table.entry.bound != TTBound::Lower && table.score < probBeta)) {
        return std::nullopt;
    }
    // Captures that cannot gain the margin by SEE are not tried; a quiescence search filters the
    // rest before the reduced search.
    const SearchConfig& cfg = shared_->config;
    MovePicker captures(pos_, ttMove, history_, cfg, false, NoSquare, captureHints());
    while (const Move m = captures.next()) {
        if (!pos_.isCaptureOrPromotion(m) || !seeGe(pos_, m, probBeta - staticEval)) continue;
        stack_[ply].move = m;
        stack_[ply].piece = pos_.movedPiece(m);
        stack_[ply].capture = pos_.isCapture(m);
        if (cfg.transpositionTable) shared_->tt->prefetch(pos_.keyAfter(m));
        pos_.makeMove(m);
        int score = -quiescence<false>(-probBeta, -probBeta + 1, ply + 1, 0);
        if (score >= probBeta) {
            score = -search<NodeType::NonPV>(-probBeta, -probBeta + 1,
                                             depth - params().probCutReduction, ply + 1, !cutNode);
        }
        pos_.unmakeMove();
        if (stopped()) return 0;
        if (score >= probBeta) {
            counters_.add(Counter::ProbCuts);
            if (cfg.transpositionTable) {
                shared_->tt->store(table.key, TTData{m.raw(), scoreToTable(score, ply), rawEval,
                                                     depth - params().probCutReduction + 1,
                                                     TTBound::Lower, stack_[ply].ttPv});
            }
            return score;
        }
    }
    return std::nullopt;
}

Searcher::SingularOutcome Searcher::singularExtension(Move ttMove, int beta, int depth, int ply,
                                                      bool pvNode, bool cutNode,
                                                      const TableProbe& table) {
    // The table move's score must be a lower bound from a search nearly as deep, and not a mate.
    const bool extended = shared_->config.singularExtended;
    // The double extensions on the line to this node (read from the parent's entry: the search
    // below rewrites this node's own).
    const int doubleExtensionsBefore = ply > 0 ? stack_[ply - 1].doubleExtensions : 0;
    SingularOutcome outcome;
    const int minDepth = extended ? params().singularExtendedMinDepth : params().singularMinDepth;
    if (depth < minDepth || !table.hit ||
        table.entry.depth < depth - params().singularTableDepthSlack ||
        table.entry.bound == TTBound::Upper || isMateScore(table.score) ||
        ply >= kMaxExtensionPlyFactor * rootDepth_) {
        return outcome;
    }
    // A reduced search of every other move against a bound a margin below the table score.
    const int singularBeta = table.score - params().singularMarginPerDepth * depth;
    stack_[ply].excluded = ttMove;
    const int singularScore = search<NodeType::NonPV>(
        singularBeta - 1, singularBeta, (depth - 1) / kSingularDepthDivisor, ply, cutNode);
    stack_[ply].excluded = Move::none();
    if (stopped()) {
        outcome.cutoff = 0;
    } else if (singularScore < singularBeta) {
        // Every other move falls short: the node hangs on the table move; search it deeper.
        outcome.extension = kSingularExtension;
        counters_.add(Counter::SingularExtensions);
        // Step 15a. Double extension (singularExtended): far short, in a non-PV node (where the
        // extra ply is cheap under a zero window), and only a few times along one line, so
        // the extensions cannot run away.
        if (extended && !pvNode && singularScore < singularBeta - params().doubleExtensionMargin &&
            doubleExtensionsBefore < params().doubleExtensionLimit) {
            outcome.extension = kDoubleExtension;
            counters_.add(Counter::DoubleExtensions);
        }
    } else if (singularBeta >= beta) {
        // Other moves reach beta too: several moves refute the line, cut at once (multi-cut).
        counters_.add(Counter::SingularMultiCuts);
        outcome.cutoff = singularBeta;
    } else if (table.score >= beta) {
        // Not singular, and the table move beats beta anyway: it is less critical than it
        // looked, search it shallower (two plies with singularExtended: another move reaches
        // the singular bound too, so the node does not hang on this one).
        outcome.extension = extended ? kNegativeExtensionExtended : kNegativeExtension;
        counters_.add(Counter::NegativeExtensions);
    } else if (extended && cutNode) {
        // Step 15b. Not singular at an expected cut node: some move will likely refute the line
        // whichever it is, so the table move need not be searched to the full depth.
        outcome.extension = kNegativeExtensionCutNode;
        counters_.add(Counter::NegativeExtensions);
    }
    return outcome;
}

// --- Quiescence -----------------------------------------------------------------------------

int Searcher::detectThreat(Square& threatened) {
    // Let the opponent move twice in a row and see what its best capture would win.
    pos_.makeNullMove();
    MoveList captures;
    generate<GenType::Captures>(pos_, captures);
    int best = 0;
    for (const auto& sm : captures) {
        if (!pos_.isCapture(sm.move)) continue;
        const int gain = see(pos_, sm.move);
        if (gain > best) {
            best = gain;
            threatened = sm.move.to();
        }
    }
    pos_.unmakeNullMove();
    return best;
}

template <bool PvNode>
int Searcher::quiescence(int alpha, int beta, int ply, int qply) {
    const SearchConfig& cfg = shared_->config;
    if (shouldStop()) return 0;
    countNode(ply, PvNode);
    counters_.add(Counter::QuiescenceNodes);
    const bool inCheck = pos_.inCheck();
    if (ply >= kMaxSearchPly - 1) return inCheck ? kDraw : evaluate();

    // Step Q1. Draws, as in the main search.
    if (isDrawInTree(ply)) {
        counters_.add(Counter::DrawsInTree);
        return kDraw;
    }

    // Step Q2. The table may already know this node (not near the fifty-move draw: as in the
    // main search, the stored line may not have known how close the draw was).
    const TableProbe table = probeTable(ply);
    if (!PvNode && table.hit && table.entry.depth >= kQuiescenceTableDepth &&
        boundAllowsCutoff(table.entry.bound, table.score, alpha, beta) &&
        pos_.rule50() < kFiftyMoveTableTrust) {
        counters_.add(Counter::TTCutoffs);
        return table.score;
    }

    // Step Q3. Stand pat: the side to move is not forced to capture, so the static eval is a
    // lower bound on the score. In check there is no standing pat: every evasion is searched.
    int rawEval = kNoEval;
    int bestScore = -kInfinity;
    Square threatSquare = NoSquare;
    if (!inCheck) {
        rawEval = table.hit && table.entry.eval != kNoEval ? table.entry.eval : evaluate();
        bestScore = correctedEval(rawEval);
        // Step Q3b. A table score whose bound points the right way is a better guess than the
        // static eval (quiescenceTableEval), as in the main search's Step 6.
        if (cfg.quiescenceTableEval && table.refines(bestScore)) {
            bestScore = table.score;
            counters_.add(Counter::QuiescenceTableEvals);
        }
        // Step Q4. Two-sided quiescence (Micro-Max's threat detection): if passing would lose
        // material, the stand-pat score is not safe. Use the lower value, and also search quiet
        // moves of the threatened piece. Only at the first quiescence ply, so threats and
        // answers cannot chain without end.
        if (cfg.twoSidedQuiescence && qply == 0) {
            const int threat = detectThreat(threatSquare);
            if (threat >= kThreatMinGain) {
                counters_.add(Counter::ThreatsDetected);
                bestScore -= threat;
            } else {
                threatSquare = NoSquare;
            }
        }
        if (bestScore >= beta) {
            counters_.add(Counter::QuiescenceStandPats);
            // failHighBlend: halfway to beta (see Step 19b).
            if (cfg.failHighBlend && !isMateScore(bestScore) && !isMateScore(beta)) {
                counters_.add(Counter::FailHighBlends);
                return (bestScore + beta) / 2;
            }
            return bestScore;
        }
        alpha = std::max(alpha, bestScore);
    }
    const int standPat = bestScore;

    // Step Q5. Captures and promotions; quiet checks at the first quiescence ply; in check all
    // evasions.
    const bool withChecks = cfg.quiescenceChecks && qply == 0;
    MovePicker picker(pos_, table.hit ? Move(table.entry.move) : Move::none(), history_, cfg,
                      withChecks, threatSquare, captureHints());
    Move bestMove = Move::none();
    int moveCount = 0;
    while (const Move m = picker.next()) {
        // As in search: the child's entry is fetched early, and asked again as the move is made.
        const std::uint64_t childKey = cfg.transpositionTable ? pos_.keyAfter(m) : 0;
        if (cfg.transpositionTable) shared_->tt->prefetch(childKey);
        ++moveCount;
        const bool capture = pos_.isCapture(m);
        const bool givesCheck = !inCheck && pos_.givesCheck(m);
        if (!inCheck) {
            if (!capture && !m.isPromotion()) {
                if (givesCheck)
                    counters_.add(Counter::QuiescenceCheckMoves);
                else
                    counters_.add(Counter::ThreatEvasions);
            }
            // Step Q6. Delta pruning: even winning the captured piece (plus a margin for the
            // position) would leave the score below alpha.
            if (cfg.deltaPruning && capture && !m.isPromotion() && !givesCheck) {
                const int victim = pos_.capturedType(m);
                if (standPat + kSeeValue[victim] + params().deltaMargin <= alpha) {
                    counters_.add(Counter::DeltaPrunes);
                    continue;
                }
            }
            // Step Q7. SEE pruning: a move that loses material in the exchange cannot raise
            // the stand-pat score.
            if (cfg.see && !seeGe(pos_, m, 0)) {
                counters_.add(Counter::QuiescenceSeePrunes);
                continue;
            }
        }
        stack_[ply].move = m;
        stack_[ply].piece = pos_.movedPiece(m);
        stack_[ply].capture = capture;
        if (cfg.transpositionTable) shared_->tt->prefetch(childKey);
        pos_.makeMove(m);
        stack_[ply + 1].pvLength = ply + 1;
        const int score = -quiescence<PvNode>(-beta, -alpha, ply + 1, qply + 1);
        pos_.unmakeMove();
        if (stopped()) return 0;
        if (score > bestScore) {
            bestScore = score;
            if (score > alpha) {
                bestMove = m;
                if (PvNode) updatePv(ply, m);
                if (score >= beta) break;
                alpha = score;
            }
        }
    }

    // Step Q8. In check with no evasion: mated.
    if (inCheck && moveCount == 0) return matedIn(ply);
    // failHighBlend: halfway to beta (see Step 19b).
    if (cfg.failHighBlend && bestScore >= beta && !isMateScore(bestScore) && !isMateScore(beta)) {
        bestScore = (bestScore + beta) / 2;
        counters_.add(Counter::FailHighBlends);
    }

    if (cfg.transpositionTable) {
        const TTBound bound = bestScore >= beta ? TTBound::Lower : TTBound::Upper;
        shared_->tt->store(table.key, TTData{bestMove.raw(), scoreToTable(bestScore, ply), rawEval,
                                             kQuiescenceTableDepth, bound,
                                             PvNode || (cfg.ttPv && table.hit && table.entry.pv)});
    }
    return bestScore;
}

template int Searcher::search<Searcher::NodeType::Root>(int, int, int, int, bool);
template int Searcher::quiescence<true>(int, int, int, int);
template int Searcher::quiescence<false>(int, int, int, int);

}  // namespace outpost::search
