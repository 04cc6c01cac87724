// What every finished search leaves behind, whoever asked for it (REST, WebSocket, a game's
// engine): the pool's metrics (queue wait, search time, nodes) and one "search" log line.
#pragma once

#include <cstdint>
#include <string_view>

#include "errors/client_info.h"
#include "search/search_pool.h"
#include "server_context.h"

namespace outpost::server {

// Metrics only (a game's engine move logs its own line).
void recordSearchMetrics(Metrics& metrics, const JobOutcome& outcome);

// Metrics and the log line; `via` says who asked ("http", "ws").
void recordSearch(ServerContext& context, std::string_view via, std::uint64_t jobId,
                  const ClientInfo& client, const JobOutcome& outcome);

}  // namespace outpost::server
