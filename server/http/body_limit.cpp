#include "http/body_limit.h"

#include <algorithm>
#include <iterator>

#include "games/pgn_import.h"

namespace outpost::server {

namespace {

constexpr std::string_view kPastedReviewSegments[] = {"api", "v1", "review"};
constexpr std::size_t kJsonEscapeFactor = 2;
constexpr std::size_t kOtherFieldsBytes = 4 * 1024;

// Whether `path` is POST /api/v1/review's as the router matches it (empty segments skipped).
bool isPastedReviewPath(std::string_view path) {
    std::size_t index = 0;
    while (!path.empty()) {
        const std::size_t slash = path.find('/');
        const std::string_view segment = path.substr(0, slash);
        path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
        if (segment.empty()) continue;
        if (index == std::size(kPastedReviewSegments) || segment != kPastedReviewSegments[index])
            return false;
        ++index;
    }
    return index == std::size(kPastedReviewSegments);
}

}  // namespace

std::size_t pastedGameBodyLimit() {
    return kMaxPgnBytes * kJsonEscapeFactor + kOtherFieldsBytes;
}

std::size_t bodyLimitFor(http::verb method, std::string_view target, std::size_t configured) {
    if (method == http::verb::post &&
        isPastedReviewPath(target.substr(0, target.find_first_of("?#"))))
        return std::max(configured, pastedGameBodyLimit());
    return configured;
}

std::size_t largestBodyLimit(std::size_t configured) {
    return std::max(configured, pastedGameBodyLimit());
}

}  // namespace outpost::server
