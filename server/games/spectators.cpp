#include "games/spectators.h"

namespace outpost::server {

SpectatorCounter::Lease SpectatorCounter::join(const std::string& gameId) {
    {
        std::lock_guard lock(core_->mutex);
        ++core_->counts[gameId];
    }
    std::weak_ptr<Core> weak = core_;
    return Lease(static_cast<void*>(nullptr), [weak, gameId](void*) {
        auto core = weak.lock();
        if (!core) return;
        std::lock_guard lock(core->mutex);
        auto it = core->counts.find(gameId);
        if (it != core->counts.end() && --it->second <= 0) core->counts.erase(it);
    });
}

int SpectatorCounter::count(const std::string& gameId) const {
    std::lock_guard lock(core_->mutex);
    auto it = core_->counts.find(gameId);
    return it == core_->counts.end() ? 0 : it->second;
}

}  // namespace outpost::server
