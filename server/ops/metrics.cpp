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
    RequestSeries& series = requests_[{route, method, status}];
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

std::string Metrics::render(const MetricGauges& gauges) const {
    std::string out;
    std::lock_guard lock(mutex_);
    out +=
        "# HELP outpost_http_requests_total HTTP requests by route, method and status.\n"
        "# TYPE outpost_http_requests_total counter\n";
    for (const auto& [key, series] : requests_) {
        const auto& [route, method, status] = key;
        line(out, "outpost_http_requests_total",
             "route=\"" + route + "\",method=\"" + method + "\",status=\"" +
                 std::to_string(status) + "\"",
             std::to_string(series.count));
    }
    out +=
        "# HELP outpost_http_request_duration_seconds Time to the complete response.\n"
        "# TYPE outpost_http_request_duration_seconds histogram\n";
    for (const auto& [key, series] : requests_) {
        const auto& [route, method, status] = key;
        series.latency.render(out, "outpost_http_request_duration_seconds",
                              "route=\"" + route + "\",method=\"" + method + "\",status=\"" +
                                  std::to_string(status) + "\"");
    }
    out +=
        "# HELP outpost_searches_running Searches on a searcher thread now.\n"
        "# TYPE outpost_searches_running gauge\n";
    line(out, "outpost_searches_running", "",
         std::to_string(gauges.searchesRunning ? gauges.searchesRunning() : 0));
    out +=
        "# HELP outpost_searches_queued Searches waiting for a searcher thread.\n"
        "# TYPE outpost_searches_queued gauge\n";
    line(out, "outpost_searches_queued", "",
         std::to_string(gauges.searchesQueued ? gauges.searchesQueued() : 0));
    out +=
        "# HELP outpost_searches_total Finished searches.\n# TYPE outpost_searches_total counter\n";
    line(out, "outpost_searches_total", "", std::to_string(searches_));
    out +=
        "# HELP outpost_searches_stopped_total Searches ended by stop or disconnect.\n"
        "# TYPE outpost_searches_stopped_total counter\n";
    line(out, "outpost_searches_stopped_total", "", std::to_string(searchesStopped_));
    out +=
        "# HELP outpost_searches_rejected_total Searches refused, by reason.\n"
        "# TYPE outpost_searches_rejected_total counter\n";
    for (const auto& [reason, count] : rejected_) {
        line(out, "outpost_searches_rejected_total", "reason=\"" + reason + "\"",
             std::to_string(count));
    }
    out +=
        "# HELP outpost_search_queue_wait_seconds Time searches waited for a searcher.\n"
        "# TYPE outpost_search_queue_wait_seconds histogram\n";
    queueWait_.render(out, "outpost_search_queue_wait_seconds", "");
    out +=
        "# HELP outpost_search_duration_seconds Time searches ran.\n"
        "# TYPE outpost_search_duration_seconds histogram\n";
    searchTime_.render(out, "outpost_search_duration_seconds", "");
    out +=
        "# HELP outpost_nodes_searched_total Nodes searched by all searches.\n"
        "# TYPE outpost_nodes_searched_total counter\n";
    line(out, "outpost_nodes_searched_total", "", std::to_string(nodes_));
    out +=
        "# HELP outpost_websocket_connections Open WebSocket connections.\n"
        "# TYPE outpost_websocket_connections gauge\n";
    line(out, "outpost_websocket_connections", "", std::to_string(webSockets()));
    out +=
        "# HELP outpost_slow_clients_dropped_total Connections dropped for not reading.\n"
        "# TYPE outpost_slow_clients_dropped_total counter\n";
    line(out, "outpost_slow_clients_dropped_total", "",
         std::to_string(slowClients_.load(std::memory_order_relaxed)));
    out += "# HELP outpost_games Games in the store.\n# TYPE outpost_games gauge\n";
    line(out, "outpost_games", "", std::to_string(gauges.games ? gauges.games() : 0));
    return out;
}

}  // namespace outpost::server
