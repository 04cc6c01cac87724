#include "handlers/game_list_handler.h"

#include <exception>
#include <optional>
#include <unordered_set>

#include "errors/error_codes.h"
#include "games/game_view.h"
#include "http/api_error_response.h"
#include "http/json_response.h"
#include "http/query_string.h"

namespace outpost::server {

namespace {

constexpr std::string_view kIdsParameter = "ids";
// Game ids are URL-safe base64 (ops/tokens.h).
bool isGameId(std::string_view id) {
    if (id.empty() || id.size() > kMaxGameIdLength) return false;
    for (char c : id) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) return false;
    }
    return true;
}

// Splits on `separator`, keeping empty pieces.
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> pieces;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = text.find(separator, start);
        pieces.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) return pieces;
        start = end + 1;
    }
}

}  // namespace

std::variant<std::vector<std::string>, ApiError> parseListedIds(std::string_view target) {
    const std::optional<QueryParameters> parameters = queryParameters(target);
    if (!parameters) return badRequest("malformed percent-encoding in the query");

    bool present = false;
    std::vector<std::string> ids;
    std::unordered_set<std::string> seen;
    for (const auto& [name, value] : *parameters) {
        if (isCacheBuster(name)) continue;
        if (name != kIdsParameter) {
            return badRequest("unknown query parameter " + quotedInput(name) +
                              "; this route takes ids=<id>,<id>,...");
        }
        present = true;
        for (std::string_view id : split(value, ',')) {
            if (id.empty()) continue;
            if (!isGameId(id)) {
                return badRequest("'" + std::string(id.substr(0, kMaxGameIdLength)) +
                                  "' is not a game id (URL-safe base64, at most " +
                                  std::to_string(kMaxGameIdLength) + " characters)");
            }
            if (!seen.insert(std::string(id)).second) continue;
            if (ids.size() == kMaxListedIds) {
                return badRequest("at most " + std::to_string(kMaxListedIds) + " ids per request");
            }
            ids.emplace_back(id);
        }
    }
    if (!present) return badRequest("'ids' is required: /api/v1/games?ids=<id>,<id>,...");
    return ids;
}

nlohmann::json gameSummaryJson(const GameRecord& game) {
    const ChessState state = replay(game);
    nlohmann::json engine = {{"side", game.engine.side}};
    if (game.engine.level) engine["level"] = *game.engine.level;
    nlohmann::json json = {
        {"id", game.id},
        {"status", game.status},
        {"result", game.result},
        {"turn", state.whiteToMove() ? "white" : "black"},
        {"fen", state.fen()},
        {"moveCount", game.moves.size()},
        {"engine", engine},
        {"version", game.version},
        {"createdAt", game.createdAtMs},
        {"updatedAt", game.updatedAtMs},
    };
    if (!game.reason.empty()) json["reason"] = game.reason;
    if (!game.winner.empty()) json["winner"] = game.winner;
    if (game.clock) {
        json["clock"] = {{"initial", game.clock->initialMs},
                         {"increment", game.clock->incrementMs}};
    }
    return json;
}

void handleListGames(ServerContext& context, const Request& request,
                     const std::shared_ptr<ResponseSink>& sink) {
    auto parsed =
        parseListedIds(std::string_view(request.target().data(), request.target().size()));
    if (auto* error = std::get_if<ApiError>(&parsed))
        return sink->respond(errorFor(request, *error));
    StoreManyResult found = context.store->getMany(std::get<std::vector<std::string>>(parsed));
    if (found.status != StoreStatus::Ok) {
        return sink->respond(errorFor(request, http::status::service_unavailable,
                                      errors::store_unavailable, "the game store is unavailable",
                                      kRetryAfterUnavailableSeconds));
    }
    nlohmann::json games = nlohmann::json::array();
    for (const GameRecord& game : found.games) {
        try {
            games.push_back(gameSummaryJson(game));
        } catch (const std::exception& error) {
            // A stored game that does not replay (written by an incompatible version): one bad
            // record must not fail the whole list, nor escape to the I/O thread.
            context.logger.log(
                {{"event", "game_unreadable"}, {"game", game.id}, {"error", error.what()}});
        }
    }
    sink->respond(jsonFor(request, http::status::ok, {{"games", games}}));
}

}  // namespace outpost::server
