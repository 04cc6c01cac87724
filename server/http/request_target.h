// A request's target in absolute-form ("http://host:port/path?query", RFC 9112 3.2.2), which a
// server must accept, made the origin-form the router reads ("/path?query").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace outpost::server {

struct OriginForm {
    std::string authority;  // "host:port": the request's Host (RFC 9112 3.2.2)
    std::string target;     // "/path?query"; "/" when the path is empty
};

// The origin-form of an http or https absolute-form target (scheme in any letter case); nullopt
// for any other target (origin-form, "*", or not a URL at all).
std::optional<OriginForm> originFormOf(std::string_view target);

}  // namespace outpost::server
