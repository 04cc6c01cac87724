// POST/GET /api/v1/games/{id}/chat (games/chat.h) and POST /api/v1/games/{id}/rematch/yes|no
// (games/rematch.h). Run on the store executor (the router offloads them).
#pragma once

#include <memory>
#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

void handlePostChat(ServerContext& context, const std::string& gameId, const Request& request,
                    const std::shared_ptr<ResponseSink>& sink);
void handleGetChat(ServerContext& context, const std::string& gameId, const Request& request,
                   const std::shared_ptr<ResponseSink>& sink);
void handleRematch(ServerContext& context, bool yes, const std::string& gameId,
                   const Request& request, const ClientInfo& client,
                   const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
