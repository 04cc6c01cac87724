// Analysis requests shared by REST and WebSocket: validation (JSON shape, FEN, moves, limits
// clamped to the server's caps), and the JSON of progress reports and results.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

#include "config.h"
#include "engine.h"
#include "errors/api_error.h"
#include "games/chess_rules.h"
#include "search/search_pool.h"
#include "store/game_record.h"

namespace outpost::server {

struct AnalysisSpec {
    SearchRequest request;
    nlohmann::json limitsApplied;
    std::shared_ptr<const ChessState> root;  // the position searched: SAN and score sign
    nlohmann::json opening;  // {eco, name} reached by fen + moves (openings/), null when none
};

// `limits` object -> LimitsSpec. 400 for wrong types or unknown fields, 422 for values <= 0.
std::variant<LimitsSpec, ApiError> parseLimits(const nlohmann::json& limits);

struct CappedLimits {
    SearchLimits limits;
    nlohmann::json applied;  // {depth?, movetime?, nodes?, clamped}
};
// Clamps to the caps; no limits at all become the default movetime. Every search also gets the
// server's time cap (capSearchTime).
CappedLimits capLimits(const LimitsSpec& requested, const ServerConfig& config);
// The deadline every search of this server gets, whatever its other limits (--max-movetime),
// reported as limitsApplied.timeCapMs.
void capSearchTime(SearchLimits& limits, nlohmann::json& applied, const ServerConfig& config);

// The optional `fen` of a request body into `fen`: absent or null leaves it empty (the start
// position); not a string is 400 bad_request; an empty or blank string is 422 invalid_fen, as it
// is the client's mistake (a field left empty), not a way to ask for the start position.
std::optional<ApiError> readFen(const nlohmann::json& body, std::string& fen);

// Loads a position: 422 invalid_fen with the parser's reason, 422 illegal_move for a bad move.
// Moves may be UCI or SAN; on success `uciMoves` holds them as UCI. With `refuseAfterEnd` (a
// game's moves), a move given after the game was over by the rules (mate, stalemate, threefold
// repetition, fifty moves, insufficient material) is refused with 422 game_over, as it would be
// when played live; analyses and reviews of imported games take the line as given.
std::variant<ChessState, ApiError> loadPosition(const std::string& fen,
                                                const std::vector<std::string>& moves,
                                                std::vector<std::string>& uciMoves,
                                                bool refuseAfterEnd = false);

// 422 game_over when the position has no legal move (mate or stalemate): there is nothing to
// search, nor to have been cached.
std::optional<ApiError> noMoveToAnalyse(const ChessState& state);

// A whole analysis request (REST body or WebSocket message; `extraFields` names the fields the
// transport adds, like "type" and "id").
std::variant<AnalysisSpec, ApiError> parseAnalysis(
    const nlohmann::json& body, const ServerConfig& config,
    std::initializer_list<std::string_view> extraFields);

// One progress report (fields only; callers add "type" and their ids).
nlohmann::json analysisInfoJson(const SearchInfo& info, const AnalysisSpec& spec);
// The result: bestmove, ponder?, san, score, depth, seldepth, nodes, nps, timeMs, pv, pvSan,
// lines, limitsApplied, queueWaitMs, searchMs, stopped.
nlohmann::json analysisResultJson(const JobOutcome& outcome, const AnalysisSpec& spec);

// 429 / 503 for a refused job.
ApiError admissionError(Admission admission, const ServerConfig& config);

}  // namespace outpost::server
