#include "server_context.h"

#include <exception>
#include <vector>

#include "games/deadlines.h"
#include "games/game_service.h"

namespace outpost::server {

namespace {
// Stopped searches end within milliseconds; this bounds one that ignores stop.
constexpr auto kStopWaitOnDestruction = std::chrono::seconds(5);
}  // namespace

ServerContext::ServerContext(ServerConfig cfg, std::shared_ptr<GameStore> gameStore,
                             std::shared_ptr<GameEventBus> eventBus,
                             std::unique_ptr<SearchPool> searchPool, std::ostream* logStream,
                             WallClock wall)
    : config(std::move(cfg)),
      wallClock(std::move(wall)),
      store(std::move(gameStore)),
      bus(std::move(eventBus)),
      pool(std::move(searchPool)),
      logger(logStream),
      quotas(QuotaLimits{config.perClientConnections, config.perClientStreams,
                         config.perClientWebSockets, config.perClientSubscriptions,
                         config.perClientGamesPerMinute}),
      storeWork(
          config.storeThreads,
          [this](const std::string& what) {
              metrics.internalError("store_work");
              logger.log({{"event", "internal_error"}, {"where", "store_work"}, {"error", what}});
          }),
      activeGames(std::chrono::seconds(config.activeGameIdleSeconds)),
      presence(
          store, bus, logger, PresenceTiming{config.presenceHeartbeatMs, config.playerGoneGraceMs},
          [this](std::function<void()> task) { storeWork.post(std::move(task)); },
          [this] { return clock.nowMs(); }),
      flags(
          [this](const std::string& gameId, std::uint64_t version) {
              try {
                  GameDeadlines(*this).check(gameId, version);
              } catch (const std::exception& error) {
                  logger.log({{"event", "flag_error"}, {"game", gameId}, {"error", error.what()}});
              }
          },
          [this] { return clock.nowMs(); }),
      clockSweep(std::chrono::milliseconds(config.clockSweepMs), [this] {
          try {
              measureClock();
              GameDeadlines(*this).rearm();
          } catch (const std::exception& error) {
              logger.log({{"event", "clock_sweep_failed"}, {"error", error.what()}});
          }
      }) {
    if (bus) {
        // After an outage of the bus, its subscribers get the games as stored (the moves made
        // meanwhile on any replica), read on the store executor.
        bus->onResync([this](const std::string& gameId) {
            storeWork.post([this, gameId] { GameService(*this).resendGame(gameId); });
        });
    }
    if (pool) {
        pool->onCallbackError([this](const char* where, const std::string& what) {
            metrics.internalError(where);
            logger.log({{"event", "internal_error"}, {"where", where}, {"error", what}});
        });
    }
}

// Members are destroyed in reverse order of declaration, which would take the metrics, the logger
// and the store work away while searcher threads still call them. So, in order: no more flag
// falls; no new searches, the running ones stopped and waited for (their completions post store
// work); that store work done (a search it would start is refused: the pool drains); then the
// pool's threads joined. Only then do the members go.
void ServerContext::measureClock() {
    clock.measure([this] { return store->storeTimeMs(); });
}

ServerContext::~ServerContext() {
    quiesce();
    pool.reset();
}

void ServerContext::quiesce() {
    if (bus) bus->onResync({});  // the bus may outlive this context
    clockSweep.stop();
    seekKeeper.stop();
    presence.stop();
    flags.stop();
    if (pool) {
        pool->beginDrain();
        pool->stopAll();
        pool->waitIdle(kStopWaitOnDestruction);
    }
    storeWork.join();
}

std::uint64_t SessionRegistry::add(CloseFn close) {
    std::lock_guard lock(mutex_);
    const std::uint64_t id = nextId_++;
    sessions_.emplace(id, std::move(close));
    return id;
}

void SessionRegistry::remove(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    sessions_.erase(id);
}

void SessionRegistry::closeAll() {
    std::vector<CloseFn> closers;
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, close] : sessions_) closers.push_back(close);
    }
    for (auto& close : closers) close();
}

std::size_t SessionRegistry::size() const {
    std::lock_guard lock(mutex_);
    return sessions_.size();
}

MetricGauges ServerContext::gauges() {
    MetricGauges result;
    result.searchesRunning = [this] { return pool ? pool->running() : 0; };
    result.searchesQueued = [this] { return pool ? pool->queued() : 0; };
    result.games = [this] { return store ? store->count() : 0; };
    result.storeWorkPending = [this] { return storeWork.pending(); };
    result.searchOverruns = [this] { return pool ? pool->overruns() : 0; };
    result.searchersStuck = [this] { return pool ? pool->stuck() : 0; };
    result.redisPrimaryChanges = [this] {
        return store ? store->failoverCounters().primaryChanges : 0;
    };
    result.redisReplicaAckFailures = [this] {
        return store ? store->failoverCounters().replicaAckFailures : 0;
    };
    result.redisUnreplicatedWrites = [this] {
        return store ? store->failoverCounters().unreplicatedWrites : 0;
    };
    result.redisWriteGuardRefusals = [this] {
        return store ? store->failoverCounters().guardRefusals : 0;
    };
    return result;
}

}  // namespace outpost::server
