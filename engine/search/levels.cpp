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
// rounded to 50. Net 13 and issue 37's search, 28 November (docs/strength.md, "Against
// Stockfish's UCI_Elo"): 1057 1088 1476 1650 1812 1902 2109 2512, each within 80-110 either
// way at 95% (level 8: 10 games, 2293-2750). Level 2 re-spaced the same day (its old caps,
// 1,500 nodes, 6 candidates within 180 cp, played at 1088, hardly above level 1): 1300
// [1245, 1353] over 160 games.
constexpr std::array<int, kMaxLevel> kLevelElo{kMinElo, 1300, 1500, 1650,
                                               1800,    1900, 2100, kMaxElo};
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
