// A move request as a client sends it, over REST (POST /games/{id}/moves) or WebSocket ("move"):
// one parser for both, so both accept and refuse the same things with the same errors.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "errors/api_error.h"

namespace outpost::server {

struct MoveRequest {
    std::string move;                      // UCI or SAN
    std::optional<std::uint64_t> version;  // the version the client saw, when it sends one
    bool wait = false;                     // answer after the engine's reply
};

// {"move", "version"?, "wait"?} plus the fields its carrier adds (`carrierFields`: none over
// REST; type, id, gameId and token over WebSocket): 400 bad_request for a missing or mistyped
// field and for any other field.
std::variant<MoveRequest, ApiError> parseMoveRequest(
    const nlohmann::json& body, std::initializer_list<std::string_view> carrierFields);

}  // namespace outpost::server
