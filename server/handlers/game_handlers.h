// The /api/v1/games routes. Each answers through the sink; those that make the engine move
// answer when its move is stored.
#pragma once

#include <memory>
#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

enum class GameAction { Get, Move, EngineMove, Takeback, Resign, Pgn, Stream };

void handleCreateGame(ServerContext& context, const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink);
void handleGameAction(ServerContext& context, GameAction action, const std::string& gameId,
                      const Request& request, const ClientInfo& client,
                      const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
