// Per-technique counters: how often each search technique fired in one search.
//
// Each search thread counts into its own plain array (no sharing, no atomics on the hot path);
// the engine sums the threads' arrays when the search ends and reports them by name.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace outpost::search {

enum class Counter : int {
    Nodes,
    QuiescenceNodes,
    BetaCutoffs,
    FirstMoveCutoffs,  // cutoffs by the first move tried: the quality of the move ordering
    TTHits,
    TTCutoffs,
    HashMoveCutoffs,
    KillerCutoffs,
    HistoryCutoffs,  // cutoffs by other quiet moves, ordered by history
    AspirationFailHighs,
    AspirationFailLows,
    PvsResearches,
    DrawsInTree,
    MateDistancePrunes,
    NullMoveTries,
    NullMoveCutoffs,
    NullMoveVerifications,
    ReverseFutilityPrunes,
    RazoringReductions,
    AggressiveFutilityPrunes,
    FutilityPrunes,
    ExtendedFutilityPrunes,
    LateMovePrunes,
    SeePrunes,
    InternalIterativeReductions,
    LateMoveReductions,
    LateMoveResearches,
    LmrDeeperResearches,
    LmrShallowerResearches,
    CheckExtensions,
    HistoryPrunes,
    SeeQuietPrunes,
    SingularExtensions,
    SingularMultiCuts,
    DoubleExtensions,
    NegativeExtensions,
    CounterMoveCutoffs,
    ProbCuts,
    QuiescenceStandPats,
    QuiescenceCheckMoves,
    QuiescenceSeePrunes,
    DeltaPrunes,
    ThreatsDetected,
    ThreatEvasions,
    TtCaptureReductions,
    ChildCutoffReductions,
    FailHighBlends,
    QuiescenceTableEvals,
    TtCutoffHistoryUpdates,
    EvalDiffHistoryUpdates,
    ReverseFutilityBlends,
    Count
};

inline constexpr std::array<std::string_view, static_cast<int>(Counter::Count)> kCounterNames{
    "nodes",
    "quiescenceNodes",
    "betaCutoffs",
    "firstMoveCutoffs",
    "ttHits",
    "ttCutoffs",
    "hashMoveCutoffs",
    "killerCutoffs",
    "historyCutoffs",
    "aspirationFailHighs",
    "aspirationFailLows",
    "pvsResearches",
    "drawsInTree",
    "mateDistancePrunes",
    "nullMoveTries",
    "nullMoveCutoffs",
    "nullMoveVerifications",
    "reverseFutilityPrunes",
    "razoringReductions",
    "aggressiveFutilityPrunes",
    "futilityPrunes",
    "extendedFutilityPrunes",
    "lateMovePrunes",
    "seePrunes",
    "internalIterativeReductions",
    "lateMoveReductions",
    "lateMoveResearches",
    "lmrDeeperResearches",
    "lmrShallowerResearches",
    "checkExtensions",
    "historyPrunes",
    "seeQuietPrunes",
    "singularExtensions",
    "singularMultiCuts",
    "doubleExtensions",
    "negativeExtensions",
    "counterMoveCutoffs",
    "probCuts",
    "quiescenceStandPats",
    "quiescenceCheckMoves",
    "quiescenceSeePrunes",
    "deltaPrunes",
    "threatsDetected",
    "threatEvasions",
    "ttCaptureReductions",
    "childCutoffReductions",
    "failHighBlends",
    "quiescenceTableEvals",
    "ttCutoffHistoryUpdates",
    "evalDiffHistoryUpdates",
    "reverseFutilityBlends",
};

struct Counters {
    std::array<std::uint64_t, static_cast<int>(Counter::Count)> values{};

    void add(Counter c, std::uint64_t n = 1) { values[static_cast<int>(c)] += n; }
    std::uint64_t operator[](Counter c) const { return values[static_cast<int>(c)]; }
    Counters& operator+=(const Counters& o) {
        for (std::size_t i = 0; i < values.size(); ++i) values[i] += o.values[i];
        return *this;
    }
};

}  // namespace outpost::search
