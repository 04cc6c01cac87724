// JSON responses and the API's error shape {"error":{"code","message"}}.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "http/http_types.h"

namespace outpost::server {

Response jsonResponse(http::status status, const nlohmann::json& body, unsigned version = 11,
                      bool keepAlive = true);

// retryAfterSeconds adds a Retry-After header (429, 503).
Response errorResponse(http::status status, std::string_view code, std::string_view message,
                       unsigned version = 11, bool keepAlive = true,
                       std::optional<int> retryAfterSeconds = std::nullopt);

// Same response shape, with version and keep-alive taken from the request.
Response errorFor(const Request& request, http::status status, std::string_view code,
                  std::string_view message, std::optional<int> retryAfterSeconds = std::nullopt);
Response jsonFor(const Request& request, http::status status, const nlohmann::json& body);

nlohmann::json errorBody(std::string_view code, std::string_view message);

}  // namespace outpost::server
