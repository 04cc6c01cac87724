// The local subscribers of a GameEventBus: who listens to which game, and delivery to them.
// Shared by MemoryEventBus (delivers what is published in process) and RedisEventBus (delivers
// what arrives from Redis pub/sub), which differ only in how an event reaches dispatch().
//
// Thread-safe. dispatch() calls the handlers outside the registry's lock, on the caller's
// thread, so a handler may subscribe or unsubscribe without deadlocking; a handler removed by
// remove() is not called by a later dispatch() (a call already under way may still finish).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "store/game_store.h"

namespace outpost::server {

class SubscriberRegistry {
  public:
    using Handler = GameEventBus::Handler;
    using SubscriptionId = GameEventBus::SubscriptionId;

    // Never returns 0.
    SubscriptionId add(const std::string& gameId, Handler handler);
    void remove(SubscriptionId id);
    // Calls every handler subscribed to event.gameId.
    void dispatch(const GameEvent& event);
    // The games with at least one subscriber.
    std::set<std::string> games() const;

  private:
    struct Subscription {
        std::string gameId;
        std::shared_ptr<const Handler> handler;
    };

    mutable std::mutex mutex_;
    SubscriptionId nextId_ = 1;
    std::map<SubscriptionId, Subscription> subscriptions_;
    std::multimap<std::string, SubscriptionId> byGame_;
};

}  // namespace outpost::server
