#include "games/presence.h"

#include <algorithm>
#include <utility>

#include "games/game_clock.h"
#include "ops/logger.h"
#include "ops/tokens.h"

namespace outpost::server {

namespace {

// Bytes of randomness in a replica's id (only needs to differ between live replicas).
constexpr std::size_t kReplicaIdBytes = 9;

// White is to move after the game's moves (from the initial FEN's side to move).
bool whiteToMoveNow(const GameRecord& game) {
    const std::size_t space = game.initialFen.find(' ');
    const bool whiteFirst = space == std::string::npos || space + 1 >= game.initialFen.size() ||
                            game.initialFen[space + 1] != 'b';
    return whiteFirst == (game.moves.size() % 2 == 0);
}

struct SideSeen {
    bool live = false;
    std::int64_t lastSeenMs = 0;
};

SideSeen seen(const std::vector<PresenceEntry>& entries, bool white, std::int64_t nowMs,
              const PresenceTiming& timing) {
    SideSeen side;
    for (const PresenceEntry& entry : entries) {
        const bool live = white ? entry.white : entry.black;
        const std::int64_t at = white ? entry.whiteSeenAtMs : entry.blackSeenAtMs;
        if (live && nowMs - at < timing.liveMs()) side.live = true;
        side.lastSeenMs = std::max(side.lastSeenMs, at);
    }
    return side;
}

}  // namespace

GamePresence presenceView(const GameRecord& game, const std::vector<PresenceEntry>& entries,
                          std::int64_t nowMs, const PresenceTiming& timing) {
    GamePresence presence;
    const SideSeen white = seen(entries, true, nowMs, timing);
    const SideSeen black = seen(entries, false, nowMs, timing);
    presence.white = white.live || game.engine.side == "white";
    presence.black = black.live || game.engine.side == "black";
    if (game.status != "ongoing" || game.engine.side != "none") return presence;
    // A side's own move is a sign of life too (a client that moves over REST without a stream).
    const bool whiteMovedLast = !game.moves.empty() && !whiteToMoveNow(game);
    const bool blackMovedLast = !game.moves.empty() && whiteToMoveNow(game);
    // Claims come once both sides have moved; before, the game can be aborted instead.
    const bool claimsOpen = game.moves.size() >= 2;
    auto gone = [&](const SideSeen& side, bool movedLast, std::int64_t& since,
                    std::int64_t& claimableAt) {
        if (side.live) return;
        since = std::max({side.lastSeenMs, game.createdAtMs, movedLast ? game.updatedAtMs : 0});
        if (claimsOpen) claimableAt = since + timing.graceMs;
    };
    gone(white, whiteMovedLast, presence.whiteGoneSinceMs, presence.whiteClaimableAtMs);
    gone(black, blackMovedLast, presence.blackGoneSinceMs, presence.blackClaimableAtMs);
    return presence;
}

void addPresenceFields(nlohmann::json& json, const GamePresence& presence) {
    json["presence"] = {{"white", presence.white}, {"black", presence.black}};
    nlohmann::json gone = nlohmann::json::object();
    auto side = [&](const char* name, std::int64_t since, std::int64_t claimableAt) {
        if (since == 0) return;
        gone[name] = {{"sinceMs", since}};
        if (claimableAt != 0) gone[name]["claimableAtMs"] = claimableAt;
    };
    side("white", presence.whiteGoneSinceMs, presence.whiteClaimableAtMs);
    side("black", presence.blackGoneSinceMs, presence.blackClaimableAtMs);
    if (!gone.empty()) json["gone"] = std::move(gone);
}

std::string presenceMessage(const GameRecord& game, const GamePresence& presence) {
    nlohmann::json json = {{"type", "presence"}, {"gameId", game.id}, {"version", game.version}};
    addPresenceFields(json, presence);
    if (!json.contains("gone")) json["gone"] = nullptr;
    return json.dump();
}

bool claimable(const GamePresence& presence, bool white, std::int64_t nowMs) {
    const std::int64_t claimableAt =
        white ? presence.whiteClaimableAtMs : presence.blackClaimableAtMs;
    return claimableAt != 0 && nowMs >= claimableAt;
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
            if (it == core_->games.end()) return;
            const std::int64_t now = nowEpochMs();
            Local& local = it->second;
            if (white_ && --local.white == 0) local.whiteSeenAtMs = now;
            if (black_ && --local.black == 0) local.blackSeenAtMs = now;
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
                                 PresenceTiming timing, Post post)
    : store_(std::move(store)),
      bus_(std::move(bus)),
      logger_(logger),
      timing_(timing),
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
        const std::int64_t now = nowEpochMs();
        Local& local = core_->games[game.id];
        if (white && local.white++ == 0) local.whiteSeenAtMs = now;
        if (black && local.black++ == 0) local.blackSeenAtMs = now;
    }
    beat_.start();  // a second start() does nothing
    flush(game.id);
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
                                            flush(gameId);
                                        });
}

std::optional<GamePresence> PresenceTracker::read(const GameRecord& game) {
    if (!store_) return std::nullopt;
    const PresenceReadResult entries = store_->getPresence(game.id);
    if (entries.status != StoreStatus::Ok) return std::nullopt;
    return presenceView(game, entries.entries, nowEpochMs(), timing_);
}

void PresenceTracker::heartbeat() {
    std::vector<std::string> games;
    {
        std::lock_guard lock(core_->mutex);
        if (core_->closed) return;
        for (const auto& [gameId, local] : core_->games) games.push_back(gameId);
    }
    for (const std::string& gameId : games) flush(gameId);
}

void PresenceTracker::flush(const std::string& gameId) {
    std::lock_guard flushing(flushMutex_);
    PresenceEntry entry;
    entry.replica = replica_;
    {
        std::lock_guard lock(core_->mutex);
        auto it = core_->games.find(gameId);
        if (it == core_->games.end()) return;
        const std::int64_t now = nowEpochMs();
        Local& local = it->second;
        if (local.white > 0) local.whiteSeenAtMs = now;
        if (local.black > 0) local.blackSeenAtMs = now;
        entry.white = local.white > 0;
        entry.black = local.black > 0;
        entry.whiteSeenAtMs = local.whiteSeenAtMs;
        entry.blackSeenAtMs = local.blackSeenAtMs;
    }
    if (store_->putPresence(gameId, entry) != StoreStatus::Ok) {
        // The next heartbeat writes it again.
        logger_.log({{"event", "presence_write_failed"}, {"game", gameId}});
        return;
    }
    // Publish what subscribers would now see, if it is not what this replica told them last.
    const StoreReadResult read = store_->get(gameId);
    if (read.status != StoreStatus::Ok) return;
    const PresenceReadResult entries = store_->getPresence(gameId);
    if (entries.status != StoreStatus::Ok) return;
    const GamePresence presence = presenceView(*read.game, entries.entries, nowEpochMs(), timing_);
    bool changed = false;
    {
        std::lock_guard lock(core_->mutex);
        auto it = core_->games.find(gameId);
        if (it == core_->games.end()) return;
        Local& local = it->second;
        changed = local.published != presence;
        local.published = presence;
        // Nobody left here: the entry written above keeps when they went.
        if (local.white == 0 && local.black == 0) core_->games.erase(it);
    }
    if (changed && bus_) {
        bus_->publish(GameEvent{GameEvent::Kind::Presence, gameId, read.game->version,
                                presenceMessage(*read.game, presence)});
    }
}

}  // namespace outpost::server
