#include "review/review_limits.h"

#include <algorithm>

namespace outpost::server::review {

ReviewLimits reviewLimits(const LimitsSpec& requested, const ServerConfig& config) {
    ReviewLimits out;
    bool clamped = false;
    if (requested.depth) {
        const int cap = std::min(kMaxReviewDepth, config.maxDepth);
        out.limits.depth = std::min(*requested.depth, cap);
        clamped |= *out.limits.depth != *requested.depth;
        out.applied["depth"] = *out.limits.depth;
    }
    if (requested.nodes) {
        const std::uint64_t cap = std::min(kMaxReviewNodes, config.maxNodes);
        out.limits.nodes = std::min(*requested.nodes, cap);
        clamped |= *out.limits.nodes != *requested.nodes;
        out.applied["nodes"] = *out.limits.nodes;
    }
    if (requested.movetimeMs) {
        const std::int64_t cap = std::min(kMaxReviewMovetimeMs, config.maxMovetimeMs);
        out.limits.movetimeMs = std::min(*requested.movetimeMs, cap);
        clamped |= *out.limits.movetimeMs != *requested.movetimeMs;
        out.applied["movetime"] = *out.limits.movetimeMs;
    }
    std::int64_t timeCap = kReviewTimeCapMs;
    if (requested.empty()) {
        out.limits.nodes = std::min(config.reviewNodes, config.maxNodes);
        out.applied["nodes"] = *out.limits.nodes;
        out.applied["default"] = true;
        timeCap = kDefaultReviewTimeCapMs;
    }
    out.limits.maxTimeMs = std::min(timeCap, config.maxMovetimeMs);
    out.applied["timeCapMs"] = *out.limits.maxTimeMs;
    out.applied["clamped"] = clamped;
    return out;
}

}  // namespace outpost::server::review
