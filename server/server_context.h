// What every session and handler shares (the Beast examples' "shared_state"): configuration,
// the game store and event bus, the search pool, metrics, the logger, and the drain flag.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "config.h"
#include "games/active_games.h"
#include "games/clock_sweep.h"
#include "games/flag_watch.h"
#include "games/game_clock.h"
#include "games/presence.h"
#include "games/replies_in_flight.h"
#include "games/spectators.h"
#include "games/unsettled_writes.h"
#include "lobby/seek_keeper.h"
#include "openings/openings.h"
#include "ops/client_quotas.h"
#include "ops/cluster_clock.h"
#include "ops/logger.h"
#include "ops/metrics.h"
#include "review/review_registry.h"
#include "search/fingerprint.h"
#include "search/search_pool.h"
#include "store/analysis_cache_store.h"
#include "store/game_store.h"
#include "store/store_executor.h"
#include "web/static_files.h"

namespace outpost::server {

// Live WebSocket sessions, so a graceful shutdown can close them with 1001.
class SessionRegistry {
  public:
    using CloseFn = std::function<void()>;
    std::uint64_t add(CloseFn close);
    void remove(std::uint64_t id);
    void closeAll();
    std::size_t size() const;

  private:
    mutable std::mutex mutex_;
    std::uint64_t nextId_ = 1;
    std::unordered_map<std::uint64_t, CloseFn> sessions_;
};

struct ServerContext {
    ServerContext(ServerConfig cfg, std::shared_ptr<GameStore> gameStore,
                  std::shared_ptr<GameEventBus> eventBus, std::unique_ptr<SearchPool> searchPool,
                  std::ostream* logStream, WallClock wall = nowEpochMs);
    // Stops what calls into the rest before the rest goes (see the .cpp): the flag watch, then
    // the searches, then the store work they hand on, and only then the members they use.
    ~ServerContext();
    // Ends the work that calls into sessions and into the members: the flag watch, the searches
    // (stopped, waited for), the store work they hand on. Nothing runs on the context's own
    // threads afterwards. Idempotent; the destructor calls it too.
    void quiesce();
    ServerContext(const ServerContext&) = delete;
    ServerContext& operator=(const ServerContext&) = delete;

    const ServerConfig config;
    // This replica's own wall clock (tests offset it to play a replica whose clock is off).
    const WallClock wallClock;
    // The cluster's time (ops/cluster_clock.h): the wall clock corrected by its offset from the
    // store's clock. Game clocks, deadlines, seeks and the times shown to clients count in it.
    ClusterClock clock{wallClock};
    // The opening names (openings/openings.h): built with the context, so no request pays for it.
    const OpeningTable& openings = standardOpenings();
    std::shared_ptr<GameStore> store;
    std::shared_ptr<GameEventBus> bus;
    std::unique_ptr<SearchPool> pool;
    // Finished analyses for GET /api/v1/analysis: in memory unless the server's store selection
    // gives the shared one (Server replaces it before it starts).
    std::shared_ptr<AnalysisCacheStore> analysisCache =
        makeMemoryAnalysisCache(config.analysisCacheEntries);
    // Which engine this replica's analyses come from (search/fingerprint.h), as GET
    // /api/v1/engine reports it: the analysis cache keys its slots by it, so replicas of another
    // engine or network, before or after an upgrade, neither answer with nor overwrite each
    // other's analyses. Tests set another.
    std::string fingerprint = engineFingerprint();
    // The board page's files, loaded and compressed off the I/O threads (web/static_files.h).
    StaticFiles staticFiles{config.webRoot};
    Metrics metrics;
    Logger logger;
    ClientQuotas quotas;
    SessionRegistry webSockets;
    SessionRegistry httpSessions;       // the callback ends the session once its answer is out
    std::atomic<bool> ready{false};     // /readyz: true once listening, false when draining
    std::atomic<bool> draining{false};  // SIGTERM received: no new searches
    // Store reads and writes of requests and of finished engine searches (off the I/O and
    // searcher threads).
    StoreExecutor storeWork;
    // Engine replies being searched on this replica (a deadline check skips those).
    RepliesInFlight replies;
    // Changes sent to the store whose answer never came: settled by the game's deadline check.
    UnsettledWrites unsettled;
    // Game reviews running on this replica (and the last ones it finished).
    ReviewRegistry reviews;
    // Games against the engine served lately: the admission of new games.
    ActiveGames activeGames;
    // Who is connected to which game, reported to the store for every replica (declared after
    // the store work its leases post to).
    PresenceTracker presence;
    // Ends games on time, and resumes engine replies nobody delivered, when nobody asks
    // (declared last: its thread uses everything above).
    FlagWatch flags;
    // Watches the running clocks the store lists, whichever replica armed them (started by
    // Server::start(); declared after the flag watch it feeds).
    ClockSweep clockSweep;
    // Spectators of each game served here (games/spectators.h).
    SpectatorCounter spectators;
    // Keeps alive the lobby seeks whose seeker's stream is open here (lobby/seek_keeper.h).
    SeekKeeper seekKeeper{store, config.presenceHeartbeatMs,
                          SeekTiming{config.playerGoneGraceMs, kSeekMaxAgeMs},
                          [this] { return clock.nowMs(); }};

    // One sample of the store's clock for `clock` (a blocking store read: never on I/O threads).
    void measureClock();

    MetricGauges gauges();
};

}  // namespace outpost::server
