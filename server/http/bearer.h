// The bearer token of a request: "Authorization: Bearer <token>", as every route that takes a
// player's (or a seek's) token reads it.
#pragma once

#include <boost/beast/core/string.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "http/http_types.h"

namespace outpost::server {

// The token, or nullopt when the header is absent or not a bearer token. The scheme's name is
// case-insensitive (RFC 9110, 11.1): "bearer" and "BEARER" work as "Bearer" does.
inline std::optional<std::string> bearerToken(const Request& request) {
    const auto header = request[http::field::authorization];
    constexpr std::string_view kBearer = "Bearer ";
    std::string_view value(header.data(), header.size());
    if (value.size() <= kBearer.size() ||
        !boost::beast::iequals(value.substr(0, kBearer.size()), kBearer))
        return std::nullopt;
    return std::string(value.substr(kBearer.size()));
}

}  // namespace outpost::server
