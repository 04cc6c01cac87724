#include "store/store_selection.h"

#include <iostream>
#include <stdexcept>

#include "ops/logger.h"
#include "store/memory_game_store.h"
#include "store/redis_analysis_cache.h"
#include "store/redis_event_bus.h"
#include "store/redis_game_store.h"
#include "store/sqlite_analysis_cache.h"
#include "store/sqlite_game_store.h"

namespace outpost::server {

namespace {
constexpr const char* kInMemoryPath = ":memory:";
constexpr std::chrono::hours kHoursPerDay{24};
}  // namespace

StoreSettings storeSettingsFor(const ServerConfig& config) {
    StoreSettings settings;
    settings.finishedRetention = kHoursPerDay * config.retentionDays;
    settings.unfinishedRetention = kHoursPerDay * config.unfinishedRetentionDays;
    settings.analysisCacheEntries = config.analysisCacheEntries;
    if (config.store == "redis") {
        settings.redisUrl = config.redisUrl;
        settings.redisSentinels = config.redisSentinels;
        settings.redisMasterName = config.redisMasterName;
        settings.redisMinReplicaAcks = config.redisMinReplicaAcks >= 0 ? config.redisMinReplicaAcks
                                       : config.redisSentinels.empty() ? 0
                                                                       : 1;
        settings.redisReplicaAckTimeout =
            std::chrono::milliseconds(config.redisReplicaAckTimeoutMs);
        settings.redisSentinelPassword = config.redisSentinelPassword;
        settings.redisReplicaMaxLagSeconds = config.redisReplicaMaxLagSeconds;
        settings.redisAllowUnreplicatedWrites = config.redisAllowUnreplicatedWrites;
    }
    settings.dbPath = config.store == "sqlite" ? config.sqlitePath : kInMemoryPath;
    return settings;
}

StoreSelection selectGameStores(const StoreSettings& settings) {
    StoreSelection selection;
    if (!settings.redisUrl.empty()) {
        RedisEndpoint base = parseRedisUrlOrThrow(settings.redisUrl);
        if (!settings.redisSentinels.empty() && settings.redisMinReplicaAcks <= 0 &&
            !settings.redisAllowUnreplicatedWrites) {
            throw std::invalid_argument(
                "--redis-min-replica-acks 0 with --redis-sentinels acknowledges writes a failover "
                "loses: ask for 1 or more, or say --redis-allow-unreplicated-writes true");
        }
        if (!settings.redisSentinels.empty()) {
            SentinelOptions sentinel;
            std::string list;
            for (const std::string& item : settings.redisSentinels) list += item + ",";
            sentinel.sentinels = parseSentinelList(list);
            sentinel.masterName = settings.redisMasterName;
            for (RedisEndpoint& endpoint : sentinel.sentinels)
                endpoint.password = settings.redisSentinelPassword;
            // Its own logger (the server's is made later): one JSON line per primary change.
            auto logger = std::make_shared<Logger>(&std::cout);
            selection.primary = std::make_shared<RedisPrimary>(
                base, sentinel, [logger](const std::string& event, const std::string& detail) {
                    logger->log({{"event", event}, {"detail", detail}});
                });
        } else {
            selection.primary = std::make_shared<RedisPrimary>(base);
        }
        RedisStoreOptions storeOptions;
        storeOptions.url = settings.redisUrl;
        storeOptions.primary = selection.primary;
        storeOptions.replication = {settings.redisMinReplicaAcks, settings.redisReplicaAckTimeout,
                                    settings.redisReplicaMaxLagSeconds,
                                    settings.redisAllowUnreplicatedWrites};
        storeOptions.finishedRetention = settings.finishedRetention;
        storeOptions.unfinishedRetention = settings.unfinishedRetention;
        RedisBusOptions busOptions;
        busOptions.url = settings.redisUrl;
        busOptions.primary = selection.primary;
        selection.store = std::make_shared<RedisGameStore>(storeOptions);
        selection.bus = std::make_shared<RedisEventBus>(busOptions);
        RedisAnalysisCacheOptions cacheOptions;
        cacheOptions.url = settings.redisUrl;
        cacheOptions.primary = selection.primary;
        cacheOptions.capacity = settings.analysisCacheEntries;
        selection.analysisCache = std::make_shared<RedisAnalysisCache>(cacheOptions);
        // The URL may carry a password: log only where it points.
        if (!settings.redisSentinels.empty()) {
            const RedisEndpoint primary = selection.primary->endpoint();
            selection.description = "redis-sentinel:" + settings.redisMasterName + "@" +
                                    primary.host + ":" + std::to_string(primary.port) +
                                    " (min replica acks " +
                                    std::to_string(settings.redisMinReplicaAcks) + ")";
        } else {
            selection.description = base.unixSocket.empty()
                                        ? "redis:" + base.host + ":" + std::to_string(base.port)
                                        : "redis:" + base.unixSocket;
        }
        return selection;
    }
    selection.bus = std::make_shared<MemoryEventBus>();
    selection.analysisCache = makeMemoryAnalysisCache(settings.analysisCacheEntries);
    if (settings.dbPath.empty() || settings.dbPath == kInMemoryPath) {
        selection.store = std::make_shared<MemoryGameStore>();
        selection.description = "memory";
        return selection;
    }
    SqliteStoreOptions options;
    options.path = settings.dbPath;
    options.finishedRetention = settings.finishedRetention;
    options.unfinishedRetention = settings.unfinishedRetention;
    try {
        selection.store = std::make_shared<SqliteGameStore>(options);
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(
            std::string(error.what()) +
            " (choose a writable file with --sqlite-path / OUTPOST_SQLITE_PATH,"
            " or another store with --store)");
    }
    SqliteAnalysisCacheOptions cacheOptions;
    cacheOptions.path = settings.dbPath;
    cacheOptions.capacity = settings.analysisCacheEntries;
    selection.analysisCache = std::make_shared<SqliteAnalysisCache>(cacheOptions);
    selection.description = "sqlite:" + settings.dbPath;
    return selection;
}

}  // namespace outpost::server
