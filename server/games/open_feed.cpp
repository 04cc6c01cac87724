#include "games/open_feed.h"

#include <utility>

#include "games/game_service.h"

namespace outpost::server {

std::variant<OpenedFeed, ApiError> openGameFeed(ServerContext& context, const std::string& gameId,
                                                const std::optional<std::string>& token,
                                                GameFeed::Send send, GameFeed::End end) {
    const auto [feed, subscription] =
        subscribeFeed(*context.bus, gameId, std::move(send), std::move(end));
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
