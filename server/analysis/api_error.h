// An error as the API reports it: HTTP status, code, message (and Retry-After for 429/503).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "http/http_types.h"

namespace outpost::server {

struct ApiError {
    ApiError() = default;
    ApiError(http::status s, std::string c, std::string m,
             std::optional<int> retryAfter = std::nullopt)
        : status(s), code(std::move(c)), message(std::move(m)), retryAfterSeconds(retryAfter) {}

    http::status status = http::status::bad_request;
    std::string code;
    std::string message;
    std::optional<int> retryAfterSeconds;
};

// Parses a request body as a JSON object: 400 bad_json when it is not JSON, 400 bad_request when
// it is not an object. An empty body is an empty object (all fields optional).
std::variant<nlohmann::json, ApiError> parseJsonObject(std::string_view body);

// 400 bad_request naming the first key of `object` not in `allowed`.
std::optional<ApiError> rejectUnknownFields(const nlohmann::json& object,
                                            std::initializer_list<std::string_view> allowed,
                                            std::string_view where);

Response errorFor(const Request& request, const ApiError& error);

}  // namespace outpost::server
