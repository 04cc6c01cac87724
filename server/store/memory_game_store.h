// In-process GameStore and GameEventBus: one replica, games lost on restart.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

#include "store/game_store.h"
#include "store/presence_table.h"
#include "store/subscriber_registry.h"

namespace outpost::server {

class MemoryGameStore final : public GameStore {
  public:
    StoreStatus create(const GameRecord& game) override;
    StoreReadResult get(std::string_view id) override;
    StoreManyResult getMany(const std::vector<std::string>& ids) override;
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override;
    std::uint64_t count() override;
    StoreStatus putGameReview(std::string_view gameId, const std::string& doc) override;
    StoreDocResult getGameReview(std::string_view gameId) override;
    StoreStatus putReview(std::string_view reviewId, const std::string& doc) override;
    StoreDocResult getReview(std::string_view reviewId) override;
    // A scan: the in-memory store serves one process and tests, not a fleet.
    StoreManyResult runningClocks(std::int64_t untilMs, std::size_t limit) override;
    StoreStatus putPresence(std::string_view gameId, const PresenceEntry& entry) override;
    PresenceReadResult getPresence(std::string_view gameId) override;
    // Lobby seeks and chat lines (store/memory_lobby_store.cpp); the list is a scan.
    using GameStore::createSeek;
    StoreStatus createSeek(const SeekDoc& seek, const SeekQuota& quota) override;
    SeekReadResult getSeek(std::string_view id) override;
    StoreStatus updateSeek(const SeekDoc& seek, std::uint64_t expectedVersion) override;
    SeekListResult openSeeks(std::int64_t nowMs, std::size_t limit) override;
    using GameStore::appendChat;
    StoreStatus appendChat(std::string_view gameId, const std::string& line, std::size_t keep,
                           const ChatQuota& quota) override;
    ChatReadResult chatLines(std::string_view gameId) override;
    StoreStatus removePresence(std::string_view gameId) override;
    // Idempotency keys (store/memory_lobby_store.cpp); the expired ones go at each claim (a scan).
    KeyClaimResult claimKey(std::string_view key, const std::string& doc, std::chrono::seconds keep,
                            std::int64_t nowMs) override;

  private:
    PresenceTable presence_;
    std::mutex mutex_;
    std::unordered_map<std::string, GameRecord> games_;
    std::unordered_map<std::string, std::string> gameReviews_;    // by game id
    std::unordered_map<std::string, std::string> pastedReviews_;  // by review id
    std::mutex lobbyMutex_;
    std::unordered_map<std::string, SeekDoc> seeks_;                   // by seek id
    std::unordered_map<std::string, std::vector<std::string>> chats_;  // by game id
    struct KeptKey {
        std::string doc;
        std::int64_t expiresAtMs = 0;
    };
    std::unordered_map<std::string, KeptKey> keys_;  // idempotency keys
};

// Handlers are called on the publishing thread, outside the bus's lock (so a handler may
// subscribe or unsubscribe without deadlocking).
class MemoryEventBus final : public GameEventBus {
  public:
    SubscriptionId subscribe(const std::string& gameId, Handler handler) override;
    void unsubscribe(SubscriptionId id) override;
    void publish(const GameEvent& event) override;

  private:
    SubscriberRegistry subscribers_;
};

}  // namespace outpost::server
