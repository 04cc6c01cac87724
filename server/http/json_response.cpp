#include "http/json_response.h"

namespace outpost::server {

nlohmann::json errorBody(std::string_view code, std::string_view message) {
    return {{"error", {{"code", code}, {"message", message}}}};
}

Response jsonResponse(http::status status, const nlohmann::json& body, unsigned version,
                      bool keepAlive) {
    Response response{status, version};
    response.set(http::field::content_type, "application/json");
    response.set(http::field::cache_control, "no-store");
    response.keep_alive(keepAlive);
    // Invalid UTF-8 from a client (echoed in a message) must not make serialisation throw.
    response.body() = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    response.prepare_payload();
    return response;
}

Response errorResponse(http::status status, std::string_view code, std::string_view message,
                       unsigned version, bool keepAlive, std::optional<int> retryAfterSeconds) {
    Response response = jsonResponse(status, errorBody(code, message), version, keepAlive);
    if (retryAfterSeconds)
        response.set(http::field::retry_after, std::to_string(*retryAfterSeconds));
    return response;
}

Response errorFor(const Request& request, http::status status, std::string_view code,
                  std::string_view message, std::optional<int> retryAfterSeconds) {
    return errorResponse(status, code, message, request.version(), request.keep_alive(),
                         retryAfterSeconds);
}

Response jsonFor(const Request& request, http::status status, const nlohmann::json& body) {
    return jsonResponse(status, body, request.version(), request.keep_alive());
}

}  // namespace outpost::server
