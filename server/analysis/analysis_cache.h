// Cached analysis, like Lichess's cloud eval: GET /api/v1/analysis?fen=...&multipv=N answers
// from analyses already made, without a search.
//
// What feeds it: every analysis (POST /api/v1/analysis, streamed or not, and the WebSocket
// `analyse`) that finished by its own limits (not stopped), at full strength (no technique
// switched, no searchmoves), with every line at least --analysis-cache-min-depth deep. Its lines
// are kept under the position's key (analysisCacheKey) in the AnalysisCacheStore, which keeps the
// deepest analysis per number of lines and evicts the least recently used positions.
//
// What answers: the deepest kept analysis with at least N lines, cut to N lines.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "games/chess_rules.h"
#include "search/search_pool.h"
#include "store/analysis_cache_store.h"

namespace outpost::server {

struct ServerContext;

// The key of a position: its FEN without the move counters (placement, side, castling, en
// passant), the en-passant square only when an en-passant capture is legal, so the same position
// reached by different move orders or at another move number shares one entry.
std::string analysisCacheKey(const ChessState& state);

// The slot a finished search gives the cache, or nothing when it may not feed it (the rule
// above). Its doc holds {depth, nodes, lines}; lines as in the analysis result.
std::optional<AnalysisSlot> analysisCacheSlot(const AnalysisSpec& spec, const JobOutcome& outcome,
                                              int minDepth);

// The answer for `multipv` lines from a position's slots: {fen, depth, nodes, multipv, lines},
// or nothing when no slot has that many lines.
std::optional<nlohmann::json> cachedAnalysisAnswer(const std::vector<AnalysisSlot>& slots,
                                                   const std::string& key, int multipv);

// Offers a finished search to the cache. Any thread: the store is written on the store executor.
void feedAnalysisCache(ServerContext& context, const AnalysisSpec& spec, const JobOutcome& outcome);

}  // namespace outpost::server
