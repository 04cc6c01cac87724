// Operational routes and the board page: pure functions from request to response.
#pragma once

#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

Response handleHealth(const Request& request);
Response handleReady(const Request& request, ServerContext& context);
Response handleMetrics(const Request& request, ServerContext& context);
Response handleOpenApi(const Request& request);
// GET/HEAD of a file under webRoot ("/" is index.html); 404 for missing files and for paths that
// try to leave the root.
Response handleStaticFile(const Request& request, const std::string& webRoot);
std::string contentTypeFor(const std::string& path);

}  // namespace outpost::server
