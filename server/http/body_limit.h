// How large a request's body may be, by route: --body-limit, except for a pasted game to review,
// whose PGN may be up to kMaxPgnBytes (the contract's 256 KiB: docs/review.md), escaped in JSON.
#pragma once

#include <cstddef>
#include <string_view>

#include "http/http_types.h"

namespace outpost::server {

// The body of POST /api/v1/review: a PGN of kMaxPgnBytes, each byte of it at most two in JSON
// (a newline is "\n", a quote \"), and room for the other fields.
std::size_t pastedGameBodyLimit();

// The largest body `method` on `target` (its path and query) may send, given --body-limit.
std::size_t bodyLimitFor(http::verb method, std::string_view target, std::size_t configured);

// The largest body any request may send: the parser's limit before the target is known.
std::size_t largestBodyLimit(std::size_t configured);

}  // namespace outpost::server
