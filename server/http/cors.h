// Cross-origin access for frontends served from other origins.
#pragma once

#include <string>
#include <vector>

#include "http/http_types.h"

namespace outpost::server {

// Adds Access-Control-Allow-Origin (and Vary) when the request's Origin is allowed.
void applyCors(const Request& request, Response& response, const std::vector<std::string>& allowed);
// The answer to an OPTIONS preflight: 204 with the allowed methods and headers.
Response preflightResponse(const Request& request, const std::vector<std::string>& allowed);

}  // namespace outpost::server
