// Picks the game store and event bus a server process runs with:
//   REDIS_URL / --redis-url set  -> Redis store + Redis pub/sub bus (several replicas)
//   otherwise --db PATH          -> SQLite file + in-process bus (one server, the default)
//   --db :memory:                -> in memory (nothing survives a restart; tests, demos)
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "store/game_store.h"

namespace outpost::server {

struct StoreSettings {
    std::string redisUrl;
    std::string dbPath;
    std::chrono::seconds finishedRetention = kKeepFinishedForever;
};

struct StoreSelection {
    std::shared_ptr<GameStore> store;
    std::shared_ptr<GameEventBus> bus;
    std::string description;  // for the start-up log line, e.g. "sqlite:/var/lib/outpost/games.db"
};

// Throws std::runtime_error / std::invalid_argument when the chosen backend cannot be set up
// (unreadable SQLite file, malformed REDIS_URL).
StoreSelection selectGameStores(const StoreSettings& settings);

}  // namespace outpost::server
