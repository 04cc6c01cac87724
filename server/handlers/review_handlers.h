// The review routes (docs/review.md): start (a stored game's, or a pasted game's), get, stream
// (NDJSON), stop. Each runs on the store executor (they read the store); the searches run in the
// pool, at its lowest priority.
#pragma once

#include <memory>
#include <string>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

enum class ReviewAction { Get, Stream, Stop };

// POST /api/v1/games/{id}/review
void handleStartGameReview(ServerContext& context, const std::string& gameId,
                           const Request& request, const ClientInfo& client,
                           const std::shared_ptr<ResponseSink>& sink);
// GET /api/v1/games/{id}/review
void handleGetGameReview(ServerContext& context, const std::string& gameId, const Request& request,
                         const std::shared_ptr<ResponseSink>& sink);
// POST /api/v1/review
void handleStartReview(ServerContext& context, const Request& request, const ClientInfo& client,
                       const std::shared_ptr<ResponseSink>& sink);
// GET /api/v1/reviews/{reviewId}, GET .../stream, POST .../stop
void handleReviewAction(ServerContext& context, ReviewAction action, const std::string& reviewId,
                        const Request& request, const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
