#include "games/chat.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "errors/error_codes.h"
#include "games/game_clock.h"
#include "games/game_service.h"
#include "ops/tokens.h"

namespace outpost::server {

namespace {

ApiError badText(const std::string& why) {
    return unprocessable(errors::invalid_value, "'text' " + why);
}

// One code point of `text` (valid UTF-8: the JSON parser checked it) at `at`, and its length.
std::pair<char32_t, std::size_t> codePointAt(const std::string& text, std::size_t at) {
    const auto c = static_cast<unsigned char>(text[at]);
    const std::size_t length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t point = length == 1 ? c : c & (0x7F >> length);
    for (std::size_t i = 1; i < length && at + i < text.size(); ++i)
        point = (point << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
    return {point, std::min(length, text.size() - at)};
}

// What trimming takes off both ends: Unicode's white space and the byte-order mark, the set
// JavaScript's String.prototype.trim takes (the board page trims so before sending), so a line of
// no-break or ideographic spaces is as empty as a line of spaces.
bool isTrimmed(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

// Refused within a line: the C0 and C1 control characters (U+0085, a line break; U+009B, a
// terminal's escape) and the line and paragraph separators (U+2028, U+2029: line breaks too).
bool isControl(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029;
}

// The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they
// reorder how the rest of a line, and the page around it, is shown (a line that reads as
// something it is not). The marks U+200E/U+200F that right-to-left text needs stay allowed.
bool isBidiControl(char32_t c) {
    return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
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
    struct Point {
        char32_t value;
        std::size_t at;
        std::size_t length;
    };
    std::vector<Point> points;
    for (std::size_t i = 0; i < raw.size();) {
        const auto [value, length] = codePointAt(raw, i);
        points.push_back({value, i, length});
        i += length;
    }
    std::size_t first = 0;
    std::size_t end = points.size();
    while (first < end && isTrimmed(points[first].value)) ++first;
    while (end > first && isTrimmed(points[end - 1].value)) --end;
    for (std::size_t i = first; i < end; ++i) {
        if (isControl(points[i].value)) return badText("must not hold control characters");
        if (isBidiControl(points[i].value))
            return badText("must not hold bidirectional overrides or isolates");
    }
    const std::size_t chars = end - first;
    if (chars == 0) return badText("is empty once trimmed");
    if (chars > kChatMaxChars)
        return badText("is longer than " + std::to_string(kChatMaxChars) + " characters");
    const std::size_t from = points[first].at;
    return raw.substr(from, points[end - 1].at + points[end - 1].length - from);
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
    const std::int64_t now = context_.clock.nowMs();
    const nlohmann::json line = {{"type", "chatLine"},
                                 {"gameId", gameId},
                                 {"side", side},
                                 {"text", std::get<std::string>(text)},
                                 {"at", now}};
    const std::string payload = line.dump();
    // The store counts the side's lines in the window and appends in one step, so posts racing
    // on several replicas never pass the burst.
    const StoreStatus appended = context_.store->appendChat(
        gameId, payload, kChatKeptLines, ChatQuota{side, kChatBurstLines, now - kChatWindowMs});
    if (appended == StoreStatus::LimitReached) {
        // When the window frees a place, read from the kept lines (1 s if they moved meanwhile).
        const ChatReadResult kept = context_.store->chatLines(gameId);
        const auto retry = kept.status == StoreStatus::Ok ? chatRetryAfter(kept.lines, side, now)
                                                          : std::optional<int>{};
        return ApiError{ErrorStatus::too_many_requests, errors::rate_limited,
                        "at most " + std::to_string(kChatBurstLines) + " chat lines per " +
                            std::to_string(kChatWindowMs / 1000) + " s per side",
                        retry.value_or(1)};
    }
    if (appended != StoreStatus::Ok) return storeFailed();
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
