#include "ops/metrics.h"

#include <sstream>
#include <tuple>

namespace outpost::server {

namespace {

std::string formatDouble(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

void line(std::string& out, const std::string& name, const std::string& labels,
          const std::string& value) {
    out += name;
    if (!labels.empty()) out += "{" + labels + "}";
    out += " " + value + "\n";
}

// The HELP and TYPE lines that open a metric family.
void family(std::string& out, const std::string& name, const std::string& help,
            const std::string& type) {
    out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

// A family of one unlabelled sample.
template <typename Number>
void single(std::string& out, const std::string& name, const std::string& help,
            const std::string& type, Number value) {
    family(out, name, help, type);
    line(out, name, "", std::to_string(value));
}

std::uint64_t read(const std::function<std::uint64_t()>& gauge) {
    return gauge ? gauge() : 0;
}

// Label values must come from a fixed set: a client may send any token as its method.
const char* methodLabel(const std::string& method) {
    static constexpr const char* kKnown[] = {"GET",    "HEAD",    "POST", "PUT",
                                             "DELETE", "OPTIONS", "PATCH"};
    for (const char* known : kKnown) {
        if (method == known) return known;
    }
    return "other";
}

std::string requestLabels(const std::tuple<std::string, std::string, int>& key) {
    const auto& [route, method, status] = key;
    return "route=\"" + route + "\",method=\"" + method + "\",status=\"" + std::to_string(status) +
           "\"";
}

}  // namespace

void Histogram::observe(double seconds) {
    for (std::size_t i = 0; i < kLatencyBuckets.size(); ++i) {
        if (seconds <= kLatencyBuckets[i]) {
            ++buckets_[i];
            break;
        }
    }
    ++count_;
    sum_ += seconds;
}

void Histogram::render(std::string& out, const std::string& name, const std::string& labels) const {
    std::uint64_t cumulative = 0;
    const std::string prefix = labels.empty() ? "" : labels + ",";
    for (std::size_t i = 0; i < kLatencyBuckets.size(); ++i) {
        cumulative += buckets_[i];
        line(out, name + "_bucket", prefix + "le=\"" + formatDouble(kLatencyBuckets[i]) + "\"",
             std::to_string(cumulative));
    }
    line(out, name + "_bucket", prefix + "le=\"+Inf\"", std::to_string(count_));
    line(out, name + "_sum", labels, formatDouble(sum_));
    line(out, name + "_count", labels, std::to_string(count_));
}

void Metrics::observeRequest(const std::string& route, const std::string& method, int status,
                             double seconds) {
    std::lock_guard lock(mutex_);
    RequestSeries& series = requests_[{route, methodLabel(method), status}];
    ++series.count;
    series.latency.observe(seconds);
}

void Metrics::observeQueueWait(double seconds) {
    std::lock_guard lock(mutex_);
    queueWait_.observe(seconds);
}

void Metrics::observeSearch(double seconds, std::uint64_t nodes, bool stopped) {
    std::lock_guard lock(mutex_);
    searchTime_.observe(seconds);
    ++searches_;
    if (stopped) ++searchesStopped_;
    nodes_ += nodes;
}

void Metrics::searchRejected(const std::string& reason) {
    std::lock_guard lock(mutex_);
    ++rejected_[reason];
}

void Metrics::internalError(const std::string& where) {
    std::lock_guard lock(mutex_);
    ++internalErrors_[where];
}

std::uint64_t Metrics::internalErrors(const std::string& where) const {
    std::lock_guard lock(mutex_);
    auto it = internalErrors_.find(where);
    return it == internalErrors_.end() ? 0 : it->second;
}

void Metrics::quotaRefused(const std::string& quota) {
    std::lock_guard lock(mutex_);
    ++quotaRefusals_[quota];
}

std::string Metrics::render(const MetricGauges& gauges) const {
    std::string out;
    std::lock_guard lock(mutex_);
    family(out, "outpost_http_requests_total", "HTTP requests by route, method and status.",
           "counter");
    for (const auto& [key, series] : requests_) {
        line(out, "outpost_http_requests_total", requestLabels(key), std::to_string(series.count));
    }
    family(out, "outpost_http_request_duration_seconds", "Time to the complete response.",
           "histogram");
    for (const auto& [key, series] : requests_) {
        series.latency.render(out, "outpost_http_request_duration_seconds", requestLabels(key));
    }
    single(out, "outpost_searches_running", "Searches on a searcher thread now.", "gauge",
           read(gauges.searchesRunning));
    single(out, "outpost_searches_queued", "Searches waiting for a searcher thread.", "gauge",
           read(gauges.searchesQueued));
    single(out, "outpost_searches_total", "Finished searches.", "counter", searches_);
    single(out, "outpost_searches_stopped_total", "Searches ended by stop or disconnect.",
           "counter", searchesStopped_);
    family(out, "outpost_searches_rejected_total", "Searches refused, by reason.", "counter");
    for (const auto& [reason, count] : rejected_) {
        line(out, "outpost_searches_rejected_total", "reason=\"" + reason + "\"",
             std::to_string(count));
    }
    family(out, "outpost_search_queue_wait_seconds", "Time searches waited for a searcher.",
           "histogram");
    queueWait_.render(out, "outpost_search_queue_wait_seconds", "");
    family(out, "outpost_search_duration_seconds", "Time searches ran.", "histogram");
    searchTime_.render(out, "outpost_search_duration_seconds", "");
    single(out, "outpost_nodes_searched_total", "Nodes searched by all searches.", "counter",
           nodes_);
    single(out, "outpost_websocket_connections", "Open WebSocket connections.", "gauge",
           webSockets());
    single(out, "outpost_slow_clients_dropped_total", "Connections dropped for not reading.",
           "counter", slowClients_.load(std::memory_order_relaxed));
    single(out, "outpost_games", "Games in the store.", "gauge", read(gauges.games));
    single(out, "outpost_search_overruns_total",
           "Searches still running well past the time cap (stopped again, then answered with an "
           "error).",
           "counter", read(gauges.searchOverruns));
    single(out, "outpost_searchers_stuck", "Searcher threads held by an overrun search now.",
           "gauge", read(gauges.searchersStuck));
    single(out, "outpost_store_work_pending",
           "Store reads and writes queued or running off the I/O threads.", "gauge",
           read(gauges.storeWorkPending));
    single(out, "outpost_redis_primary_changes_total",
           "Times this replica moved to a new Redis primary (Sentinel failover).", "counter",
           read(gauges.redisPrimaryChanges));
    single(out, "outpost_redis_replica_ack_failures_total",
           "Game writes made on the primary but answered 503 write_unconfirmed: fewer replicas "
           "than --redis-min-replica-acks had them in time.",
           "counter", read(gauges.redisReplicaAckFailures));
    single(out, "outpost_redis_unreplicated_writes_total",
           "Game writes acknowledged with fewer replica acks than asked, the primary having "
           "fewer replicas online (only with --redis-allow-unreplicated-writes).",
           "counter", read(gauges.redisUnreplicatedWrites));
    single(out, "outpost_redis_write_guard_refusals_total",
           "Redis writes the primary refused before writing anything (NOREPLICAS: fewer "
           "replicas in sync than min-replicas-to-write), answered 503 store_unavailable.",
           "counter", read(gauges.redisWriteGuardRefusals));
    family(out, "outpost_internal_errors_total",
           "Exceptions caught at a boundary (the request got 500, the server went on), by where.",
           "counter");
    for (const auto& [where, count] : internalErrors_) {
        line(out, "outpost_internal_errors_total", "where=\"" + where + "\"",
             std::to_string(count));
    }
    family(out, "outpost_quota_refusals_total", "Requests refused by a per-address quota.",
           "counter");
    for (const auto& [quota, count] : quotaRefusals_) {
        line(out, "outpost_quota_refusals_total", "quota=\"" + quota + "\"", std::to_string(count));
    }
    single(out, "outpost_accept_errors_total",
           "Failed accept() calls (such as EMFILE), each followed by a pause.", "counter",
           acceptErrors_.load(std::memory_order_relaxed));
    single(out, "outpost_analysis_cache_hits_total",
           "GET /api/v1/analysis answered from the analysis cache (200 or 304).", "counter",
           analysisCacheHits_.load(std::memory_order_relaxed));
    single(out, "outpost_analysis_cache_misses_total",
           "GET /api/v1/analysis answered 404 not_cached.", "counter",
           analysisCacheMisses_.load(std::memory_order_relaxed));
    return out;
}

}  // namespace outpost::server
