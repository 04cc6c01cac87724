#include "games/active_games.h"

#include <algorithm>
#include <string_view>

namespace outpost::server {

void ActiveGames::touch(const std::string& gameId, const std::string& owner,
                        Clock::time_point now) {
    std::lock_guard lock(mutex_);
    Entry& entry = games_[gameId];
    entry.lastSeen = now;
    if (!owner.empty()) entry.owner = owner;
}

void ActiveGames::finished(const std::string& gameId) {
    std::lock_guard lock(mutex_);
    games_.erase(gameId);
}

std::size_t ActiveGames::count(std::size_t perOwnerCap, Clock::time_point now) {
    std::lock_guard lock(mutex_);
    std::erase_if(games_,
                  [&](const auto& entry) { return now - entry.second.lastSeen > idleAfter_; });
    if (perOwnerCap == 0) return games_.size();
    std::unordered_map<std::string_view, std::size_t> perOwner;
    std::size_t counted = 0;
    for (const auto& [id, entry] : games_) {
        if (entry.owner.empty()) {
            ++counted;
        } else if (++perOwner[entry.owner] <= perOwnerCap) {
            ++counted;
        }
    }
    return counted;
}

}  // namespace outpost::server
