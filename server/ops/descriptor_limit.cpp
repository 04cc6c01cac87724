#include "ops/descriptor_limit.h"

#include <sys/resource.h>

#include <algorithm>

namespace outpost::server {

DescriptorLimit raiseDescriptorLimit(std::uint64_t cap) {
    DescriptorLimit result;
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return result;
    result.before = result.now = limit.rlim_cur;
    result.hard = limit.rlim_max;
    const rlim_t wanted = std::min<rlim_t>(limit.rlim_max, static_cast<rlim_t>(cap));
    if (wanted <= limit.rlim_cur) return result;
    limit.rlim_cur = wanted;
    if (setrlimit(RLIMIT_NOFILE, &limit) == 0) result.now = wanted;
    return result;
}

}  // namespace outpost::server
