#include "store/subscriber_registry.h"

#include <vector>

namespace outpost::server {

SubscriberRegistry::SubscriptionId SubscriberRegistry::add(const std::string& gameId,
                                                           Handler handler) {
    std::lock_guard lock(mutex_);
    SubscriptionId id = nextId_++;
    subscriptions_.emplace(
        id, Subscription{gameId, std::make_shared<const Handler>(std::move(handler))});
    byGame_.emplace(gameId, id);
    return id;
}

void SubscriberRegistry::remove(SubscriptionId id) {
    std::lock_guard lock(mutex_);
    auto it = subscriptions_.find(id);
    if (it == subscriptions_.end()) return;
    auto [first, last] = byGame_.equal_range(it->second.gameId);
    for (auto g = first; g != last; ++g) {
        if (g->second == id) {
            byGame_.erase(g);
            break;
        }
    }
    subscriptions_.erase(it);
}

std::set<std::string> SubscriberRegistry::games() const {
    std::lock_guard lock(mutex_);
    std::set<std::string> result;
    for (const auto& [gameId, id] : byGame_) result.insert(gameId);
    return result;
}

void SubscriberRegistry::dispatch(const GameEvent& event) {
    std::vector<std::shared_ptr<const Handler>> handlers;
    {
        std::lock_guard lock(mutex_);
        auto [first, last] = byGame_.equal_range(event.gameId);
        for (auto g = first; g != last; ++g)
            handlers.push_back(subscriptions_.at(g->second).handler);
    }
    for (const auto& handler : handlers) (*handler)(event);
}

}  // namespace outpost::server
