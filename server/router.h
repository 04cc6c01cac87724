// Request routing: maps method + path to a handler, answers unknown routes (404), wrong methods
// (405 with Allow) and CORS preflights. No sockets here: tests call it with a recording sink.
#pragma once

#include <memory>
#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

// Handles one request, answering through `sink`. Returns the route's label for metrics and logs
// (a pattern like "/api/v1/games/{id}/moves", never a raw path, so label sets stay small).
std::string handleHttp(ServerContext& context, Request&& request, const ClientInfo& client,
                       const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
