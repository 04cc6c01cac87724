#include "handlers/analysis_handler.h"

#include <array>
#include <string>
#include <string_view>

#include "analysis/analysis.h"
#include "analysis/analysis_cache.h"
#include "analysis/search_record.h"
#include "errors/error_codes.h"
#include "handlers/ordered_stream.h"
#include "http/accept.h"
#include "http/api_error_response.h"
#include "http/json_response.h"

namespace outpost::server {

namespace {

constexpr std::array<std::string_view, 2> kAnswerTypes = {kMediaJson, kMediaNdjson};

// JSON unless Accept prefers the NDJSON stream (the router has refused an Accept that takes
// neither, so this is one of the two).
bool wantsNdjson(const Request& request) {
    return negotiateMediaType(acceptList(request), kAnswerTypes) == kMediaNdjson;
}

}  // namespace

void handleAnalysis(ServerContext& context, const Request& request, const ClientInfo& client,
                    const std::shared_ptr<ResponseSink>& sink) {
    auto body = parseJsonObject(request.body());
    if (auto* error = std::get_if<ApiError>(&body)) return sink->respond(errorFor(request, *error));
    auto parsed = parseAnalysis(std::get<nlohmann::json>(body), context.config, {});
    if (auto* error = std::get_if<ApiError>(&parsed))
        return sink->respond(errorFor(request, *error));
    auto spec = std::make_shared<const AnalysisSpec>(std::move(std::get<AnalysisSpec>(parsed)));
    if (context.draining.load()) {
        return sink->respond(
            errorFor(request, admissionError(Admission::ShuttingDown, context.config)));
    }

    const bool streaming = wantsNdjson(request);
    auto stream = std::make_shared<OrderedStream>(sink);
    auto jobId = std::make_shared<std::atomic<std::uint64_t>>(0);
    JobCallbacks callbacks;
    if (streaming) {
        callbacks.onInfo = [stream, spec](const SearchInfo& info) {
            nlohmann::json line = analysisInfoJson(info, *spec);
            line["type"] = "info";
            // Each MultiPV line keeps its latest report (net/coalesce.h).
            stream->line(line.dump(), progressKey("analysis", info.multipv));
        };
    }
    const unsigned version = request.version();
    const bool keepAlive = request.keep_alive();
    callbacks.onDone = [&context, client, spec, stream, sink, streaming, version, keepAlive,
                        jobId](const JobOutcome& outcome) {
        recordSearch(context, "http", jobId->load(), client, outcome);
        feedAnalysisCache(context, *spec, outcome);
        if (!outcome.error.empty()) {
            // Validated before queueing, so this is the engine disagreeing with us.
            if (streaming) {
                stream->line(
                    nlohmann::json{
                        {"type", "error"}, {"code", errors::internal}, {"message", outcome.error}}
                        .dump(),
                    kNoCoalescing);
                return stream->end();
            }
            return sink->respond(errorResponse(http::status::internal_server_error,
                                               errors::internal, outcome.error, version,
                                               keepAlive));
        }
        nlohmann::json result = analysisResultJson(outcome, *spec);
        if (streaming) {
            result["type"] = "bestmove";
            stream->line(result.dump(), kNoCoalescing);
            return stream->end();
        }
        sink->respond(jsonResponse(http::status::ok, result, version, keepAlive));
    };

    Submission submission =
        context.pool->submit(client.address, spec->request, std::move(callbacks));
    if (submission.admission != Admission::Accepted) {
        context.metrics.searchRejected(toString(submission.admission));
        return sink->respond(
            errorFor(request, admissionError(submission.admission, context.config)));
    }
    jobId->store(submission.job->id());
    // Nobody waits for the answer any more: stop the search (its result is dropped).
    sink->onDisconnect([job = submission.job] { job->stop(); });
    if (streaming) {
        Response header{http::status::ok, request.version()};
        header.set(http::field::content_type, "application/x-ndjson");
        stream->start(std::move(header));
    }
}

}  // namespace outpost::server
