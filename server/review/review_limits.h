// The search budget of each position of a review: the caller's depth, nodes or movetime within
// the review caps, or by default a node limit (ServerConfig::reviewNodes). Every position also
// gets a time cap, so no position of a review holds a searcher long.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "config.h"
#include "engine.h"
#include "store/game_record.h"

namespace outpost::server::review {

inline constexpr int kMaxReviewDepth = 24;
inline constexpr std::uint64_t kMaxReviewNodes = 5'000'000;
inline constexpr std::int64_t kMaxReviewMovetimeMs = 5000;
// The time cap of a position: with the default budget, and with the caller's limits.
inline constexpr std::int64_t kDefaultReviewTimeCapMs = 1000;
inline constexpr std::int64_t kReviewTimeCapMs = 5000;

struct ReviewLimits {
    SearchLimits limits;
    nlohmann::json applied;  // limitsApplied: {depth?, nodes?, movetime?, timeCapMs, clamped,
                             // default?}
};

ReviewLimits reviewLimits(const LimitsSpec& requested, const ServerConfig& config);

}  // namespace outpost::server::review
