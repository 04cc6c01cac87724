#include "games/game_feed.h"

#include <nlohmann/json.hpp>

namespace outpost::server {

void GameFeed::onEvent(const GameEvent& event) {
    std::lock_guard lock(mutex_);
    if (!started_) {
        early_.push_back(event);
        return;
    }
    forward(event);
}

void GameFeed::start(std::string snapshot, std::uint64_t version, bool finished) {
    std::lock_guard lock(mutex_);
    if (started_) return;
    started_ = true;
    sentVersion_ = version;
    send_(std::move(snapshot), kNoCoalescing);
    if (finished && end_) {
        early_.clear();
        return finish();
    }
    for (const GameEvent& event : early_) {
        forward(event);
        if (ended_) break;
    }
    early_.clear();
}

void GameFeed::forward(const GameEvent& event) {
    if (ended_) return;
    if (event.kind == GameEvent::Kind::Presence) {
        // Who is connected changed, the game did not: no version to order it by.
        send_(event.payload, kNoCoalescing);
        return;
    }
    if (event.kind == GameEvent::Kind::EngineInfo) {
        // Progress of a search on a position the subscriber has already seen change is stale.
        // Each game (one connection may follow several) keeps its latest report.
        if (event.version >= sentVersion_)
            send_(event.payload, progressKey("game " + event.gameId, 0));
        return;
    }
    if (event.version <= sentVersion_) return;  // sent already (in the snapshot or before)
    sentVersion_ = event.version;
    send_(event.payload, kNoCoalescing);
    if (!changed_ && !end_) return;
    // Read once, for both: what the follower wants of the change, and whether it ends the game.
    const nlohmann::json state = nlohmann::json::parse(event.payload, nullptr, false);
    if (changed_) changed_(event, state);
    if (end_ && stateEndsGame(state)) finish();
}

void GameFeed::finish() {
    if (!end_ || ended_) return;
    ended_ = true;
    end_();
}

bool stateEndsGame(const nlohmann::json& state) {
    if (!state.is_object() || !state.contains("status") || !state.at("status").is_string()) {
        return false;
    }
    return state.at("status").get<std::string>() != "ongoing";
}

FeedSubscription subscribeFeed(GameEventBus& bus, const std::string& gameId, GameFeed::Send send,
                               GameFeed::End end, GameFeed::Changed changed) {
    auto feed = std::make_shared<GameFeed>(std::move(send), std::move(end), std::move(changed));
    const auto id = bus.subscribe(gameId, [feed](const GameEvent& event) { feed->onEvent(event); });
    return {feed, id};
}

}  // namespace outpost::server
