// The production Searcher: one Engine per pool thread, all sharing one transposition table.
#pragma once

#include <cstddef>

#include "search/searcher.h"

namespace outpost::server {

// Creates the shared table once (hashMb) and returns a factory of engines using it.
SearcherFactory makeEngineSearcherFactory(std::size_t hashMb);

}  // namespace outpost::server
