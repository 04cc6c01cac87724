#include "games/presence.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "ops/logger.h"
#include "ops/tokens.h"

namespace outpost::server {

namespace {

// Bytes of randomness in a replica's id (only needs to differ between live replicas).
constexpr std::size_t kReplicaIdBytes = 9;
// Plies after which claims are open: each side has moved once (before, abort instead).
constexpr std::size_t kPliesBeforeClaims = 2;

struct SideSeen {
    bool live = false;
    std::int64_t agoMs = kNeverSeen;  // the latest sign of life, on the store's clock
};

SideSeen seen(const std::vector<PresenceEntry>& entries, bool white, const PresenceTiming& timing) {
    SideSeen side;
    for (const PresenceEntry& entry : entries) {
        const bool live = white ? entry.white : entry.black;
        const std::int64_t idle = white ? entry.whiteIdleMs : entry.blackIdleMs;
        if (live && entry.ageMs < timing.liveMs()) side.live = true;
        // A live side was there when the entry was written, whatever its idle field says.
        const std::int64_t ago =
            live ? entry.ageMs : (idle == kNeverSeen ? kNeverSeen : entry.ageMs + idle);
        if (ago != kNeverSeen && (side.agoMs == kNeverSeen || ago < side.agoMs)) side.agoMs = ago;
    }
    return side;
}

std::int64_t msSince(std::chrono::steady_clock::time_point then,
                     std::chrono::steady_clock::time_point now) {
    return std::max<std::int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(now - then).count());
}

// What subscribers are told changed: who is present or gone, and whether claims are possible;
// not the ages, which change with every read.
bool sameForSubscribers(const GamePresence& a, const GamePresence& b) {
    auto shape = [](const GamePresence& p) {
        return std::make_tuple(p.white, p.black, p.whiteGone, p.blackGone, p.whiteGoneForMs < 0,
                               p.blackGoneForMs < 0, p.whiteClaimInMs < 0, p.blackClaimInMs < 0);
    };
    return shape(a) == shape(b);
}

}  // namespace

GamePresence presenceView(const GameRecord& game, const std::vector<PresenceEntry>& entries,
                          std::int64_t wallNowMs, const PresenceTiming& timing) {
    GamePresence presence;
    const SideSeen white = seen(entries, true, timing);
    const SideSeen black = seen(entries, false, timing);
    presence.white = white.live || game.engine.side == "white";
    presence.black = black.live || game.engine.side == "black";
    if (game.status != "ongoing" || game.engine.side != "none") return presence;
    const bool claimsOpen = game.moves.size() >= kPliesBeforeClaims;
    auto gone = [&](const SideSeen& side, bool& isGone, std::int64_t& goneFor,
                    std::int64_t& claimIn, std::int64_t& since, std::int64_t& claimableAt) {
        if (side.live) return;
        isGone = true;
        goneFor = side.agoMs;
        if (goneFor == kNeverSeen) return;  // no evidence either way: nobody may claim
        since = wallNowMs - goneFor;
        if (!claimsOpen) return;
        claimIn = std::max<std::int64_t>(0, timing.graceMs - goneFor);
        // When the grace ends (or ended): a fixed time, the same at every read (docs/play.md).
        claimableAt = since + timing.graceMs;
    };
    gone(white, presence.whiteGone, presence.whiteGoneForMs, presence.whiteClaimInMs,
         presence.whiteGoneSinceMs, presence.whiteClaimableAtMs);
    gone(black, presence.blackGone, presence.blackGoneForMs, presence.blackClaimInMs,
         presence.blackGoneSinceMs, presence.blackClaimableAtMs);
    return presence;
}

void addPresenceFields(nlohmann::json& json, const GamePresence& presence) {
    json["presence"] = {{"white", presence.white}, {"black", presence.black}};
    nlohmann::json gone = nlohmann::json::object();
    auto side = [&](const char* name, bool isGone, std::int64_t since, std::int64_t claimableAt) {
        if (!isGone) return;
        gone[name] = nlohmann::json::object();
        if (since != 0) gone[name]["sinceMs"] = since;
        if (claimableAt != 0) gone[name]["claimableAtMs"] = claimableAt;
    };
    side("white", presence.whiteGone, presence.whiteGoneSinceMs, presence.whiteClaimableAtMs);
    side("black", presence.blackGone, presence.blackGoneSinceMs, presence.blackClaimableAtMs);
    if (!gone.empty()) json["gone"] = std::move(gone);
}

