// One subscriber's view of a game's events (a WebSocket subscription, an NDJSON game stream).
//
// A subscriber subscribes to the bus first and reads the game second, so that no change falls
// between the two. A change published in that window arrives twice, though: from the bus, and
// already in the game just read (the same version), possibly before it. The feed sends the game
// as read first (gameFull), then only what is newer: gameState events whose version is above the
// last sent, and engine progress for the current version. A feed with an `End` ends after the
// state that ends the game (a game stream); without one it goes on (a WebSocket subscription:
// a takeback may reopen the game).
//
// Thread-safety: onEvent() runs on the bus's threads, start() on the subscriber's; messages go
// to `send` (and `end`) under the feed's lock, so they leave in the order decided here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "net/coalesce.h"
#include "store/game_store.h"

namespace outpost::server {

class GameFeed {
  public:
    // Receives each message to forward (one with a key is engine progress: net/coalesce.h).
    using Send = std::function<void(std::string message, CoalesceKey coalesceKey)>;
    // Called once, after the message that ends the game.
    using End = std::function<void()>;
    // Called after each change of the game forwarded (a newer version), with its event and the
    // gameState it carries, parsed (a discarded value when it is not JSON).
    using Changed = std::function<void(const GameEvent&, const nlohmann::json& state)>;

    explicit GameFeed(Send send, End end = nullptr, Changed changed = nullptr)
        : send_(std::move(send)), end_(std::move(end)), changed_(std::move(changed)) {}

    // The bus handler: held back until start(), then forwarded unless stale.
    void onEvent(const GameEvent& event);
    // Sends `snapshot` (the game as read after subscribing, at `version`; `finished`: it is over),
    // then the events held back that are newer.
    void start(std::string snapshot, std::uint64_t version, bool finished);

  private:
    void forward(const GameEvent& event);  // under mutex_, after start
    void finish();                         // under mutex_

    std::mutex mutex_;
    const Send send_;
    const End end_;
    const Changed changed_;
    bool started_ = false;
    bool ended_ = false;
    std::uint64_t sentVersion_ = 0;
    std::vector<GameEvent> early_;
};

// Whether a gameState (as the bus carries it, parsed) is of a finished game.
bool stateEndsGame(const nlohmann::json& state);

struct FeedSubscription {
    std::shared_ptr<GameFeed> feed;
    GameEventBus::SubscriptionId id = 0;
};

// A new feed for `send` (and `end`, see GameFeed), subscribed to gameId's events. Subscribe
// first, read the game second (then feed->start() with it), and unsubscribe `id` when the
// subscriber goes. The bus holds only the feed: `send` and `end` should hold the subscriber
// weakly.
FeedSubscription subscribeFeed(GameEventBus& bus, const std::string& gameId, GameFeed::Send send,
                               GameFeed::End end = nullptr, GameFeed::Changed changed = nullptr);

}  // namespace outpost::server
