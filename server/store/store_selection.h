// Picks the game store and event bus a server process runs with:
//   --store sqlite (the default)  -> SQLite file --sqlite-path + in-process bus (one server)
//   --store redis, --redis-url    -> Redis store + Redis pub/sub bus (several replicas)
//   --store memory                -> in memory (nothing survives a restart; tests, demos)
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "config.h"
#include "store/game_store.h"

namespace outpost::server {

// What selectGameStores() needs: redisUrl set picks Redis; otherwise dbPath names the SQLite
// file, and an empty dbPath or ":memory:" keeps games in memory.
struct StoreSettings {
    std::string redisUrl;
    std::string dbPath;
    std::chrono::seconds finishedRetention = kKeepFinishedForever;
    // Unfinished games untouched this long are removed (SQLite, Redis); zero keeps them.
    std::chrono::seconds unfinishedRetention = kKeepForever;
};

struct StoreSelection {
    std::shared_ptr<GameStore> store;
    std::shared_ptr<GameEventBus> bus;
    std::string description;  // for the start-up log line, e.g. "sqlite:/var/lib/outpost/games.db"
};

// The settings of a server's configuration (--store, --sqlite-path, --redis-url,
// --retention-days).
StoreSettings storeSettingsFor(const ServerConfig& config);

// Throws std::runtime_error / std::invalid_argument when the chosen backend cannot be set up
// (an SQLite file that cannot be created, opened or written; a malformed REDIS_URL), with a
// message that says which file or URL and what to change.
StoreSelection selectGameStores(const StoreSettings& settings);

}  // namespace outpost::server
