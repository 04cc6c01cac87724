// MemoryGameStore's lobby seeks, chat lines and idempotency keys (store/game_store.h).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "store/memory_game_store.h"

namespace outpost::server {

StoreStatus MemoryGameStore::createSeek(const SeekDoc& seek, const SeekQuota& quota) {
    std::lock_guard lock(lobbyMutex_);
    if (quota.maxOpen > 0 && !seeks_.contains(seek.id)) {
        const auto held = std::count_if(seeks_.begin(), seeks_.end(), [&](const auto& entry) {
            const SeekDoc& other = entry.second;
            return other.open && other.clientKey == seek.clientKey &&
                   other.liveUntilMs >= quota.nowMs && other.expiresAtMs >= quota.nowMs;
        });
        if (static_cast<std::size_t>(held) >= quota.maxOpen) return StoreStatus::LimitReached;
    }
    return seeks_.try_emplace(seek.id, seek).second ? StoreStatus::Ok : StoreStatus::AlreadyExists;
}

SeekReadResult MemoryGameStore::getSeek(std::string_view id) {
    std::lock_guard lock(lobbyMutex_);
    auto it = seeks_.find(std::string(id));
    if (it == seeks_.end()) return {StoreStatus::NotFound, std::nullopt};
    return {StoreStatus::Ok, it->second};
}

StoreStatus MemoryGameStore::updateSeek(const SeekDoc& seek, std::uint64_t expectedVersion) {
    std::lock_guard lock(lobbyMutex_);
    auto it = seeks_.find(seek.id);
    if (it == seeks_.end()) return StoreStatus::NotFound;
    if (it->second.version != expectedVersion) return StoreStatus::VersionConflict;
    it->second = seek;
    return StoreStatus::Ok;
}

SeekListResult MemoryGameStore::openSeeks(std::int64_t nowMs, std::size_t limit) {
    SeekListResult result;
    std::lock_guard lock(lobbyMutex_);
    std::erase_if(seeks_, [&](const auto& entry) { return entry.second.expiresAtMs < nowMs; });
    for (const auto& [id, seek] : seeks_)
        if (seek.open) result.seeks.push_back(seek);
    std::sort(result.seeks.begin(), result.seeks.end(),
              [](const SeekDoc& a, const SeekDoc& b) { return a.createdAtMs < b.createdAtMs; });
    if (result.seeks.size() > limit) result.seeks.resize(limit);
    return result;
}

StoreStatus MemoryGameStore::appendChat(std::string_view gameId, const std::string& line,
                                        std::size_t keep, const ChatQuota& quota) {
    std::lock_guard lock(lobbyMutex_);
    std::vector<std::string>& lines = chats_[std::string(gameId)];
    if (quota.maxLines > 0) {
        const auto recent = std::count_if(lines.begin(), lines.end(), [&](const std::string& kept) {
            const nlohmann::json doc = nlohmann::json::parse(kept, nullptr, false);
            return doc.is_object() && doc.value("side", "") == quota.side &&
                   doc.value("at", std::int64_t{0}) > quota.sinceMs;
        });
        if (static_cast<std::size_t>(recent) >= quota.maxLines) return StoreStatus::LimitReached;
    }
    lines.push_back(line);
    if (lines.size() > keep)
        lines.erase(lines.begin(),
                    lines.begin() + static_cast<std::ptrdiff_t>(lines.size() - keep));
    return StoreStatus::Ok;
}

ChatReadResult MemoryGameStore::chatLines(std::string_view gameId) {
    std::lock_guard lock(lobbyMutex_);
    auto it = chats_.find(std::string(gameId));
    if (it == chats_.end()) return {};
    return {StoreStatus::Ok, it->second};
}

KeyClaimResult MemoryGameStore::claimKey(std::string_view key, const std::string& doc,
                                         std::chrono::seconds keep, std::int64_t nowMs) {
    std::lock_guard lock(lobbyMutex_);
    std::erase_if(keys_, [&](const auto& entry) { return entry.second.expiresAtMs <= nowMs; });
    const std::int64_t keepMs = std::chrono::duration_cast<std::chrono::milliseconds>(keep).count();
    auto [it, claimed] = keys_.try_emplace(std::string(key), KeptKey{doc, nowMs + keepMs});
    return {StoreStatus::Ok, claimed, it->second.doc};
}

}  // namespace outpost::server