std::string presenceMessage(const GameRecord& game, const GamePresence& presence) {
    nlohmann::json json = {{"type", "presence"}, {"gameId", game.id}, {"version", game.version}};
    addPresenceFields(json, presence);
    if (!json.contains("gone")) json["gone"] = nullptr;
    return json.dump();
}

bool claimable(const GamePresence& presence, bool white) {
    return (white ? presence.whiteClaimInMs : presence.blackClaimInMs) == 0;
}

// One connection's share of a side's count; dropping it counts down and reports the change.
class PresenceTracker::Connection {
  public:
    Connection(std::shared_ptr<Core> core, std::string gameId, bool white, bool black,
               std::function<void(const std::string&)> flush)
        : core_(std::move(core)),
          gameId_(std::move(gameId)),
          white_(white),
          black_(black),
          flush_(std::move(flush)) {}
    ~Connection() {
        Post post;
        {
            std::lock_guard lock(core_->mutex);
            if (core_->closed) return;
            auto it = core_->games.find(gameId_);
            if (it == core_->games.end()) return;  // the game ended (forget)
            const auto now = std::chrono::steady_clock::now();
            Local& local = it->second;
            if (white_ && --local.white == 0) local.whiteSeen = now;
            if (black_ && --local.black == 0) local.blackSeen = now;
            post = core_->post;
        }
        // Off this thread: a lease may go on an I/O thread (a closed socket).
        if (post) post([flush = flush_, gameId = gameId_] { flush(gameId); });
    }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

  private:
    const std::shared_ptr<Core> core_;
    const std::string gameId_;
    const bool white_;
    const bool black_;
    const std::function<void(const std::string&)> flush_;
};

PresenceTracker::PresenceTracker(std::shared_ptr<GameStore> store,
                                 std::shared_ptr<GameEventBus> bus, Logger& logger,
                                 PresenceTiming timing, Post post, WallClock wallClock)
    : store_(std::move(store)),
      bus_(std::move(bus)),
      logger_(logger),
      timing_(timing),
      wallClock_(std::move(wallClock)),
      replica_(randomUrlSafe(kReplicaIdBytes)),
      core_(std::make_shared<Core>()),
      beat_(std::chrono::milliseconds(timing.heartbeatMs), [this] { heartbeat(); }) {
    core_->post = std::move(post);
}

PresenceTracker::~PresenceTracker() {
    stop();
}

void PresenceTracker::stop() {
    {
        std::lock_guard lock(core_->mutex);
        core_->closed = true;
    }
    beat_.stop();
}

PresenceTracker::Lease PresenceTracker::join(const GameRecord& game,
                                             const std::optional<std::string>& token) {
    if (!token || token->empty() || !store_) return nullptr;
    const bool white = tokenMatches(*token, game.whiteTokenHash);
    const bool black = tokenMatches(*token, game.blackTokenHash);
    if (!white && !black) return nullptr;
    {
        std::lock_guard lock(core_->mutex);
        if (core_->closed) return nullptr;
        const auto now = std::chrono::steady_clock::now();
        Local& local = core_->games[game.id];
        if (white && local.white++ == 0) local.whiteSeen = now;
        if (black && local.black++ == 0) local.blackSeen = now;
    }
    beat_.start();  // a second start() does nothing
    flush(game.id, true);
    // The lease reaches the tracker through the core only: one that outlives the tracker (a
    // connection closed after the server stopped) finds it closed and does nothing.
    std::weak_ptr<Core> weakCore = core_;
    return std::make_shared<Connection>(core_, game.id, white, black,
                                        [this, weakCore](const std::string& gameId) {
                                            auto core = weakCore.lock();
                                            if (!core) return;
                                            {
                                                std::lock_guard lock(core->mutex);
                                                if (core->closed) return;
                                            }
                                            flush(gameId, true);
                                        });
}

bool PresenceTracker::seen(const GameRecord& game, bool white, bool black) {
    if (!store_ || game.status != "ongoing" || (!white && !black)) return false;
    {
        std::lock_guard lock(core_->mutex);
        if (core_->closed) return false;
        const auto now = std::chrono::steady_clock::now();
        Local& local = core_->games[game.id];
        if (white) local.whiteSeen = now;
        if (black) local.blackSeen = now;
    }
    // A failed report is retried by the heartbeat (the entry stays unsent).
    beat_.start();
    return flush(game.id, false);
}

