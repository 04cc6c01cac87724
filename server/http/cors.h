// Cross-origin access for frontends served from other origins.
#pragma once

#include <string>
#include <vector>

#include "http/http_types.h"

namespace outpost::server {

// With origins allowed: `Vary: Origin` on every answer (added to a Vary the handler set, such as
// the static files' Accept-Encoding), and Access-Control-Allow-Origin when the request's Origin
// is allowed.
void applyCors(const Request& request, Response& response, const std::vector<std::string>& allowed);
// The answer to an OPTIONS preflight: 204 with the allowed methods and headers.
Response preflightResponse(const Request& request, const std::vector<std::string>& allowed);

// Whether a WebSocket upgrade may proceed: no Origin (not a browser), the page's own origin (the
// Origin's host, and port when the Host header names one, equal the Host header's), or an origin
// of the CORS allow-list. Browsers let any page open a WebSocket anywhere; this is the check
// that keeps a foreign page from using a visitor's connection.
bool webSocketOriginAllowed(const Request& request, const std::vector<std::string>& allowed);

}  // namespace outpost::server
