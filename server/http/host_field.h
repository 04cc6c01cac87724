// The Host header field a request must carry (RFC 9112 3.2): exactly one in HTTP/1.1, at most
// one in HTTP/1.0, and a value that is a host with an optional port (or empty).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "http/http_types.h"

namespace outpost::server {

// Whether `value` reads as uri-host [":" port] (RFC 3986 3.2.2, 3.2.3): a registered name
// (unreserved characters, percent escapes, sub-delimiters), an IPv4 address or an IP literal in
// brackets, then an optional colon and digits. Empty is valid (RFC 9110 7.2: a target without an
// authority).
bool validHostValue(std::string_view value);

// Why `request`'s Host fields make it a 400 (RFC 9112 3.2: missing from an HTTP/1.1 request,
// given twice, or not a host), for the message; nullopt when they are fine. Checked on the
// request as received, before an absolute-form target gives the Host (request_target.h).
std::optional<std::string> hostFieldProblem(const Request& request);

}  // namespace outpost::server