bool PresenceTracker::blindRecently() const {
    const std::int64_t failed = lastWriteFailureMs_.load(std::memory_order_relaxed);
    return failed != 0 && steadyMs() - failed < kBlindHeartbeats * timing_.heartbeatMs;
}

std::optional<GamePresence> PresenceTracker::read(const GameRecord& game) {
    if (!store_) return std::nullopt;
    const PresenceReadResult entries = store_->getPresence(game.id);
    if (entries.status != StoreStatus::Ok) return std::nullopt;
    return presenceView(game, entries.entries, wallClock_(), timing_);
}

void PresenceTracker::forget(const std::string& gameId) {
    {
        std::lock_guard lock(core_->mutex);
        core_->games.erase(gameId);
    }
    if (!store_) return;
    std::lock_guard flushing(flushMutex_);  // after any report of it under way
    if (store_->removePresence(gameId) != StoreStatus::Ok)
        logger_.log({{"event", "presence_remove_failed"}, {"game", gameId}});
}

void PresenceTracker::heartbeat() {
    std::vector<std::string> games;
    {
        std::lock_guard lock(core_->mutex);
        if (core_->closed) return;
        const auto now = std::chrono::steady_clock::now();
        for (auto it = core_->games.begin(); it != core_->games.end();) {
            const Local& local = it->second;
            const bool connected = local.white > 0 || local.black > 0;
            // What this replica saw of a game nobody follows here any more is in the store:
            // the last report stands until the entry expires (kPresenceKeep).
            const auto last =
                std::max(local.whiteSeen.value_or(std::chrono::steady_clock::time_point{}),
                         local.blackSeen.value_or(std::chrono::steady_clock::time_point{}));
            if (!connected && !local.unsent && now - last >= kPresenceKeep) {
                it = core_->games.erase(it);
                continue;
            }
            if (connected || local.unsent) games.push_back(it->first);
            ++it;
        }
    }
    for (const std::string& gameId : games) flush(gameId, true);
}

bool PresenceTracker::flush(const std::string& gameId, bool publish) {
    std::lock_guard flushing(flushMutex_);
    // Nothing is reported for a game that ended or is gone; its entries go.
    const StoreReadResult read = store_->get(gameId);
    if (read.status == StoreStatus::NotFound ||
        (read.status == StoreStatus::Ok && read.game->status != "ongoing")) {
        {
            std::lock_guard lock(core_->mutex);
            core_->games.erase(gameId);
        }
        store_->removePresence(gameId);
        return true;
    }
    PresenceEntry entry;
    entry.replica = replica_;
    {
        std::lock_guard lock(core_->mutex);
        auto it = core_->games.find(gameId);
        if (it == core_->games.end()) return true;
        const auto now = std::chrono::steady_clock::now();
        const Local& local = it->second;
        entry.white = local.white > 0;
        entry.black = local.black > 0;
        if (entry.white)
            entry.whiteIdleMs = 0;
        else if (local.whiteSeen)
            entry.whiteIdleMs = msSince(*local.whiteSeen, now);
        if (entry.black)
            entry.blackIdleMs = 0;
        else if (local.blackSeen)
            entry.blackIdleMs = msSince(*local.blackSeen, now);
    }
    const bool written =
        read.status == StoreStatus::Ok && store_->putPresence(gameId, entry) == StoreStatus::Ok;
    {
        std::lock_guard lock(core_->mutex);
        auto it = core_->games.find(gameId);
        if (it != core_->games.end()) it->second.unsent = !written;
    }
    if (!written) {
        // The next heartbeat writes it again.
        lastWriteFailureMs_.store(steadyMs(), std::memory_order_relaxed);
        logger_.log({{"event", "presence_write_failed"}, {"game", gameId}});
        return false;
    }
    if (!publish) return true;
    // Publish what subscribers would now see, if it is not what this replica told them last.
    const PresenceReadResult entries = store_->getPresence(gameId);
    if (entries.status != StoreStatus::Ok) return true;
    const GamePresence presence = presenceView(*read.game, entries.entries, wallClock_(), timing_);
    bool changed = false;
    {
        std::lock_guard lock(core_->mutex);
        auto it = core_->games.find(gameId);
        if (it == core_->games.end()) return true;
        Local& local = it->second;
        changed = !local.published || !sameForSubscribers(*local.published, presence);
        local.published = presence;
    }
    if (changed && bus_) {
        bus_->publish(GameEvent{GameEvent::Kind::Presence, gameId, read.game->version,
                                presenceMessage(*read.game, presence)});
    }
    return true;
}

}  // namespace outpost::server
