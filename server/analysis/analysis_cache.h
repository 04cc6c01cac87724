// Cached analysis, like Lichess's cloud eval: GET /api/v1/analysis?fen=...&multipv=N answers
// from analyses already made, without a search.
//
// What feeds it: every analysis (POST /api/v1/analysis, streamed or not, and the WebSocket
// `analyse`) that finished by its own limits (not stopped), at full strength (no technique
// switched, no searchmoves), with every line at least --analysis-cache-min-depth deep. Its lines
// are kept under the position's key (analysisCacheKey) in the AnalysisCacheStore, which keeps the
// deepest analysis per number of lines and evicts the least recently used positions.
//
// What answers: the deepest kept analysis with at least N lines, cut to N lines, among those
// that hold for the asked position's halfmove clock and are younger than kAnalysisSlotMaxAge.
//
// What decides an analysis besides the key's fields (placement, side, castling, en passant):
//   * The halfmove clock, through the fifty-move rule: at 100 plies without a capture or pawn
//     move every line is drawn. An analysis made at clock h holds at clock h' only when neither
//     search could reach that limit: both h and h' are below its `clockFreeBelow`, 100 minus
//     its reach. The reach is kFiftyMoveReachFactor times the deepest ply its lines report
//     (seldepth, at least the depth): the tree's side lines and the helper threads go deeper
//     than the reported lines, so the report alone is not a bound. An analysis that could see
//     the limit (h >= clockFreeBelow) is not kept at all: no caching near the fifty-move limit.
//   * The history (`moves`), through repetitions: the engine counts a return to a position of
//     the game since its last capture or pawn move as a draw. An analysis with moves is kept only
//     when its position's halfmove clock is 0 (the last move was a capture or pawn move, so no
//     earlier position can come back): it is then the analysis of the position's FEN alone.
//   * Age: a slot older than kAnalysisSlotMaxAge (a day) is neither answered nor kept.
//   * The engine: a slot is stored under its engine's fingerprint as well as the position
//     (analysisStoreKey), so a replica reads only what an engine like its own wrote. After an
//     upgrade (a new network, a search change) the old engine's slots are not answered; they
//     age out, or the least recently used go first.
#pragma once

#include <cstdint>
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

// Where a position's slots are kept in the store: the engine's fingerprint
// (search/fingerprint.h), a space, then the position's key.
std::string analysisStoreKey(const std::string& engine, const std::string& positionKey);

// Plies of the fifty-move rule, and how much deeper than its reported lines a search is taken
// to look (the rule above).
inline constexpr int kFiftyMovePlies = 100;
inline constexpr int kFiftyMoveReachFactor = 2;

// The halfmove clock of a position (plies since the last capture or pawn move).
int halfmoveClock(const ChessState& state);

// The slot a finished search gives the cache, made at `now` (seconds since the Unix epoch), or
// nothing when it may not feed it (the rules above). Its doc holds {depth, nodes, lines,
// clockFreeBelow}; lines as in the analysis result.
std::optional<AnalysisSlot> analysisCacheSlot(const AnalysisSpec& spec, const JobOutcome& outcome,
                                              int minDepth, std::int64_t now);

// The answer for `multipv` lines at halfmove clock `halfmove` from a position's slots, at `now`:
// {fen, depth, nodes, multipv, lines}, or nothing when no fresh slot has that many lines and
// holds at that clock.
std::optional<nlohmann::json> cachedAnalysisAnswer(const std::vector<AnalysisSlot>& slots,
                                                   const std::string& key, int multipv,
                                                   int halfmove, std::int64_t now);

// Seconds since the Unix epoch by the system clock: the `now` of the two above in the server.
std::int64_t analysisCacheNow();

// Offers a finished search to the cache. Any thread: the store is written on the store executor.
void feedAnalysisCache(ServerContext& context, const AnalysisSpec& spec, const JobOutcome& outcome);

}  // namespace outpost::server
