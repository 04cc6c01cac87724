#include "search/levels.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "core/fnv.h"

namespace outpost::search {
namespace {

// depth, nodes, candidates, margin (cp). Each level looks deeper and errs less than the one below.
constexpr std::array<LevelSettings, kMaxLevel> kLevels{{
    {1, 400, 6, 260},
    {2, 3000, 5, 150},
    {3, 5000, 5, 120},
    {4, 15000, 4, 80},
    {5, 50000, 4, 50},
    {7, 200000, 3, 30},
    {10, 1000000, 2, 15},
    {0, 0, 1, 0},
}};

// Ratings: each level's games against Stockfish 15.1 at UCI_Elo settings near its strength, both
// at the level's server move time, fitted by maximum likelihood (scripts/anchor_ratings.py) and
// rounded to 50, each above the one below. Net 15, 30 November (docs/strength.md, "Against
// Stockfish's UCI_Elo"): 1065 1343 1509 1682 1687 1903 2103 2461, each within 65-130 either
// way at 95% (level 8: 16 games, 2275-2633). Level 5 measured level with level 4 here (1687
// against 1682; net 13's run put it at 1812), so its label is the one step above level 4's.
constexpr std::array<int, kMaxLevel> kLevelElo{kMinElo, 1350, 1500, 1700,
                                               1750,    1900, 2100, kMaxElo};
static_assert(kLevelElo.front() == kMinElo && kLevelElo.back() == kMaxElo);

// FNV-1a over the game's name (core/fnv.h), then one SplitMix64 round with the ply folded in.
constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

std::uint64_t splitMix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Weight of a candidate: the closer to the best, the likelier (linear fall-off to the margin).
constexpr int kMinWeight = 1;

}  // namespace

LevelSettings levelSettings(int level) {
    if (level < kMinLevel || level > kMaxLevel) return LevelSettings{};
    return kLevels[static_cast<std::size_t>(level - 1)];
}

int levelElo(int level) {
    return kLevelElo[static_cast<std::size_t>(std::clamp(level, kMinLevel, kMaxLevel) - 1)];
}

int levelForElo(int elo) {
    const int target = std::clamp(elo, kMinElo, kMaxElo);
    int best = kMinLevel;
    for (int level = kMinLevel + 1; level <= kMaxLevel; ++level) {
        if (std::abs(levelElo(level) - target) < std::abs(levelElo(best) - target)) best = level;
    }
    return best;
}

std::uint64_t levelSeed(std::string_view game, std::size_t ply) {
    return splitMix(fnv1a(game) + kGoldenGamma * (static_cast<std::uint64_t>(ply) + 1));
}

std::size_t chooseLevelMove(const std::vector<int>& scoresCp, const LevelSettings& settings,
                            std::mt19937_64& rng) {
    if (scoresCp.size() <= 1 || settings.marginCp <= 0) return 0;
    const int best = scoresCp.front();
    std::vector<int> weights;
    for (const int s : scoresCp) {
        const int loss = best - s;
        weights.push_back(loss <= settings.marginCp ? std::max(kMinWeight, settings.marginCp - loss)
                                                    : 0);
    }
    std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
    return pick(rng);
}

}  // namespace outpost::search
