#include "games/active_games.h"

namespace outpost::server {

void ActiveGames::touch(const std::string& gameId, Clock::time_point now) {
    std::lock_guard lock(mutex_);
    lastSeen_[gameId] = now;
}

void ActiveGames::finished(const std::string& gameId) {
    std::lock_guard lock(mutex_);
    lastSeen_.erase(gameId);
}

std::size_t ActiveGames::count(Clock::time_point now) {
    std::lock_guard lock(mutex_);
    std::erase_if(lastSeen_, [&](const auto& entry) { return now - entry.second > idleAfter_; });
    return lastSeen_.size();
}

}  // namespace outpost::server
