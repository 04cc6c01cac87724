// A game creation a client can retry: POST /api/v1/games with an `Idempotency-Key` header
// (docs/events.md, "Creating a game once"). The first request with a key claims it in the
// store (GameStore::claimKey, kept kIdempotencyKeep) with the body's fingerprint and the game's
// id and tokens, chosen before the game is stored; the game is then stored under that id. A retry
// with the key and the same body, on any replica, reads the claim: when the game is stored it gets
// it back (201, `Idempotent-Replayed: true`) with the same tokens, and when it is not (the first
// attempt failed, was refused, or is still under way) it stores the game under the claimed id
// itself; of two such writes the store keeps one (the other is AlreadyExists), so a key never
// makes two games. The same key with another body is refused (422 idempotency_key_reused).
//
// A key is scoped to the client's address (ClientInfo): another client sending the same key makes
// its own game and never reads this one's tokens. The store keeps the key only as a SHA-256 of
// address and key, and the tokens sealed with a key stream derived from them (SHA-256 in counter
// mode), so a copy of the store does not let anyone move (docs/security.md) unless the key can
// be guessed: keys must be random (a UUID).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "errors/api_error.h"
#include "errors/client_info.h"
#include "games/game_service.h"
#include "server_context.h"

namespace outpost::server {

inline constexpr std::size_t kMaxIdempotencyKey = 255;

// Refuses a malformed key (400 bad_request): empty, longer than kMaxIdempotencyKey, or with a
// character outside visible ASCII (0x21-0x7e; no space).
std::optional<ApiError> checkIdempotencyKey(std::string_view key);

// Stores a prepared game under an identity: the caller's gate (its quota), then
// GameService::storeNew, passing `stored` on.
using StoreNewGame = std::function<std::variant<CreatedGame, ApiError>(
    NewGame game, const GameIdentity& identity, StoreStatus* stored)>;

struct IdempotentCreated {
    CreatedGame created;
    bool replayed = false;  // an earlier request with the key made the game
};

// Creates the game `body` asks for once per (client, key): see above. `key` was checked.
std::variant<IdempotentCreated, ApiError> createOnce(ServerContext& context,
                                                     const nlohmann::json& body,
                                                     std::string_view key, const ClientInfo& client,
                                                     const StoreNewGame& storeNew);

}  // namespace outpost::server
