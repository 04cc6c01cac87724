// What the request-side fuzzers share: a fresh in-process server context per input (memory store,
// scripted searchers, no sockets) holding one game between people, a store that counts the
// writes it accepts, and the placeholders that let an input name that game.
//
// Placeholders in an input: $GAME (the game's id), $TOKEN (White's player token), $INVITE (the
// invite token, Black's seat). A fresh context per input keeps every input reproducible alone.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "store/memory_game_store.h"
#include "test_support.h"

namespace outpost::fuzz {

// A memory store that counts the creates and updates it accepted.
class CountingStore final : public server::GameStore {
  public:
    server::StoreStatus create(const server::GameRecord& game) override {
        return counted(inner_.create(game));
    }
    server::StoreReadResult get(std::string_view id) override { return inner_.get(id); }
    server::StoreManyResult getMany(const std::vector<std::string>& ids) override {
        return inner_.getMany(ids);
    }
    server::StoreStatus update(const server::GameRecord& game,
                               std::uint64_t expectedVersion) override {
        return counted(inner_.update(game, expectedVersion));
    }
    std::uint64_t count() override { return inner_.count(); }
    // Reviews and clocks as the memory store keeps them (the base class's defaults would say
    // the store is unavailable: a 503 that is the harness's, not the server's).
    server::StoreStatus putGameReview(std::string_view gameId, const std::string& doc) override {
        return counted(inner_.putGameReview(gameId, doc));
    }
    server::StoreDocResult getGameReview(std::string_view gameId) override {
        return inner_.getGameReview(gameId);
    }
    server::StoreStatus putReview(std::string_view reviewId, const std::string& doc) override {
        return counted(inner_.putReview(reviewId, doc));
    }
    server::StoreDocResult getReview(std::string_view reviewId) override {
        return inner_.getReview(reviewId);
    }
    server::StoreManyResult runningClocks(std::int64_t untilMs, std::size_t limit) override {
        return inner_.runningClocks(untilMs, limit);
    }
    // Presence, seeks and chat as the memory store keeps them too. A presence heartbeat is a
    // replica's own bookkeeping (a GET writes one), so it is not counted as a change.
    server::StoreStatus putPresence(std::string_view gameId,
                                    const server::PresenceEntry& entry) override {
        return inner_.putPresence(gameId, entry);
    }
    server::PresenceReadResult getPresence(std::string_view gameId) override {
        return inner_.getPresence(gameId);
    }
    server::StoreStatus removePresence(std::string_view gameId) override {
        return inner_.removePresence(gameId);
    }
    using server::GameStore::createSeek;
    server::StoreStatus createSeek(const server::SeekDoc& seek,
                                   const server::SeekQuota& quota) override {
        return counted(inner_.createSeek(seek, quota));
    }
    server::KeyClaimResult claimKey(std::string_view key, const std::string& doc,
                                    std::chrono::seconds keep, std::int64_t nowMs) override {
        return inner_.claimKey(key, doc, keep, nowMs);
    }
    server::SeekReadResult getSeek(std::string_view id) override { return inner_.getSeek(id); }
    server::StoreStatus updateSeek(const server::SeekDoc& seek,
                                   std::uint64_t expectedVersion) override {
        return counted(inner_.updateSeek(seek, expectedVersion));
    }
    server::SeekListResult openSeeks(std::int64_t nowMs, std::size_t limit) override {
        return inner_.openSeeks(nowMs, limit);
    }
    using server::GameStore::appendChat;
    server::StoreStatus appendChat(std::string_view gameId, const std::string& line,
                                   std::size_t keep, const server::ChatQuota& quota) override {
        return counted(inner_.appendChat(gameId, line, keep, quota));
    }
    server::ChatReadResult chatLines(std::string_view gameId) override {
        return inner_.chatLines(gameId);
    }

    std::uint64_t writes() const { return writes_.load(); }

  private:
    server::StoreStatus counted(server::StoreStatus status) {
        if (status == server::StoreStatus::Ok) writes_.fetch_add(1);
        return status;
    }
    server::MemoryGameStore inner_;
    std::atomic<std::uint64_t> writes_{0};
};

// A context with one game. The searchers are scripted and answer at once.
struct FuzzServer {
    FuzzServer()
        : store(std::make_shared<CountingStore>()), fixture(server::testing::testConfig(), store) {
        fixture.control->perIteration = std::chrono::milliseconds(0);
        const auto [id, token] = fixture.createGame();
        gameId = id;
        playerToken = token;
        inviteToken = fixture.lastInviteToken;
    }

    std::string substitute(std::string_view text) const {
        std::string out(text);
        replaceAll(out, "$GAME", gameId);
        replaceAll(out, "$TOKEN", playerToken);
        replaceAll(out, "$INVITE", inviteToken);
        return out;
    }

    std::shared_ptr<CountingStore> store;
    server::testing::HandlerFixture fixture;
    std::string gameId, playerToken, inviteToken;

  private:
    static void replaceAll(std::string& text, std::string_view from, const std::string& to) {
        for (std::size_t at = text.find(from); at != std::string::npos;
             at = text.find(from, at + to.size())) {
            text.replace(at, from.size(), to);
        }
    }
};

// An invariant broke: say which, with the input's own text, and abort (libFuzzer saves the input).
[[noreturn]] inline void broken(const char* invariant, std::string_view detail) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n%.*s\n", invariant,
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
}

}  // namespace outpost::fuzz
