#include "search/clock_memory.h"

#include <algorithm>

namespace outpost::search {

ClockMemory::Game& ClockMemory::entryFor(const std::string& game) {
    ++uses_;
    auto it = std::find_if(games_.begin(), games_.end(),
                           [&](const Game& g) { return g.key.game == game; });
    if (it == games_.end()) {
        if (games_.size() < kMaxGames) {
            games_.emplace_back();
            it = games_.end() - 1;
        } else {
            it = std::min_element(games_.begin(), games_.end(), [](const Game& a, const Game& b) {
                return a.lastUse < b.lastUse;
            });
            *it = Game{};
        }
        it->key.game = game;
    }
    it->lastUse = uses_;
    return *it;
}

bool ClockMemory::continues(const Game& g, const ClockKey& key) {
    return g.valid && g.key.side == key.side && g.key.fen == key.fen &&
           g.key.movesPlayed + 2 == key.movesPlayed;
}

std::int64_t ClockMemory::unseenLatency(const ClockKey& key, std::int64_t clockMs, bool pondering) {
    Game& g = entryFor(key.game);
    if (pondering || !continues(g, key)) {
        g.latencyMs = 0;
        return 0;
    }
    const std::int64_t lost = g.clockMs + g.incMs - g.usedMs - clockMs;
    g.latencyMs = std::max<std::int64_t>(std::clamp<std::int64_t>(lost, 0, kMaxLatencyMs),
                                         g.latencyMs * 3 / 4);
    return g.latencyMs;
}

std::optional<int> ClockMemory::lastScore(const ClockKey& key) {
    const Game& g = entryFor(key.game);
    return continues(g, key) ? g.score : std::nullopt;
}

void ClockMemory::remember(const ClockKey& key, bool usable, std::int64_t clockMs,
                           std::int64_t incMs, std::int64_t usedMs, std::optional<int> score) {
    Game& g = entryFor(key.game);
    g.valid = usable;
    if (!usable) return;
    g.key = key;
    g.clockMs = clockMs;
    g.incMs = incMs;
    g.usedMs = usedMs;
    g.score = score;
}

}  // namespace outpost::search
