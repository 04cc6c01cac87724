// The process's open-file limit: every connection is a descriptor, so the soft limit (often 1024
// by default) caps the idle WebSockets a replica holds long before memory does. At start the
// server raises its soft limit to the hard limit the system or container runtime allows.
#pragma once

#include <cstdint>

namespace outpost::server {

struct DescriptorLimit {
    std::uint64_t before = 0;  // soft limit found at start
    std::uint64_t now = 0;     // soft limit after raising it (the hard limit, or `before`)
    std::uint64_t hard = 0;
};

// Above this the limit is not raised further: 10,000 idle WebSockets need ~10,000 descriptors.
inline constexpr std::uint64_t kDescriptorCap = 1 << 20;

// Raises RLIMIT_NOFILE's soft limit to min(hard limit, cap). Never lowers it.
DescriptorLimit raiseDescriptorLimit(std::uint64_t cap = kDescriptorCap);

}  // namespace outpost::server
