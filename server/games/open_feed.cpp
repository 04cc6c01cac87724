#include "games/open_feed.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "games/deadlines.h"
#include "games/game_service.h"

namespace outpost::server {

std::variant<OpenedFeed, ApiError> openGameFeed(ServerContext& context, const std::string& gameId,
                                                const std::optional<std::string>& token,
                                                GameFeed::Send send, GameFeed::End end) {
    // A change that leaves the engine to move, stored by any replica, is followed here too: its
    // reply is taken up if the replica that owes it never delivers (GameDeadlines).
    auto changed = [&context](const GameEvent& event, const nlohmann::json& state) {
        if (state.is_object() && state.value("engineThinking", false))
            GameDeadlines(context).followOwedReply(event.gameId, event.version);
    };
    const auto [feed, subscription] =
        subscribeFeed(*context.bus, gameId, std::move(send), std::move(end), std::move(changed));
    std::variant<GameRecord, ApiError> loaded;
    try {
        loaded = GameService(context).load(gameId);
    } catch (...) {
        context.bus->unsubscribe(subscription);  // then the caller's boundary answers
        throw;
    }
    if (auto* error = std::get_if<ApiError>(&loaded)) {
        context.bus->unsubscribe(subscription);
        return *error;
    }
    OpenedFeed opened{feed, subscription, std::move(std::get<GameRecord>(loaded)), nullptr};
    opened.presence = context.presence.join(opened.game, token);
    if (!opened.presence) opened.presence = context.spectators.join(gameId);
    return opened;
}

}  // namespace outpost::server
