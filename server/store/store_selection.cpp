#include "store/store_selection.h"

#include <stdexcept>

#include "store/memory_game_store.h"
#include "store/redis_event_bus.h"
#include "store/redis_game_store.h"
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
    if (config.store == "redis") settings.redisUrl = config.redisUrl;
    settings.dbPath = config.store == "sqlite" ? config.sqlitePath : kInMemoryPath;
    return settings;
}

StoreSelection selectGameStores(const StoreSettings& settings) {
    StoreSelection selection;
    if (!settings.redisUrl.empty()) {
        RedisStoreOptions storeOptions;
        storeOptions.url = settings.redisUrl;
        storeOptions.finishedRetention = settings.finishedRetention;
        storeOptions.unfinishedRetention = settings.unfinishedRetention;
        RedisBusOptions busOptions;
        busOptions.url = settings.redisUrl;
        selection.store = std::make_shared<RedisGameStore>(storeOptions);
        selection.bus = std::make_shared<RedisEventBus>(busOptions);
        // The URL may carry a password: log only where it points.
        RedisEndpoint endpoint = *parseRedisUrl(settings.redisUrl, nullptr);
        selection.description = endpoint.unixSocket.empty()
                                    ? "redis:" + endpoint.host + ":" + std::to_string(endpoint.port)
                                    : "redis:" + endpoint.unixSocket;
        return selection;
    }
    selection.bus = std::make_shared<MemoryEventBus>();
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
    selection.description = "sqlite:" + settings.dbPath;
    return selection;
}

}  // namespace outpost::server
