// The bearer token of a request: "Authorization: Bearer <token>", as every route that takes a
// player's (or a seek's) token reads it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "http/http_types.h"

namespace outpost::server {

// The token, or nullopt when the header is absent or not a bearer token. The scheme's name is
// case-insensitive (RFC 9110, 11.1): "bearer" and "BEARER" work as "Bearer" does.
inline std::optional<std::string> bearerToken(const Request& request) {
    const auto header = request[http::field::authorization];
    constexpr std::string_view kBearer = "bearer ";
    std::string_view value(header.data(), header.size());
    if (value.size() <= kBearer.size()) return std::nullopt;
    for (std::size_t i = 0; i < kBearer.size(); ++i) {
        const char c = value[i];
        if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != kBearer[i])
            return std::nullopt;
    }
    return std::string(value.substr(kBearer.size()));
}

}  // namespace outpost::server
