// The search's margins and reductions as tunable parameters (docs/search.md, "Tuning").
//
// A release build reads them as constants: Searcher::params() returns kDefaultSearchParams, whose
// fields the compiler folds into the code as it did the old constexpr margins, so the search and
// its bench signature are the same. A build configured with -DOUTPOST_TUNABLE=ON reads them from
// the search's SearchConfig instead, and the UCI program announces each as a spin option (the
// names of kSearchParamSpecs), so tools/spsa/spsa.py can tune them over matches. Tuned values
// are then baked in here, as the defaults, with the match that confirms them in the commit.
//
// Only margins and reductions are here; what is structure rather than a margin (the fifty-move
// limits, the report intervals, the LMR table's size, time management) stays a constant in
// searcher.cpp.
#pragma once

#include <array>
#include <string_view>

namespace outpost {

#ifdef OUTPOST_TUNABLE
inline constexpr bool kTunableSearch = true;
#else
inline constexpr bool kTunableSearch = false;
#endif

struct SearchParams {
    // Aspiration windows
    int aspirationWindow = 25;  // first half-width around the previous score (cp)
    // Node-level pruning
    int reverseFutilityMaxDepth = 6;
    int reverseFutilityMargin = 90;     // per ply of depth
    int aggressiveFutilityMargin = 50;  // half a pawn (Project Invincible's margin)
    int razoringMargin = 900;           // about a queen
    int nullMoveBaseReduction = 2;      // R = 2 ...
    int nullMoveDepthDivisor = 4;       // ... plus one per 4 plies of depth ...
    int nullMoveEvalDivisor = 200;      // ... plus one per 2 pawns the eval exceeds beta ...
    int nullMoveMaxEvalReduction = 2;   // ... at most this many
    int iirMinDepth = 4;
    int probCutMinDepth = 5;
    int probCutMargin = 200;   // a capture must beat beta by this in a shallow search ...
    int probCutReduction = 4;  // ... searched this many plies shallower
    // Move-level pruning
    int futilityMargin = 300;          // frontier: about a minor piece
    int extendedFutilityMargin = 500;  // pre-frontier: about a rook
    int futilityLmrMaxDepth = 0;       // futility by reduced depth: to this depth (0: off) ...
    int futilityLmrBase = 150;         // ... with a margin of this ...
    int futilityLmrPerDepth = 120;     // ... plus this per ply of reduced depth
    int lateMovePruningMaxDepth = 6;
    int lateMovePruningBase = 3;  // quiet moves kept: (base + depth^2) / (2 - improving)
    int seePruningMaxDepth = 4;
    int seePruningMarginPerDepth = 100;  // captures losing more than this per ply are cut
    int seeQuietPruningMaxDepth = 8;
    int seeQuietMarginPerDepth = 60;  // quiet moves losing more than this per ply are cut
    int historyPruningMaxDepth = 3;
    // Per ply, on butterfly + continuation history. The histories learn depth^2 bonuses, so
    // they stay within a few hundred (the lowest over the bench was -337): the old 1500 per
    // ply could never be reached and the step never fired.
    int historyPruningMargin = 32;
    // Reductions and extensions
    // History: each cutoff's bonus is this times depth² (the tables saturate at 16384)
    int historyBonusScale = 1;
    int lmrMinDepth = 3;
    int lmrBaseCentiPlies = 75;    // reduction = base + ln(depth) ln(move) / divisor ...
    int lmrDivisorCenti = 225;     // ... both in hundredths (0.75 and 2.25)
    int lmrHistoryDivisor = 8192;  // one ply less (more) per this much history ...
    int lmrStatDivisor = 16384;    // ... or butterfly + continuation history together
    int lmrTtPvRelief = 1;         // ttPv (issue 37): plies less in (former) PV nodes
    // Extended late move reductions (issue 37)
    int lmrCaptureRelief = 1;             // a late capture: plies less than a quiet move ...
    int lmrCaptureHistoryDivisor = 8192;  // ... and one less (more) per this capture history
    int lmrKillerRelief = 1;              // a killer: plies less than a quiet move
    int lmrDeeperMargin = 40;             // re-search a ply deeper when the reduced score beats
    int lmrDeeperMarginPerPly = 6;        // the best by this + this per ply of reduction (cp) ...
    int lmrShallowerMargin = 8;           // ... a ply shallower when it beats it by less (cp)
    int singularMinDepth = 8;
    int singularTableDepthSlack = 3;  // the table entry may be this much shallower
    int singularMarginPerDepth = 2;   // singular beta: table score - 2 cp per ply of depth
    // Extended singular extensions (issue 37)
    int singularExtendedMinDepth = 6;
    int doubleExtensionMargin = 20;  // two plies when the others fall this far short (cp) ...
    int doubleExtensionLimit = 6;    // ... at most this many times along one line
    // Extended correction history (issue 37): weights of the tables, in 1/128
    int correctionPawnWeight = 128;
    int correctionNonPawnWeight = 64;  // each side's table
    int correctionMaterialWeight = 64;
    // Quiescence
    int deltaMargin = 200;  // a capture must bring the score this close to alpha

