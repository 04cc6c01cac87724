// Server configuration: defaults, then environment variables (OUTPOST_*), then command-line flags.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace outpost::server {

// Active games against the engine per searcher thread admitted by default: the knee measured
// with server/tools/capacity.sh (docs/performance.md, "Players per replica").
inline constexpr int kGamesPerSearcher = 3;

// Cached analyses (GET /api/v1/analysis, docs/performance.md): positions kept (LRU), and the
// depth a finished search must reach to be kept (a shallower one would answer worse than a new
// search of the default movetime).
inline constexpr std::size_t kDefaultAnalysisCacheEntries = 10000;
inline constexpr int kDefaultAnalysisCacheMinDepth = 12;

struct ServerConfig {
    std::string bind = "0.0.0.0";
    int port = 8080;  // 0 picks an ephemeral port (tests)
    int ioThreads = 2;
    // Threads for blocking store work (SQLite writes, Redis round trips), off the I/O threads.
    int storeThreads = 4;
    int searchThreads = 0;  // 0: the machine's cores
    std::size_t hashMb = 64;

    // Caps on per-request limits; requests asking for more are clamped (see limitsApplied).
    int maxDepth = 64;
    std::int64_t maxMovetimeMs = 60000;
    std::uint64_t maxNodes = 1'000'000'000;
    int maxMultiPv = 10;
    // Applied when a request gives no limits at all, so no search runs unbounded.
    std::int64_t defaultMovetimeMs = 1000;

    std::size_t queueSize = 64;  // searches waiting for a searcher; beyond: 503
    int perClientSearches = 4;   // running + queued per client; beyond: 429
    // Game reviews (docs/review.md) running at once: per client (beyond: 429) and in all
    // (beyond: 503). Their positions run at the lowest priority of the search pool.
    int perClientReviews = 1;
    int maxReviews = 4;
    // Nodes per position of a review that asks for no limits.
    std::uint64_t reviewNodes = 150'000;
    int retryAfterSeconds = 1;
    // Admission of new games against the engine (past the knee, docs/performance.md): refused
    // while the game replies' queue wait, smoothed or the oldest one's, is above this.
    std::int64_t admitGameWaitMs = 50;
    // ... and once this many games against the engine are active on the replica (0: the
    // searcher threads times kGamesPerSearcher). A game with no engine reply for
    // activeGameIdleSeconds is no longer counted.
    int maxEngineGames = 0;
    // ... of which one client's games count up to this many (its further games are admitted but
    // not counted, so one client cannot lock the others out; 0: half the limit, at least 1, at
    // most kGamesPerSearcher).
    int perClientEngineGames = 0;
    int activeGameIdleSeconds = 120;
    // Per-address quotas (docs/security.md); 0: no limit. Beyond one: 429 with Retry-After.
    int perClientConnections = 64;     // open connections per peer address (proxies excepted)
    int perClientStreams = 16;         // open NDJSON game streams
    int perClientWebSockets = 16;      // open WebSocket connections
    int perClientSubscriptions = 64;   // game subscriptions over all of an address's WebSockets
    int perClientGamesPerMinute = 30;  // game creations per minute

