// GET /api/v1/engine: what a frontend needs to offer the engine's choices without a copy of them:
// the search technique switches with their defaults, the playing levels with their limits and
// nominal ratings, and this server's caps on request limits.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

// `fingerprint`: the engine's, as the analysis cache keys by it (ServerContext::fingerprint).
nlohmann::json engineInfoJson(const ServerConfig& config, const std::string& fingerprint);
Response handleEngineInfo(const Request& request, const ServerContext& context);

}  // namespace outpost::server
