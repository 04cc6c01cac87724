// POST /api/v1/analysis: one search, answered as one JSON object or streamed as NDJSON.
#pragma once

#include <memory>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

void handleAnalysis(ServerContext& context, const Request& request, const ClientInfo& client,
                    const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
