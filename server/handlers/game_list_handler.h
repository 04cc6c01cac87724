// GET /api/v1/games?ids=a,b,c: compact summaries of the games a client remembers.
//
// Identity: a game is found by its id, and by nothing else. There are no accounts, and every game
// has a player token of its own, so "my recent games" is the list of ids the client kept (the
// board page keeps them in localStorage). Reading a game is open to anyone who has its id, so
// listing by ids shows nothing a GET of each id would not; tokens are neither needed nor shown.
//
// Cost: at most kMaxListedIds ids, fetched with one GameStore::getMany (one keyed lookup per id,
// one round trip on Redis), so the route costs the same whatever the number of stored games.
// Unknown ids, and finished games removed by the retention, are simply absent from the answer.
#pragma once

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "errors/api_error.h"
#include "http/http_types.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

// Most ids one request may ask for (more: 400 bad_request).
inline constexpr std::size_t kMaxListedIds = 50;
// Longest string accepted as a game id (ours are 22 characters).
inline constexpr std::size_t kMaxGameIdLength = 64;

// The ids of the request target's query: `ids` holds comma-separated ids (percent-encoded or
// not; the parameter may repeat). Duplicates are dropped, the first one's place is kept.
// 400 bad_request when `ids` is missing, an id is not URL-safe base64, there are too many, or
// the query has another parameter.
std::variant<std::vector<std::string>, ApiError> parseListedIds(std::string_view target);

// {id, status, result, reason?, winner?, turn, fen, moveCount, engine: {side, level?}, clock?,
//  version, createdAt, updatedAt}: the times in epoch milliseconds.
nlohmann::json gameSummaryJson(const GameRecord& game);

// Answers 200 {"games": [summary, ...]} in the order of the ids asked.
void handleListGames(ServerContext& context, const Request& request,
                     const std::shared_ptr<ResponseSink>& sink);

}  // namespace outpost::server
