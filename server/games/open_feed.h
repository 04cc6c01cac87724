// Opening a game's feed, for the NDJSON game stream and the WebSocket subscription alike:
// subscribe to the game's events first, then load it (so no change in between is lost, the feed
// sends each version once: games/game_feed.h), then join it as the player whose token was given
// (its side is present: games/presence.h) or as a spectator (games/spectators.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "errors/api_error.h"
#include "games/game_feed.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

struct OpenedFeed {
    std::shared_ptr<GameFeed> feed;  // not started: the caller starts it when it can send
    GameEventBus::SubscriptionId subscription = 0;
    GameRecord game;  // as loaded after subscribing
    // Held while the feed is open: the player's side present, or one more spectator.
    std::shared_ptr<void> presence;
};

// On an error (or an exception, rethrown) nothing is left subscribed. `token`: a player token of
// the game makes its side present; none, or another, watches.
std::variant<OpenedFeed, ApiError> openGameFeed(ServerContext& context, const std::string& gameId,
                                                const std::optional<std::string>& token,
                                                GameFeed::Send send, GameFeed::End end = nullptr);

}  // namespace outpost::server
