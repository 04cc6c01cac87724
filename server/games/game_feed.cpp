#include "games/game_feed.h"

namespace outpost::server {

void GameFeed::onEvent(const GameEvent& event) {
    std::lock_guard lock(mutex_);
    if (!started_) {
        early_.push_back(event);
        return;
    }
    forward(event);
}

void GameFeed::start(std::string snapshot, std::uint64_t version) {
    std::lock_guard lock(mutex_);
    if (started_) return;
    started_ = true;
    sentVersion_ = version;
    send_(std::move(snapshot), false);
    for (const GameEvent& event : early_) forward(event);
    early_.clear();
}

void GameFeed::forward(const GameEvent& event) {
    if (event.kind == GameEvent::Kind::EngineInfo) {
        // Progress of a search on a position the subscriber has already seen change is stale.
        if (event.version >= sentVersion_) send_(event.payload, true);
        return;
    }
    if (event.version <= sentVersion_) return;  // sent already (in the snapshot or before)
    sentVersion_ = event.version;
    send_(event.payload, false);
}

FeedSubscription subscribeFeed(GameEventBus& bus, const std::string& gameId, GameFeed::Send send) {
    auto feed = std::make_shared<GameFeed>(std::move(send));
    const auto id = bus.subscribe(gameId, [feed](const GameEvent& event) { feed->onEvent(event); });
    return {feed, id};
}

}  // namespace outpost::server
