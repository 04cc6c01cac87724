// A request's Transfer-Encoding (RFC 9112 6.1, 6.3): this server reads a body framed by
// Content-Length or by the chunked coding alone. Any other framing leaves the body's length
// unknown to it, or known differently to a proxy in front: what it would read as the next
// request is the body (request smuggling), so the request is refused (400) and the connection
// closed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/header_text.h"

namespace outpost::server {

// Why a request of HTTP version `version` (Beast's: 11 for HTTP/1.1) with these Transfer-Encoding
// field values (every field, in order) cannot be read, for a 400's message; nullopt when there
// is none, or the chunked coding alone in HTTP/1.1.
inline std::optional<std::string> transferCodingProblem(unsigned version,
                                                        const std::vector<std::string>& fields) {
    constexpr unsigned kHttp11Version = 11;
    std::vector<std::string> codings;
    for (const std::string& field : fields) {
        forEachListItem(field, [&](std::string_view element) {
            const std::string_view coding = trimHeaderSpace(element.substr(0, element.find(';')));
            if (!coding.empty()) codings.push_back(lowerAscii(coding));  // parameters aside
        });
    }
    if (fields.empty()) return std::nullopt;
    if (version < kHttp11Version) {
        return "an HTTP/1.0 request cannot have a Transfer-Encoding (RFC 9112 6.1)";
    }
    if (codings.empty() || codings.back() != "chunked") {
        return "the body's length is unknown: Transfer-Encoding must end with chunked (RFC 9112 "
               "6.3)";
    }
    if (codings.size() > 1) {
        return "only the chunked transfer coding is read; send the body uncompressed";
    }
    return std::nullopt;
}

}  // namespace outpost::server
