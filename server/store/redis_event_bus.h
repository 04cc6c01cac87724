// GameEventBus over Redis pub/sub: an event published on any replica reaches the subscribers on
// every replica (the way Lichess connects its servers through Redis).
//
// publish() sends PUBLISH <prefix>events:<gameId> with the event. Each bus keeps one extra
// connection with PSUBSCRIBE <prefix>events:* on a thread of its own, and delivers every event to
// the local handlers of its game (also the events this replica published itself, so there is one
// path for all). Handlers run on that thread and must not block.
//
// Pub/sub delivers at most once: events published while a replica's subscriber connection is
// down are not replayed to it. The game state itself is in the store, so a client that
// resubscribes (or the next event) brings it up to date; the bus reconnects with backoff.
// Every replica receives every game's events; see docs/deployment.md for when that matters.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "store/game_store.h"
#include "store/redis_connection.h"
#include "store/subscriber_registry.h"

namespace outpost::server {

struct RedisBusOptions {
    std::string url = "redis://127.0.0.1:6379";
    std::string keyPrefix = "outpost:";
    std::chrono::milliseconds timeout{2000};
    std::chrono::milliseconds maxReconnectDelay{2000};
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

    // True while the subscriber connection is up (for readiness and tests).
    bool listening() const { return listening_.load(); }

    // The wire format of one event on the channel: "<G|I><version>\n<payload>".
    static std::string encode(const GameEvent& event);
    static bool decode(std::string_view gameId, std::string_view message, GameEvent* event);

  private:
    void listen();
    // Waits up to `delay` unless the bus is stopping; returns false when it is.
    bool sleepUnlessStopping(std::chrono::milliseconds delay);

    RedisBusOptions options_;
    RedisConnectionPool publisher_;
    std::string channelPrefix_;

    SubscriberRegistry subscribers_;

    // The subscriber connection's socket, so the destructor can wake the blocked reader.
    std::mutex listenerMutex_;
    std::condition_variable stopCondition_;
    int listenerFd_ = -1;
    bool stopping_ = false;
    std::atomic<bool> listening_{false};
    std::thread listener_;
};

}  // namespace outpost::server
