// JSON forms of the engine's results as the API names them (see api/openapi.yaml).
// Scores are turned to White's point of view here, the one place that knows the side to move.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine.h"

namespace outpost::api {

// {"cp": n} or {"mate": n}, from White's view, with "bound" when not exact and "winChance".
nlohmann::json scoreJson(const Score& score, bool whiteToMove);

// The fields of one progress report (no "type"): depth, seldepth, multipv, score, nodes, nps,
// timeMs, hashfull, pv, pvSan.
nlohmann::json infoJson(const SearchInfo& info, bool whiteToMove,
                        const std::vector<std::string>& pvSan);

// Probability in [0,1] that White wins, from a White-view centipawn score (logistic model).
double winChance(int whiteCp);

}  // namespace outpost::api
