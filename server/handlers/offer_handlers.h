// POST /api/v1/games/{id}/draw/yes|no, /takeback/yes|no, /abort, /claim-victory, /claim-draw
// (games/offers.h): the player's token as a bearer token, an empty body (or {}), and the game at
// its new version as the answer. Run on the store executor (the router offloads them).
#pragma once

#include <memory>
#include <string>

#include "games/offers.h"
#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

void handleOfferAction(ServerContext& context, OfferAction action, const std::string& gameId,
                       const Request& request, const ClientInfo& client,
                       const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
