#include "store/memory_game_store.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "store/clock_deadline.h"

namespace outpost::server {

const char* toString(StoreStatus status) {
    switch (status) {
        case StoreStatus::Ok:
            return "ok";
        case StoreStatus::NotFound:
            return "not_found";
        case StoreStatus::AlreadyExists:
            return "already_exists";
        case StoreStatus::VersionConflict:
            return "version_conflict";
        case StoreStatus::Unavailable:
            return "unavailable";
        case StoreStatus::Corrupt:
            return "corrupt";
        case StoreStatus::Unconfirmed:
            return "unconfirmed";
        case StoreStatus::Unanswered:
            return "unanswered";
        case StoreStatus::LimitReached:
            return "limit_reached";
    }
    return "unknown";
}

StoreStatus MemoryGameStore::create(const GameRecord& game) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = games_.try_emplace(game.id, game);
    if (inserted) it->second.presence.reset();  // not stored (GameRecord::presence)
    return inserted ? StoreStatus::Ok : StoreStatus::AlreadyExists;
}

StoreReadResult MemoryGameStore::get(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(std::string(id));
    if (it == games_.end()) return {StoreStatus::NotFound, std::nullopt};
    return {StoreStatus::Ok, it->second};
}

StoreManyResult MemoryGameStore::getMany(const std::vector<std::string>& ids) {
    StoreManyResult result;
    std::lock_guard lock(mutex_);
    for (const std::string& id : ids) {
        auto it = games_.find(id);
        if (it != games_.end()) result.games.push_back(it->second);
    }
    return result;
}

StoreStatus MemoryGameStore::update(const GameRecord& game, std::uint64_t expectedVersion) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(game.id);
    if (it == games_.end()) return StoreStatus::NotFound;
    if (it->second.version != expectedVersion) return StoreStatus::VersionConflict;
    it->second = game;
    it->second.presence.reset();  // not stored (GameRecord::presence)
    return StoreStatus::Ok;
}

StoreStatus MemoryGameStore::putPresence(std::string_view gameId, const PresenceEntry& entry) {
    presence_.put(gameId, entry);
    return StoreStatus::Ok;
}

PresenceReadResult MemoryGameStore::getPresence(std::string_view gameId) {
    return presence_.get(gameId);
}

StoreStatus MemoryGameStore::removePresence(std::string_view gameId) {
    presence_.remove(gameId);
    return StoreStatus::Ok;
}

std::uint64_t MemoryGameStore::count() {
    std::lock_guard lock(mutex_);
    return games_.size();
}

StoreStatus MemoryGameStore::putGameReview(std::string_view gameId, const std::string& doc) {
    std::lock_guard lock(mutex_);
    const std::string id(gameId);
    if (!games_.count(id)) return StoreStatus::NotFound;
    gameReviews_[id] = doc;
    return StoreStatus::Ok;
}

StoreDocResult MemoryGameStore::getGameReview(std::string_view gameId) {
    std::lock_guard lock(mutex_);
    auto it = gameReviews_.find(std::string(gameId));
    if (it == gameReviews_.end()) return {StoreStatus::NotFound, {}};
    return {StoreStatus::Ok, it->second};
}

StoreStatus MemoryGameStore::putReview(std::string_view reviewId, const std::string& doc) {
    std::lock_guard lock(mutex_);
    pastedReviews_[std::string(reviewId)] = doc;
    return StoreStatus::Ok;
}

StoreDocResult MemoryGameStore::getReview(std::string_view reviewId) {
    std::lock_guard lock(mutex_);
    auto it = pastedReviews_.find(std::string(reviewId));
    if (it == pastedReviews_.end()) return {StoreStatus::NotFound, {}};
    return {StoreStatus::Ok, it->second};
}

StoreManyResult MemoryGameStore::runningClocks(std::int64_t untilMs, std::size_t limit) {
    std::vector<std::pair<std::int64_t, const GameRecord*>> due;
    StoreManyResult result;
    std::lock_guard lock(mutex_);
    for (const auto& [id, game] : games_) {
        const std::optional<std::int64_t> deadline = clockDeadlineMs(game);
        if (deadline && *deadline <= untilMs) due.emplace_back(*deadline, &game);
    }
    std::sort(due.begin(), due.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < due.size() && i < limit; ++i)
        result.games.push_back(*due[i].second);
    return result;
}

GameEventBus::SubscriptionId MemoryEventBus::subscribe(const std::string& gameId, Handler handler) {
    return subscribers_.add(gameId, std::move(handler));
}

void MemoryEventBus::unsubscribe(SubscriptionId id) {
    subscribers_.remove(id);
}

void MemoryEventBus::publish(const GameEvent& event) {
    subscribers_.dispatch(event);
}

}  // namespace outpost::server
