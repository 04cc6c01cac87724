#include "http/cors.h"

#include <algorithm>

#include "http/header_text.h"

namespace outpost::server {

namespace {
constexpr int kPreflightMaxAgeSeconds = 600;
// The answer headers the API tells clients to read, beyond the CORS-safelisted ones
// (Cache-Control, Content-Type...), which a page of another origin may read only when named:
// Allow (405), ETag (cached analysis), Location (201 and 202: the created game, seek or review),
// Retry-After (429, 503), Idempotent-Replayed (a game creation answered again).
constexpr const char* kExposedHeaders = "Allow, ETag, Location, Retry-After, Idempotent-Replayed";
// The request headers such a page may send: If-None-Match for the cached analysis' ETag too, and
// Idempotency-Key for a game creation it may retry.
constexpr const char* kAllowedRequestHeaders =
    "Authorization, Content-Type, Accept, If-None-Match, Idempotency-Key";

bool originAllowed(std::string_view origin, const std::vector<std::string>& allowed) {
    if (origin.empty()) return false;
    return std::any_of(allowed.begin(), allowed.end(),
                       [&](const std::string& entry) { return entry == "*" || entry == origin; });
}
struct HostPort {
    std::string host;  // lower case; IPv6 in brackets
    std::string port;  // empty when not given
};

HostPort splitHostPort(std::string_view text) {
    HostPort result;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string_view::npos) return {lowerAscii(text), ""};
        result.host = lowerAscii(text.substr(0, close + 1));
        if (close + 1 < text.size() && text[close + 1] == ':')
            result.port = std::string(text.substr(close + 2));
        return result;
    }
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return {lowerAscii(text), ""};
    return {lowerAscii(text.substr(0, colon)), std::string(text.substr(colon + 1))};
}

bool sameOrigin(std::string_view origin, std::string_view host) {
    const auto schemeEnd = origin.find("://");
    if (schemeEnd == std::string_view::npos || host.empty()) return false;
    const std::string scheme = lowerAscii(origin.substr(0, schemeEnd));
    std::string_view authority = origin.substr(schemeEnd + 3);
    if (authority.find('/') != std::string_view::npos) return false;
    HostPort from = splitHostPort(authority);
    if (from.port.empty()) from.port = scheme == "https" || scheme == "wss" ? "443" : "80";
    const HostPort to = splitHostPort(host);
    if (from.host != to.host) return false;
    // A proxy may pass the host without its port (nginx's $host): then the host decides.
    return to.port.empty() || to.port == from.port;
}

// Adds `name` to the response's Vary unless it is there already.
void addVary(Response& response, std::string_view name) {
    const auto current = response[http::field::vary];
    if (current.empty()) {
        response.set(http::field::vary, name);
        return;
    }
    bool present = false;
    forEachListItem(std::string_view(current.data(), current.size()), [&](std::string_view entry) {
        present = present || entry == "*" || equalsIgnoringCase(entry, name);
    });
    if (present) return;
    response.set(http::field::vary, std::string(current) + ", " + std::string(name));
}

}  // namespace

bool webSocketOriginAllowed(const Request& request, const std::vector<std::string>& allowed) {
    const auto origin = request[http::field::origin];
    if (origin.empty()) return true;
    const std::string_view originView(origin.data(), origin.size());
    const auto host = request[http::field::host];
    if (sameOrigin(originView, std::string_view(host.data(), host.size()))) return true;
    return originAllowed(originView, allowed);
}

void applyCors(const Request& request, Response& response,
               const std::vector<std::string>& allowed) {
    if (allowed.empty()) return;
    // With CORS on, every answer depends on the Origin, also one made without it: a shared
    // cache must not give a page of another origin an answer without its Allow-Origin.
    addVary(response, "Origin");
    const auto origin = request[http::field::origin];
    if (!originAllowed(origin, allowed)) return;
    response.set(http::field::access_control_allow_origin, origin);
    response.set(http::field::access_control_expose_headers, kExposedHeaders);
}

Response preflightResponse(const Request& request, const std::vector<std::string>& allowed) {
    Response response{http::status::no_content, request.version()};
    response.keep_alive(request.keep_alive());
    applyCors(request, response, allowed);
    if (originAllowed(request[http::field::origin], allowed)) {
        response.set(http::field::access_control_allow_methods, "GET, POST, DELETE, OPTIONS");
        response.set(http::field::access_control_allow_headers, kAllowedRequestHeaders);
        response.set(http::field::access_control_max_age, std::to_string(kPreflightMaxAgeSeconds));
    }
    response.prepare_payload();
    return response;
}

}  // namespace outpost::server
