// Prometheus metrics: request counts and latency histograms by route and status, search pool
// gauges and histograms, WebSocket connections, games. Thread-safe; rendered on /metrics.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace outpost::server {

// Upper bounds (seconds) of the latency buckets; searches run up to the movetime cap.
inline constexpr std::array<double, 14> kLatencyBuckets = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

class Histogram {
  public:
    void observe(double seconds);
    void render(std::string& out, const std::string& name, const std::string& labels) const;

  private:
    std::array<std::uint64_t, kLatencyBuckets.size()> buckets_{};
    std::uint64_t count_ = 0;
    double sum_ = 0;
};

// Values read at render time from their owners (the pool, the store).
struct MetricGauges {
    std::function<std::uint64_t()> searchesRunning;
    std::function<std::uint64_t()> searchesQueued;
    std::function<std::uint64_t()> games;
    std::function<std::uint64_t()> storeWorkPending;
    std::function<std::uint64_t()> searchOverruns;
    std::function<std::uint64_t()> searchersStuck;
    // Redis with Sentinel (docs/deployment.md): primary changes followed, game writes answered
    // 503 for want of replica acks, game writes acknowledged with fewer replicas than asked.
    std::function<std::uint64_t()> redisPrimaryChanges;
    std::function<std::uint64_t()> redisReplicaAckFailures;
    std::function<std::uint64_t()> redisUnreplicatedWrites;
    std::function<std::uint64_t()> redisWriteGuardRefusals;
};

class Metrics {
  public:
    // `method` is mapped to a fixed set (GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, other).
    void observeRequest(const std::string& route, const std::string& method, int status,
                        double seconds);
    void observeQueueWait(double seconds);
    void observeSearch(double seconds, std::uint64_t nodes, bool stopped);
    void searchRejected(const std::string& reason);
    void webSocketOpened() { webSockets_.fetch_add(1, std::memory_order_relaxed); }
    void webSocketClosed() { webSockets_.fetch_sub(1, std::memory_order_relaxed); }
    std::int64_t webSockets() const { return webSockets_.load(std::memory_order_relaxed); }
    void slowClientDropped() { slowClients_.fetch_add(1, std::memory_order_relaxed); }
    // An exception caught at a boundary (where: http, websocket, io, pool); the server goes on.
    void internalError(const std::string& where);
    std::uint64_t internalErrors(const std::string& where) const;
    // accept() failed (EMFILE and the like); the listener waits a moment and tries again.
    void acceptFailed() { acceptErrors_.fetch_add(1, std::memory_order_relaxed); }
    std::uint64_t acceptErrors() const { return acceptErrors_.load(std::memory_order_relaxed); }
    // A per-address quota refused something (quota: games, streams, websockets, ...).
    void quotaRefused(const std::string& quota);
    // GET /api/v1/analysis found the position in the analysis cache, or did not.
    void analysisCacheHit() { analysisCacheHits_.fetch_add(1, std::memory_order_relaxed); }
    void analysisCacheMiss() { analysisCacheMisses_.fetch_add(1, std::memory_order_relaxed); }

    std::string render(const MetricGauges& gauges) const;

  private:
    struct RequestSeries {
        std::uint64_t count = 0;
        Histogram latency;
    };
    mutable std::mutex mutex_;
    // (route, method, status) -> series
    std::map<std::tuple<std::string, std::string, int>, RequestSeries> requests_;
    Histogram queueWait_;
    Histogram searchTime_;
    std::uint64_t searches_ = 0;
    std::uint64_t searchesStopped_ = 0;
    std::uint64_t nodes_ = 0;
    std::map<std::string, std::uint64_t> rejected_;
    std::atomic<std::int64_t> webSockets_{0};
    std::atomic<std::uint64_t> slowClients_{0};
    std::map<std::string, std::uint64_t> internalErrors_;
    std::map<std::string, std::uint64_t> quotaRefusals_;
    std::atomic<std::uint64_t> acceptErrors_{0};
    std::atomic<std::uint64_t> analysisCacheHits_{0};
    std::atomic<std::uint64_t> analysisCacheMisses_{0};
};

}  // namespace outpost::server
