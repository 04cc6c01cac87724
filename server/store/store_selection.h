// Picks the game store and event bus a server process runs with:
//   --store sqlite (the default)  -> SQLite file --sqlite-path + in-process bus (one server)
//   --store redis, --redis-url    -> Redis store + Redis pub/sub bus (several replicas)
//     + --redis-sentinels         -> the same, on the primary the sentinels name, followed
//                                    through failovers (store/sentinel.h)
//   --store memory                -> in memory (nothing survives a restart; tests, demos)
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "store/analysis_cache_store.h"
#include "store/game_store.h"
#include "store/sentinel.h"

namespace outpost::server {

// What selectGameStores() needs: redisUrl set picks Redis; otherwise dbPath names the SQLite
// file, and an empty dbPath or ":memory:" keeps games in memory.
struct StoreSettings {
    std::string redisUrl;
    std::string dbPath;
    std::chrono::seconds finishedRetention = kKeepFinishedForever;
    // Unfinished games untouched this long are removed (SQLite, Redis); zero keeps them.
    std::chrono::seconds unfinishedRetention = kKeepForever;
    // Positions the analysis cache keeps (--analysis-cache-entries).
    std::size_t analysisCacheEntries = kDefaultAnalysisCacheEntries;
    // Sentinel (with redisUrl): host:port of each sentinel, and the primary's name there.
    std::vector<std::string> redisSentinels{};
    std::string redisMasterName = "outpost";
    // Replica acks a game write waits for (WAIT; 0: none) and for how long.
    int redisMinReplicaAcks = 0;
    std::chrono::milliseconds redisReplicaAckTimeout{500};
    // The sentinels' own password (their requirepass); empty: none.
    std::string redisSentinelPassword{};
    // A replica is in sync when it acknowledged within this (the write guard, /readyz).
    int redisReplicaMaxLagSeconds = 10;
    // The unreplicated mode (ReplicationPolicy::capToOnline); also what allows
    // redisMinReplicaAcks 0 with sentinels.
    bool redisAllowUnreplicatedWrites = false;
};

struct StoreSelection {
    std::shared_ptr<GameStore> store;
    std::shared_ptr<GameEventBus> bus;
    // The analysis cache beside the games: in Redis with the Redis store (shared by the
    // replicas), in the SQLite file with the SQLite store, else in memory.
    std::shared_ptr<AnalysisCacheStore> analysisCache;
    std::string description;  // for the start-up log line, e.g. "sqlite:/var/lib/outpost/games.db"
    // Redis with Sentinel: where the primary is, shared by the store, bus and cache; null else.
    std::shared_ptr<RedisPrimary> primary{};
};

// The settings of a server's configuration (--store, --sqlite-path, --redis-url,
// --retention-days).
StoreSettings storeSettingsFor(const ServerConfig& config);

// Throws std::runtime_error / std::invalid_argument when the chosen backend cannot be set up
// (an SQLite file that cannot be created, opened or written; a malformed REDIS_URL; sentinels
// with no replica acks asked outside the unreplicated mode), with a message that says which file,
// URL or flag and what to change.
StoreSelection selectGameStores(const StoreSettings& settings);

}  // namespace outpost::server
