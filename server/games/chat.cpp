#include "games/chat.h"

#include "errors/error_codes.h"
#include "games/game_clock.h"
#include "games/game_service.h"
#include "ops/tokens.h"

namespace outpost::server {

namespace {

ApiError badText(const std::string& why) {
    return unprocessable(errors::invalid_value, "'text' " + why);
}

bool isSpace(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

ApiError storeFailed() {
    return {ErrorStatus::service_unavailable, errors::store_unavailable,
            "the game store is unavailable", 1};
}

}  // namespace

std::variant<std::string, ApiError> chatText(const nlohmann::json& body) {
    if (auto error = rejectUnknownFields(body, {"text"}, "the chat line")) return *error;
    if (!body.contains("text") || !body.at("text").is_string())
        return badRequest("'text' (a string) is required");
    const std::string& raw = body.at("text").get_ref<const std::string&>();
    std::size_t first = 0;
    std::size_t last = raw.size();
    while (first < last && isSpace(static_cast<unsigned char>(raw[first]))) ++first;
    while (last > first && isSpace(static_cast<unsigned char>(raw[last - 1]))) --last;
    std::string text = raw.substr(first, last - first);
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return badText("must not hold control characters");
        if ((c & 0xC0) != 0x80) ++chars;  // UTF-8: count the first byte of each character
        // The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069):
        // they reorder how the rest of a line, and the page around it, is shown (a line that
        // reads as something it is not). The marks U+200E/U+200F that right-to-left text needs
        // stay allowed.
        if (c == 0xE2 && i + 2 < text.size()) {
            const auto b1 = static_cast<unsigned char>(text[i + 1]);
            const auto b2 = static_cast<unsigned char>(text[i + 2]);
            if ((b1 == 0x80 && b2 >= 0xAA && b2 <= 0xAE) ||
                (b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9))
                return badText("must not hold bidirectional overrides or isolates");
        }
    }
    if (chars == 0) return badText("is empty once trimmed");
    if (chars > kChatMaxChars)
        return badText("is longer than " + std::to_string(kChatMaxChars) + " characters");
    return text;
}

std::optional<int> chatRetryAfter(const std::vector<std::string>& lines, const std::string& side,
                                  std::int64_t nowMs) {
    std::vector<std::int64_t> recent;
    for (const std::string& text : lines) {
        const nlohmann::json line = nlohmann::json::parse(text, nullptr, false);
        if (!line.is_object() || line.value("side", "") != side) continue;
        const std::int64_t at = line.value("at", std::int64_t{0});
        if (at > nowMs - kChatWindowMs) recent.push_back(at);
    }
    if (recent.size() < kChatBurstLines) return std::nullopt;
    // The oldest of the burst leaves the window first.
    const std::int64_t oldest = recent[recent.size() - kChatBurstLines];
    const std::int64_t waitMs = oldest + kChatWindowMs - nowMs;
    return static_cast<int>(std::max<std::int64_t>(1, (waitMs + 999) / 1000));
}

std::variant<nlohmann::json, ApiError> ChatService::post(const std::string& gameId,
                                                         const std::optional<std::string>& token,
                                                         const nlohmann::json& body) {
    auto text = chatText(body);
    if (auto* error = std::get_if<ApiError>(&text)) return *error;
    GameService games(context_);
    auto loaded = games.loadForPlayer(gameId, token);
    if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
    const GameRecord& game = std::get<GameRecord>(loaded);
    const std::string side = tokenMatches(*token, game.whiteTokenHash) ? "white" : "black";
    const ChatReadResult kept = context_.store->chatLines(gameId);
    if (kept.status != StoreStatus::Ok) return storeFailed();
    const std::int64_t now = context_.clock.nowMs();
    if (auto retry = chatRetryAfter(kept.lines, side, now)) {
        return ApiError{ErrorStatus::too_many_requests, errors::rate_limited,
                        "at most " + std::to_string(kChatBurstLines) + " chat lines per " +
                            std::to_string(kChatWindowMs / 1000) + " s per side",
                        *retry};
    }
    const nlohmann::json line = {{"type", "chatLine"},
                                 {"gameId", gameId},
                                 {"side", side},
                                 {"text", std::get<std::string>(text)},
                                 {"at", now}};
    const std::string payload = line.dump();
    if (context_.store->appendChat(gameId, payload, kChatKeptLines) != StoreStatus::Ok)
        return storeFailed();
    // Out of band, like presence: every subscriber gets it whatever version it has seen.
    context_.bus->publish(GameEvent{GameEvent::Kind::Presence, gameId, game.version, payload});
    return line;
}

std::variant<nlohmann::json, ApiError> ChatService::lines(const std::string& gameId) {
    const StoreReadResult game = context_.store->get(gameId);
    if (game.status == StoreStatus::NotFound)
        return ApiError{ErrorStatus::not_found, errors::not_found,
                        "no game " + quotedInput(gameId)};
    if (game.status == StoreStatus::Unavailable) return storeFailed();
    const ChatReadResult kept = context_.store->chatLines(gameId);
    if (kept.status != StoreStatus::Ok) return storeFailed();
    nlohmann::json lines = nlohmann::json::array();
    for (const std::string& text : kept.lines) {
        nlohmann::json line = nlohmann::json::parse(text, nullptr, false);
        if (line.is_object()) lines.push_back(std::move(line));
    }
    return nlohmann::json{{"gameId", gameId}, {"lines", lines}};
}

}  // namespace outpost::server
