#include "lobby/seek_keeper.h"

#include <algorithm>
#include <set>
#include <vector>

#include "games/game_clock.h"

namespace outpost::server {

namespace {
// A followed seek is marked seen at least this many times per grace time, whatever the heartbeat:
// with a grace shorter than the heartbeat (--player-gone-grace 3000 beside the default 10 s
// heartbeat) a seek whose stream was open expired between two beats.
constexpr std::int64_t kBeatsPerGrace = 3;

std::chrono::milliseconds beatInterval(std::int64_t heartbeatMs, const SeekTiming& timing) {
    const std::int64_t withinGrace = std::max<std::int64_t>(1, timing.graceMs / kBeatsPerGrace);
    return std::chrono::milliseconds(std::max<std::int64_t>(1, std::min(heartbeatMs, withinGrace)));
}
}  // namespace

SeekKeeper::SeekKeeper(std::shared_ptr<GameStore> store, std::int64_t heartbeatMs,
                       SeekTiming timing, std::function<std::int64_t()> now)
    : store_(std::move(store)),
      timing_(timing),
      now_(std::move(now)),
      beat_(beatInterval(heartbeatMs, timing), [this] { beat(); }) {}

SeekKeeper::~SeekKeeper() {
    stop();
}

void SeekKeeper::stop() {
    beat_.stop();
}

SeekKeeper::Lease SeekKeeper::hold(const std::string& id, Closed closed) {
    std::uint64_t key = 0;
    {
        std::lock_guard lock(core_->mutex);
        key = core_->next++;
        core_->holders.emplace(key, Holder{id, std::move(closed)});
    }
    beat_.start();  // a second start() does nothing
    std::weak_ptr<Core> weak = core_;
    return Lease(static_cast<void*>(nullptr), [weak, key](void*) {
        if (auto core = weak.lock()) {
            std::lock_guard lock(core->mutex);
            core->holders.erase(key);
        }
    });
}

void SeekKeeper::beat() {
    std::set<std::string> ids;
    {
        std::lock_guard lock(core_->mutex);
        for (const auto& [key, holder] : core_->holders) ids.insert(holder.seekId);
    }
    for (const std::string& id : ids) {
        const SeekReadResult read = store_->getSeek(id);
        std::optional<Seek> seek;
        if (read.status == StoreStatus::Ok) seek = fromSeekDoc(*read.seek);
        if (read.status != StoreStatus::Ok && read.status != StoreStatus::NotFound) continue;
        const std::int64_t now = now_();
        if (seek && seekStatus(*seek, now, timing_) == "open") {
            Seek seen = *seek;
            seen.seenAtMs = now;
            seen.version += 1;
            store_->updateSeek(toSeekDoc(seen, timing_), seek->version);  // lost: next beat
            continue;
        }
        // Closed (or gone): every stream of it learns so, once.
        Seek closed = seek ? *seek : Seek{};
        if (!seek) {
            closed.id = id;
            closed.state = "expired";
        } else if (closed.state == "open") {
            closed.state = "expired";
        }
        std::vector<Closed> calls;
        {
            std::lock_guard lock(core_->mutex);
            for (auto it = core_->holders.begin(); it != core_->holders.end();) {
                if (it->second.seekId == id) {
                    calls.push_back(std::move(it->second.closed));
                    it = core_->holders.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (const Closed& call : calls)
            if (call) call(closed);
    }
}

}  // namespace outpost::server
