// The lobby's routes (lobby/seek_service.h, docs/play.md "The lobby"): POST/GET /api/v1/seeks,
// GET/DELETE /api/v1/seeks/{id}, POST /api/v1/seeks/{id}/accept, GET /api/v1/seeks/{id}/stream.
// Each answers through the sink; run them on the store executor (the router offloads them).
#pragma once

#include <memory>
#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

enum class SeekAction { Get, Cancel, Accept, Stream };

void handleCreateSeek(ServerContext& context, const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink);
void handleListSeeks(ServerContext& context, const Request& request,
                     const std::shared_ptr<ResponseSink>& sink);
void handleSeekAction(ServerContext& context, SeekAction action, const std::string& seekId,
                      const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
