// Search limits as a client or a game's settings give them (before clamping to server caps).
#pragma once

#include <cstdint>
#include <optional>

namespace outpost::server {

struct LimitsSpec {
    std::optional<int> depth;
    std::optional<std::int64_t> movetimeMs;
    std::optional<std::uint64_t> nodes;

    bool empty() const { return !depth && !movetimeMs && !nodes; }
    friend bool operator==(const LimitsSpec&, const LimitsSpec&) = default;
};

}  // namespace outpost::server
