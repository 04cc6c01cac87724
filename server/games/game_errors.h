// The errors of a game read or written in the store, as the API answers them.
#pragma once

#include <string>

#include "errors/api_error.h"
#include "store/game_store.h"

namespace outpost::server {

// A stored game this server cannot read or replay (written by something else, or damaged): a
// clear error for that game, never an exception that takes the request (or more) down.
ApiError corruptGame(const std::string& id, const std::string& why);
// What a store status other than Ok answers for game `id` (404, 409 version_conflict, 503...).
ApiError storeError(StoreStatus status, const std::string& id);

}  // namespace outpost::server
