// GameEventBus over Redis pub/sub: an event published on any replica reaches the subscribers on
// every replica (the way Lichess connects its servers through Redis).
//
// publish() queues the event and returns at once: a publisher thread of the bus's own sends
// PUBLISH <prefix>events:<gameId>, so neither a searcher thread (engine progress) nor a store
// thread waits for Redis. The queue is bounded; when it is full (Redis hangs), engine progress
// events are dropped first, game changes last (the game itself is in the store).
//
// Each bus keeps one subscriber connection on a thread of its own, subscribed (SUBSCRIBE, per
// game) to exactly the games that have local subscribers, so a replica receives the events of
// the games its clients follow and no others. subscribe() returns once Redis confirmed the
// game's channel (or after the timeout when Redis is down), so an event published after it
// returns reaches the handler; it delivers every event to the local handlers of its game (also
// the events this replica published itself, so there is one path for all). Handlers run on the
// subscriber thread and must not block.
//
// Pub/sub delivers at most once: events published while a replica's subscriber connection is
// down are not replayed to it. The bus reconnects with backoff, subscribes again to every game
// that still has subscribers, and once Redis confirms each, calls the resync handler with it
// (GameEventBus::onResync): the server reads the game from the store and sends it, so the
// subscribers catch up with the moves made meanwhile on any replica.
//
// Both connections go where the RedisPrimary says the primary is (store/sentinel.h). When it
// changes (a failover), the subscriber connection is dropped at once and made again to the new
// primary, with the same resync: that is how the events published meanwhile are made up for.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "store/game_store.h"
#include "store/redis_connection.h"
#include "store/sentinel.h"
#include "store/subscriber_registry.h"

namespace outpost::server {

struct RedisBusOptions {
    std::string url = "redis://127.0.0.1:6379";
    std::string keyPrefix = "outpost:";
    std::chrono::milliseconds timeout{2000};
    std::chrono::milliseconds maxReconnectDelay{2000};
    // Events waiting for the publisher thread; beyond this, events are dropped (progress first).
    std::size_t maxQueuedEvents = 10000;
    // Where the primary is (Sentinel); null: the URL's Redis.
    std::shared_ptr<RedisPrimary> primary{};
};

class RedisEventBus final : public GameEventBus {
  public:
    // Starts the subscriber thread; throws std::invalid_argument when the URL is malformed.
    explicit RedisEventBus(RedisBusOptions options);
    ~RedisEventBus() override;
    RedisEventBus(const RedisEventBus&) = delete;
    RedisEventBus& operator=(const RedisEventBus&) = delete;

    SubscriptionId subscribe(const std::string& gameId, Handler handler) override;
    void unsubscribe(SubscriptionId id) override;
    void publish(const GameEvent& event) override;
    void onResync(Resync resync) override;

    // True while the subscriber connection is up (for readiness and tests).
    bool listening() const { return listening_.load(); }
    // The games whose channels Redis confirmed on the subscriber connection (for tests).
    std::set<std::string> subscribedGames() const;
    // Events dropped because the publish queue was full (for tests and metrics).
    std::uint64_t droppedEvents() const { return dropped_.load(); }

    // The wire format of one event on the channel: "<G|I><version>\n<payload>".
    static std::string encode(const GameEvent& event);
    static bool decode(std::string_view gameId, std::string_view message, GameEvent* event);

  private:
    void listen();
    // One connection's life: subscribes to what is wanted, delivers messages until the
    // connection fails or the bus stops. Returns false when the bus stops.
    // `generation`: the primary's when the connection was made; a change ends it.
    bool serve(redisContext& context, std::uint64_t generation);
    // Sends SUBSCRIBE / UNSUBSCRIBE so the connection follows exactly the locally wanted games.
    bool reconcile(redisContext& context, std::set<std::string>& requested);
    void wakeListener();
    void publishLoop();
    // Waits up to `delay` unless the bus is stopping (returns false) or the primary changes
    // from `generation`.
    bool sleepUnlessStopping(std::chrono::milliseconds delay, std::uint64_t generation);

    RedisBusOptions options_;
    RedisConnectionPool publisher_;
    std::string channelPrefix_;

    SubscriberRegistry subscribers_;

    mutable std::mutex listenerMutex_;
    std::condition_variable stopCondition_;
    std::condition_variable confirmed_;  // a SUBSCRIBE was acknowledged, or the connection failed
    std::set<std::string> confirmedGames_;
    bool stopping_ = false;
    int wakeFd_ = -1;  // an eventfd: subscriptions changed, the primary changed, or the bus stops
    std::uint64_t primaryListener_ = 0;
    std::atomic<bool> listening_{false};
    std::thread listener_;

    std::mutex resyncMutex_;
    Resync resync_;

    std::mutex publishMutex_;
    std::condition_variable publishReady_;
    std::deque<GameEvent> publishQueue_;
    bool publishStopping_ = false;
    std::atomic<std::uint64_t> dropped_{0};
    std::thread publisherThread_;
};

}  // namespace outpost::server
