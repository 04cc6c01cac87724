// The Review object of the API (docs/review.md) from a review's state: pure, so the handlers,
// the streams and the stored copy all say the same.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "review/review_game.h"

namespace outpost::server::review {

struct ReviewState {
    std::string id;
    std::string gameId;  // empty for a pasted game
    std::uint64_t gameVersion = 0;
    std::string status = "running";  // running | done | stopped | failed
    std::string error;               // why it failed
    nlohmann::json limitsApplied = nlohmann::json::object();
    std::vector<std::optional<PositionEval>> positions;  // one per position of the game
    // Positions whose search the time cap ended before its node or depth limit: their results
    // depend on the machine's speed and load (docs/review.md, "Determinism").
    std::size_t timeCapped = 0;
};

// {cp} or {mate} in White's view (a checkmate on the board is {mate: 0}).
nlohmann::json scoreJson(const Eval& eval);
// Positions analysed.
std::size_t positionsDone(const ReviewState& state);
// The ReviewedMove of ply (1-based); nothing until both of its positions are done.
std::optional<nlohmann::json> reviewedMoveJson(const ReviewGame& game, const ReviewState& state,
                                               std::size_t ply);
// The whole Review (summary included unless it is still running).
nlohmann::json reviewJson(const ReviewGame& game, const ReviewState& state);

}  // namespace outpost::server::review
