// The production Searcher: one Engine per pool thread, all sharing one transposition table.
//
// Isolation between requests (docs/security.md, "Isolation between requests"): a search whose
// result could depend on another request's options never meets that request in the pool.
//   * The shared table serves only searches with the pool's default options at full strength.
//     Any other option set changes the scores stored (the network changes static evaluations;
//     two-sided quiescence and aggressive futility change values; every pruning, reduction or
//     ordering switch changes which nodes are searched and so the bounds stored), and a level's
//     random choice should not depend on other traffic: those searches use a table of the
//     searcher's own, cleared before each of them.
//   * Histories, killers and evaluation caches are cleared before every job, so a search never
//     depends on which positions its pool thread served before.
//   * The shared table ages by time, not per search (search/tt.h).
//   * A fresh search (Searcher::runFresh: a review's positions) always uses the searcher's own
//     table, cleared before it: its result depends on its request alone (docs/review.md,
//     "Determinism").
#pragma once

#include <chrono>
#include <cstddef>

#include "search/searcher.h"

namespace outpost::server {

// The shared table's age period: one generation per second, whatever the pool's load.
inline constexpr std::chrono::milliseconds kPoolTableAgePeriod{1000};
// Size of each searcher's own table for isolated searches.
inline constexpr std::size_t kIsolatedTableMb = 16;

// True when the request may use the pool's shared table (the rule above).
bool usesSharedTable(const SearchRequest& request, const SearchConfig& poolConfig);

// Creates the shared table once (hashMb) and returns a factory of engines using it.
SearcherFactory makeEngineSearcherFactory(std::size_t hashMb);

}  // namespace outpost::server