    bool operator==(const SearchParams&) const = default;
};

inline constexpr SearchParams kDefaultSearchParams{};

// A parameter's UCI name, its field and the range a tuner may try.
struct SearchParamSpec {
    std::string_view name;
    int SearchParams::*field;
    int min;
    int max;
};

inline constexpr std::array<SearchParamSpec, 49> kSearchParamSpecs = {{
    {"AspirationWindow", &SearchParams::aspirationWindow, 8, 60},
    {"ReverseFutilityMaxDepth", &SearchParams::reverseFutilityMaxDepth, 3, 10},
    {"ReverseFutilityMargin", &SearchParams::reverseFutilityMargin, 40, 160},
    {"AggressiveFutilityMargin", &SearchParams::aggressiveFutilityMargin, 20, 120},
    {"RazoringMargin", &SearchParams::razoringMargin, 300, 1200},
    {"NullMoveBaseReduction", &SearchParams::nullMoveBaseReduction, 1, 4},
    {"NullMoveDepthDivisor", &SearchParams::nullMoveDepthDivisor, 2, 8},
    {"NullMoveEvalDivisor", &SearchParams::nullMoveEvalDivisor, 80, 400},
    {"NullMoveMaxEvalReduction", &SearchParams::nullMoveMaxEvalReduction, 0, 4},
    {"IirMinDepth", &SearchParams::iirMinDepth, 2, 8},
    {"ProbCutMinDepth", &SearchParams::probCutMinDepth, 3, 8},
    {"ProbCutMargin", &SearchParams::probCutMargin, 80, 350},
    {"ProbCutReduction", &SearchParams::probCutReduction, 2, 6},
    {"FutilityMargin", &SearchParams::futilityMargin, 100, 500},
    {"ExtendedFutilityMargin", &SearchParams::extendedFutilityMargin, 250, 800},
    {"FutilityLmrMaxDepth", &SearchParams::futilityLmrMaxDepth, 0, 12},
    {"FutilityLmrBase", &SearchParams::futilityLmrBase, 50, 400},
    {"FutilityLmrPerDepth", &SearchParams::futilityLmrPerDepth, 40, 250},
    {"LateMovePruningMaxDepth", &SearchParams::lateMovePruningMaxDepth, 3, 10},
    {"LateMovePruningBase", &SearchParams::lateMovePruningBase, 1, 8},
    {"SeePruningMaxDepth", &SearchParams::seePruningMaxDepth, 2, 8},
    {"SeePruningMarginPerDepth", &SearchParams::seePruningMarginPerDepth, 40, 200},
    {"SeeQuietPruningMaxDepth", &SearchParams::seeQuietPruningMaxDepth, 4, 12},
    {"SeeQuietMarginPerDepth", &SearchParams::seeQuietMarginPerDepth, 20, 120},
    {"HistoryPruningMaxDepth", &SearchParams::historyPruningMaxDepth, 1, 6},
    {"HistoryPruningMargin", &SearchParams::historyPruningMargin, 8, 256},
    {"HistoryBonusScale", &SearchParams::historyBonusScale, 1, 32},
    {"LmrMinDepth", &SearchParams::lmrMinDepth, 2, 5},
    {"LmrBaseCentiPlies", &SearchParams::lmrBaseCentiPlies, 25, 150},
    {"LmrDivisorCenti", &SearchParams::lmrDivisorCenti, 150, 350},
    {"LmrHistoryDivisor", &SearchParams::lmrHistoryDivisor, 2048, 16384},
    {"LmrStatDivisor", &SearchParams::lmrStatDivisor, 4096, 32768},
    {"LmrTtPvRelief", &SearchParams::lmrTtPvRelief, 0, 3},
    {"LmrCaptureRelief", &SearchParams::lmrCaptureRelief, 0, 3},
    {"LmrCaptureHistoryDivisor", &SearchParams::lmrCaptureHistoryDivisor, 2048, 32768},
    {"LmrKillerRelief", &SearchParams::lmrKillerRelief, 0, 3},
    {"LmrDeeperMargin", &SearchParams::lmrDeeperMargin, 0, 150},
    {"LmrDeeperMarginPerPly", &SearchParams::lmrDeeperMarginPerPly, 0, 20},
    {"LmrShallowerMargin", &SearchParams::lmrShallowerMargin, 0, 40},
    {"SingularMinDepth", &SearchParams::singularMinDepth, 4, 10},
    {"SingularTableDepthSlack", &SearchParams::singularTableDepthSlack, 1, 5},
    {"SingularMarginPerDepth", &SearchParams::singularMarginPerDepth, 1, 4},
    {"SingularExtendedMinDepth", &SearchParams::singularExtendedMinDepth, 4, 10},
    {"DoubleExtensionMargin", &SearchParams::doubleExtensionMargin, 0, 80},
    {"DoubleExtensionLimit", &SearchParams::doubleExtensionLimit, 1, 16},
    {"CorrectionPawnWeight", &SearchParams::correctionPawnWeight, 32, 256},
    {"CorrectionNonPawnWeight", &SearchParams::correctionNonPawnWeight, 0, 192},
    {"CorrectionMaterialWeight", &SearchParams::correctionMaterialWeight, 0, 192},
    {"DeltaMargin", &SearchParams::deltaMargin, 50, 400},
}};

// Every field has its spec (a field added without one would never be tuned).
static_assert(sizeof(SearchParams) == kSearchParamSpecs.size() * sizeof(int));

}  // namespace outpost
