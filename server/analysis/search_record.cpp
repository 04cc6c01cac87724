#include "analysis/search_record.h"

namespace outpost::server {

namespace {
constexpr double kMsPerSecond = 1000.0;
}  // namespace

void recordSearchMetrics(Metrics& metrics, const JobOutcome& outcome) {
    metrics.observeQueueWait(outcome.timing.queueWaitMs / kMsPerSecond);
    metrics.observeSearch(outcome.timing.searchMs / kMsPerSecond, outcome.result.info.nodes,
                          outcome.result.stopped);
}

void recordSearch(ServerContext& context, std::string_view via, std::uint64_t jobId,
                  const ClientInfo& client, const JobOutcome& outcome) {
    recordSearchMetrics(context.metrics, outcome);
    context.logger.log({{"event", "search"},
                        {"via", via},
                        {"job", jobId},
                        {"client", client.address},
                        {"bestmove", outcome.result.bestmove},
                        {"depth", outcome.result.info.depth},
                        {"nodes", outcome.result.info.nodes},
                        {"queueWaitMs", outcome.timing.queueWaitMs},
                        {"searchMs", outcome.timing.searchMs},
                        {"stopped", outcome.result.stopped},
                        {"error", outcome.error}});
}

}  // namespace outpost::server
