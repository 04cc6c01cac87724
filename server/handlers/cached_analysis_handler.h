// GET /api/v1/analysis?fen=...&multipv=N: the analysis cache (analysis/analysis_cache.h) as
// Lichess's cloud eval. 200 {fen, depth, nodes, multipv, lines} with an ETag (a hash of the
// body; If-None-Match answers 304) and `Cache-Control: public, max-age=60` (a deeper analysis
// may come); 404 not_cached; 400/422 for a bad query. Reads the store: call it off the I/O
// threads (the router's offload()).
#pragma once

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

// How long a client or a proxy may reuse a cached analysis without asking again.
inline constexpr int kCachedAnalysisMaxAgeSeconds = 60;

Response handleCachedAnalysis(ServerContext& context, const Request& request);

}  // namespace outpost::server
