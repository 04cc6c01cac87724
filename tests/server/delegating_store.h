// A GameStore that passes every call to another store (a MemoryGameStore of its own unless one is
// given): the base of the tests' scripted stores, which override only the calls they hold, fail
// or count, and so keep reviews, presence, seeks, chat and clocks working as the store under them.
#pragma once

#include <memory>
#include <utility>

#include "store/game_store.h"
#include "store/memory_game_store.h"

namespace outpost::server::testing {

class DelegatingStore : public GameStore {
  public:
    DelegatingStore() : inner_(std::make_shared<MemoryGameStore>()) {}
    explicit DelegatingStore(std::shared_ptr<GameStore> inner) : inner_(std::move(inner)) {}

    StoreStatus create(const GameRecord& game) override { return inner_->create(game); }
    StoreReadResult get(std::string_view id) override { return inner_->get(id); }
    StoreManyResult getMany(const std::vector<std::string>& ids) override {
        return inner_->getMany(ids);
    }
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override {
        return inner_->update(game, expectedVersion);
    }
    std::uint64_t count() override { return inner_->count(); }
    bool healthy() override { return inner_->healthy(); }
    std::optional<std::int64_t> storeTimeMs() override { return inner_->storeTimeMs(); }
    FailoverCounters failoverCounters() override { return inner_->failoverCounters(); }

    StoreStatus putGameReview(std::string_view gameId, const std::string& doc) override {
        return inner_->putGameReview(gameId, doc);
    }
    StoreDocResult getGameReview(std::string_view gameId) override {
        return inner_->getGameReview(gameId);
    }
    StoreStatus putReview(std::string_view reviewId, const std::string& doc) override {
        return inner_->putReview(reviewId, doc);
    }
    StoreDocResult getReview(std::string_view reviewId) override {
        return inner_->getReview(reviewId);
    }

    StoreStatus putPresence(std::string_view gameId, const PresenceEntry& entry) override {
        return inner_->putPresence(gameId, entry);
    }
    PresenceReadResult getPresence(std::string_view gameId) override {
        return inner_->getPresence(gameId);
    }
    StoreStatus removePresence(std::string_view gameId) override {
        return inner_->removePresence(gameId);
    }

    using GameStore::createSeek;
    StoreStatus createSeek(const SeekDoc& seek, const SeekQuota& quota) override {
        return inner_->createSeek(seek, quota);
    }
    SeekReadResult getSeek(std::string_view id) override { return inner_->getSeek(id); }
    StoreStatus updateSeek(const SeekDoc& seek, std::uint64_t expectedVersion) override {
        return inner_->updateSeek(seek, expectedVersion);
    }
    SeekListResult openSeeks(std::int64_t nowMs, std::size_t limit) override {
        return inner_->openSeeks(nowMs, limit);
    }

    using GameStore::appendChat;
    StoreStatus appendChat(std::string_view gameId, const std::string& line, std::size_t keep,
                           const ChatQuota& quota) override {
        return inner_->appendChat(gameId, line, keep, quota);
    }
    ChatReadResult chatLines(std::string_view gameId) override { return inner_->chatLines(gameId); }

    KeyClaimResult claimKey(std::string_view key, const std::string& doc, std::chrono::seconds keep,
                            std::int64_t nowMs) override {
        return inner_->claimKey(key, doc, keep, nowMs);
    }

    StoreManyResult runningClocks(std::int64_t untilMs, std::size_t limit) override {
        return inner_->runningClocks(untilMs, limit);
    }

    // The store underneath, for a test that reads or writes past the overrides (as another
    // replica would).
    GameStore& inner() { return *inner_; }

  private:
    std::shared_ptr<GameStore> inner_;
};

}  // namespace outpost::server::testing
