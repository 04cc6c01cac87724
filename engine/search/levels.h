// Playing levels for people (1 = beginner ... 8 = strongest), in the spirit of Lichess's AI levels.
//
// A level limits how far the engine looks (depth and nodes) and then picks, among the root moves
// the search scored (MultiPV lines), one whose score is within a margin of the best, with a seeded
// random choice that favours better moves. Even level 1 never picks a move that loses more than
// its margin against the best it saw, so it plays legal, sensible-looking chess that a beginner
// can beat, not random moves.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace outpost::search {

struct LevelSettings {
    int depth = 0;            // 0: no limit from the level
    std::uint64_t nodes = 0;  // 0: no limit from the level
    int multiPv = 1;          // candidate moves considered
    int marginCp = 0;         // how much worse than the best a chosen move may be
};

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 8;

// Settings for level 1..8 (anything else: full strength, no limits).
LevelSettings levelSettings(int level);

// UCI_Elo (with UCI_LimitStrength) is served by the levels: each level has a rating, from kMinElo
// (level 1) to kMaxElo (level 8, full strength), measured against Stockfish 15.1 at its
// UCI_Elo settings, each level at its server move time (docs/strength.md, "Against Stockfish's
// UCI_Elo").
inline constexpr int kMinElo = 1050;
inline constexpr int kMaxElo = 2450;

// Rating of level 1..8.
int levelElo(int level);

// The level whose rating is nearest to elo (clamped to kMinElo..kMaxElo); a tie goes to
// the weaker level.
int levelForElo(int elo);

// A seed for a level's choice at one position of one game (SearchRequest::seed): the same game
// and ply give the same seed, so replaying a position gives the same move whatever the engine
// that serves it searched before.
std::uint64_t levelSeed(std::string_view game, std::size_t ply);

// Index of the chosen candidate. scoresCp are the candidates' scores (best first, mates mapped to
// large centipawn values by the caller).
std::size_t chooseLevelMove(const std::vector<int>& scoresCp, const LevelSettings& settings,
                            std::mt19937_64& rng);

}  // namespace outpost::search
