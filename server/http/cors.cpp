#include "http/cors.h"

#include <algorithm>

namespace outpost::server {

namespace {
constexpr int kPreflightMaxAgeSeconds = 600;

bool originAllowed(std::string_view origin, const std::vector<std::string>& allowed) {
    if (origin.empty()) return false;
    return std::any_of(allowed.begin(), allowed.end(),
                       [&](const std::string& entry) { return entry == "*" || entry == origin; });
}
}  // namespace

void applyCors(const Request& request, Response& response,
               const std::vector<std::string>& allowed) {
    const auto origin = request[http::field::origin];
    if (!originAllowed(origin, allowed)) return;
    response.set(http::field::access_control_allow_origin, origin);
    response.set(http::field::vary, "Origin");
    response.set(http::field::access_control_expose_headers, "Retry-After");
}

Response preflightResponse(const Request& request, const std::vector<std::string>& allowed) {
    Response response{http::status::no_content, request.version()};
    response.keep_alive(request.keep_alive());
    applyCors(request, response, allowed);
    if (originAllowed(request[http::field::origin], allowed)) {
        response.set(http::field::access_control_allow_methods, "GET, POST, OPTIONS");
        response.set(http::field::access_control_allow_headers,
                     "Authorization, Content-Type, Accept");
        response.set(http::field::access_control_max_age, std::to_string(kPreflightMaxAgeSeconds));
    }
    response.prepare_payload();
    return response;
}

}  // namespace outpost::server
