// Operational routes: pure functions from request to response.
#pragma once

#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

Response handleHealth(const Request& request);
Response handleReady(const Request& request, ServerContext& context);
Response handleMetrics(const Request& request, ServerContext& context);
Response handleOpenApi(const Request& request);

}  // namespace outpost::server