    std::size_t bodyLimitBytes = 64 * 1024;
    int idleTimeoutMs = 30000;             // HTTP keep-alive and request read timeout
    int writeTimeoutMs = 30000;            // a client that does not read for this long is dropped
    int wsIdleTimeoutMs = 60000;           // WebSocket: pinged at half, closed when silent
    int streamKeepAliveMs = 5000;          // empty NDJSON line on idle game streams
    std::size_t maxQueuedBytes = 1 << 20;  // per connection outgoing queue before it is dropped
    int drainGraceMs = 10000;              // SIGTERM: how long running searches may take
    // An engine reply not stored this long after the game's expected thinking time (its move
    // time, or the time cap) is taken up by any replica that watches the game: its owner died,
    // drained or could not queue it.
    std::int64_t engineReplyGraceMs = 3000;
    // How often every replica re-arms the running clocks found in the store (and once at start),
    // so a flag falls on time when the replica that watched it died.
    std::int64_t clockSweepMs = 5000;
    // Presence (docs/play.md): a side of a game between people without a live connection for
    // this long may be claimed against (claim-victory, claim-draw); each replica reports its
    // connections every presenceHeartbeatMs, and a report counts for three heartbeats (so the
    // players of a replica that died are gone after at most that long).
    std::int64_t playerGoneGraceMs = 60000;
    std::int64_t presenceHeartbeatMs = 10000;
    // Games between people with a clock (docs/play.md): the clocks start once both sides have
    // moved; until then each side has this long for its first move (White from the game's
    // creation, Black from White's first move), or the game is aborted (no result). 0: no
    // deadline.
    std::int64_t firstMoveDeadlineMs = 30000;
    // How far this replica's wall clock may be from the store's (Redis TIME) before /readyz
    // turns 503 clock_skew: game clocks are read off it (docs/deployment.md). 0 (the default):
    // not checked, since a store whose own clock is off would take out every replica, though
    // they agree with each other.
    std::int64_t maxClockSkewMs = 0;

    std::string webRoot = "web/dist";
    // --analysis-cache-entries (0: nothing is cached) and --analysis-cache-min-depth.
    std::size_t analysisCacheEntries = kDefaultAnalysisCacheEntries;
    int analysisCacheMinDepth = kDefaultAnalysisCacheMinDepth;
    std::vector<std::string> corsOrigins;     // "*" allows any origin
    std::vector<std::string> trustedProxies;  // peers whose X-Forwarded-For is believed
    bool logRequests = true;
    // Review positions run only in idle time (PoolOptions::reviewsYield).
    bool reviewsYield = true;

    // Where games live (docs/deployment.md): "sqlite" (the default: the file sqlitePath, which
    // survives restarts and kill -9), "redis" (replicas share games and events) or "memory"
    // (one process, nothing survives it; tests and demos ask for it by name).
    std::string store = "sqlite";
    // Relative paths are taken from the working directory; missing folders are created.
    std::string sqlitePath = "outpost-games.db";
    std::string redisUrl = "redis://127.0.0.1:6379";
    // Redis Sentinel (docs/deployment.md): when sentinels are given, they name the primary of
    // redisMasterName (the URL then gives only the password and database) and the server follows
    // it through failovers. A game write waits for redisMinReplicaAcks replicas (-1: 1 with
    // Sentinel, 0 without) for at most redisReplicaAckTimeoutMs, else it is answered 503.
    std::vector<std::string> redisSentinels;
    std::string redisMasterName = "outpost";
    int redisMinReplicaAcks = -1;
    std::int64_t redisReplicaAckTimeoutMs = 500;
    // The password the sentinels ask (their requirepass); empty: none.
    std::string redisSentinelPassword;
    // A replica counts as in sync (the primary's write guard, min-replicas-max-lag, and /readyz)
    // when it acknowledged within this many seconds.
    int redisReplicaMaxLagSeconds = 10;
    // The unreplicated mode: acknowledge writes with as many replicas as the primary has online
    // (none during a first sync or after a partition), and allow --redis-min-replica-acks 0 with
    // Sentinel. Off: acknowledged means replicated.
    bool redisAllowUnreplicatedWrites = false;
    int retentionDays = 0;  // finished games kept this long after their end; 0: forever
    // Unfinished games nobody changed for this long are removed (abandoned); 0: kept forever.
    // SQLite and Redis; the memory store keeps them until the process ends.
    int unfinishedRetentionDays = 30;

    int effectiveSearchThreads() const;
};

struct ConfigParseResult {
    std::optional<ServerConfig> config;  // empty when the program should exit
    std::string message;                 // help text or the error
    int exitCode = 0;
};

// `env` looks up an environment variable (injectable for tests).
ConfigParseResult parseConfig(int argc, const char* const* argv,
                              const std::function<const char*(const char*)>* env = nullptr);
std::string configHelp();

}  // namespace outpost::server
