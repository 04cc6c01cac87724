// Chat between the players of a game (docs/play.md, "Chat"). A player (its token) posts a line of
// 1..kChatMaxChars characters after trimming; each side may post kChatBurstLines lines per
// kChatWindowMs (counted from the kept lines, so on every replica alike). Lines are kept in the
// store apart from the game (a line never changes the game's version), the last kChatKeptLines of
// each game, and go out on the game's bus as {"type":"chatLine", gameId, side, text, at} to its
// streams and subscriptions (forwarded whatever the version, as presence is).
//
// The text is data: the server stores and sends it as given (trimmed); a client shows it as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "errors/api_error.h"
#include "server_context.h"

namespace outpost::server {

inline constexpr std::size_t kChatMaxChars = 140;
inline constexpr std::size_t kChatKeptLines = 100;
inline constexpr std::size_t kChatBurstLines = 5;
inline constexpr std::int64_t kChatWindowMs = 10000;

// The text of a line: trimmed of white space at both ends (Unicode's, as JavaScript's trim), then
// 1..kChatMaxChars characters (code points) without control characters (C0, C1, U+2028/U+2029)
// nor bidirectional overrides or isolates; 422 invalid_value otherwise.
std::variant<std::string, ApiError> chatText(const nlohmann::json& body);

// Whether `side` has posted kChatBurstLines lines in the kChatWindowMs before nowMs, among the
// kept `lines` (chatLine JSON texts): then the next waits (the seconds until it may, >= 1).
std::optional<int> chatRetryAfter(const std::vector<std::string>& lines, const std::string& side,
                                  std::int64_t nowMs);

class ChatService {
  public:
    explicit ChatService(ServerContext& context) : context_(context) {}

    // Posts a line: the chatLine sent, or an error (401 without a token, 403 with another game's,
    // 422 bad text, 429 too many lines).
    std::variant<nlohmann::json, ApiError> post(const std::string& gameId,
                                                const std::optional<std::string>& token,
                                                const nlohmann::json& body);
    // The kept lines, oldest first (any viewer; 404 for an unknown game).
    std::variant<nlohmann::json, ApiError> lines(const std::string& gameId);

  private:
    ServerContext& context_;
};

}  // namespace outpost::server
