// GameRecord <-> JSON, for backends that store a game as one document (SQLite row, Redis value).
// The format is internal to the server (not the public Game of the API): it includes the token.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "store/game_record.h"

namespace outpost::server {

nlohmann::json toStoredJson(const GameRecord& game);
// Throws nlohmann::json::exception when the document is not a stored game.
GameRecord gameRecordFromStoredJson(const nlohmann::json& json);
// Parses a stored document; nullopt when it is not one this server can read (corrupted, or
// written by an incompatible version), which stores report as Unavailable.
std::optional<GameRecord> parseStoredGame(std::string_view doc);

}  // namespace outpost::server
