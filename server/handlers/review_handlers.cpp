#include "handlers/review_handlers.h"

#include "handlers/ordered_stream.h"
#include "http/api_error_response.h"
#include "http/json_response.h"
#include "review/review_service.h"

namespace outpost::server {

namespace {

// 202 while it runs (progress on /stream), 200 once finished; Location names the review.
void respondReview(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                   ReviewResult result) {
    if (auto* error = std::get_if<ApiError>(&result))
        return sink->respond(errorFor(request, *error));
    const ReviewHandle& handle = std::get<ReviewHandle>(result);
    Response response = jsonFor(
        request, handle.running() ? http::status::accepted : http::status::ok, handle.review);
    response.set(http::field::location,
                 "/api/v1/reviews/" + handle.review.value("id", std::string()));
    sink->respond(std::move(response));
}

void streamReview(const Request& request, const std::shared_ptr<ResponseSink>& sink,
                  ReviewResult result) {
    if (auto* error = std::get_if<ApiError>(&result))
        return sink->respond(errorFor(request, *error));
    const ReviewHandle& handle = std::get<ReviewHandle>(result);
    auto stream = std::make_shared<OrderedStream>(sink);
    Response header{http::status::ok, request.version()};
    header.set(http::field::content_type, "application/x-ndjson");
    if (!handle.run) {
        stream->start(std::move(header));
        stream->line(nlohmann::json{{"type", "review"}, {"review", handle.review}}.dump(),
                     kNoCoalescing);
        return stream->end();
    }
    // The run holds the stream (and so the exchange) only until the exchange ends.
    std::weak_ptr<OrderedStream> weak = stream;
    const std::uint64_t token = handle.run->listen([weak](const nlohmann::json& line, bool final) {
        auto live = weak.lock();
        if (!live) return;
        live->line(line.dump(), kNoCoalescing);
        if (final) live->end();
    });
    if (token != 0) sink->onEnd([run = handle.run, token, stream] { run->unlisten(token); });
    stream->start(std::move(header));
}

}  // namespace

void handleStartGameReview(ServerContext& context, const std::string& gameId,
                           const Request& request, const ClientInfo& client,
                           const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    respondReview(
        request, sink,
        ReviewService(context).startForGame(gameId, std::get<nlohmann::json>(body), client));
}

void handleGetGameReview(ServerContext& context, const std::string& gameId, const Request& request,
                         const std::shared_ptr<ResponseSink>& sink) {
    respondReview(request, sink, ReviewService(context).findForGame(gameId));
}

void handleStartReview(ServerContext& context, const Request& request, const ClientInfo& client,
                       const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    respondReview(request, sink,
                  ReviewService(context).startPasted(std::get<nlohmann::json>(body), client));
}

void handleReviewAction(ServerContext& context, ReviewAction action, const std::string& reviewId,
                        const Request& request, const std::shared_ptr<ResponseSink>& sink) {
    ReviewService service(context);
    switch (action) {
        case ReviewAction::Get:
            return respondReview(request, sink, service.find(reviewId));
        case ReviewAction::Stream:
            return streamReview(request, sink, service.find(reviewId));
        case ReviewAction::Stop:
            return respondReview(request, sink, service.stop(reviewId));
    }
}

}  // namespace outpost::server
