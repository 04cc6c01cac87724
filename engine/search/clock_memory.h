// Adaptive move overhead: the time each move costs that the engine cannot see (a GUI's pipe,
// process scheduling on a busy machine, a server's queue).
//
// When a clock search continues the game of an earlier one (same game, same start, two more
// moves, same side), the clock tells how much was lost: earlier clock + increment - time searched
// - current clock. The largest recent loss (decaying by a quarter per move) is what the engine
// adds to its configured move overhead. The score the last move ended with is kept too: time
// management spends more when the score has fallen since (timeman.h, fallingEvalFactor).
//
// What is remembered is keyed by game: an engine that serves many games (a server's pool) never
// mistakes another game that reached the same FEN, move count and side for the one it played.
// UCI has one game at a time, named "". A bounded number of games is kept; the least recently
// searched is forgotten first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"

namespace outpost::search {

// Which move of which game a clock search plays.
struct ClockKey {
    std::string game;  // "" for the one game of a UCI session
    std::string fen;   // the game's start
    std::size_t movesPlayed = 0;
    Color side = White;
};

class ClockMemory {
  public:
    static constexpr std::size_t kMaxGames = 64;
    static constexpr std::int64_t kMaxLatencyMs = 1000;

    // The latency to allow for at this move (0 unless it continues the game's remembered move;
    // a ponder search never does: its clock starts later).
    std::int64_t unseenLatency(const ClockKey& key, std::int64_t clockMs, bool pondering);
    // The score (the side to move's, internal units) this side's last move in the game ended
    // with, when this search continues it (as for unseenLatency); none otherwise.
    std::optional<int> lastScore(const ClockKey& key);
    // What this move's search saw and used, and the score it ended with; a move that gives no
    // usable reading (no clock, pondering, moves to go) makes the game's next move start afresh.
    void remember(const ClockKey& key, bool usable, std::int64_t clockMs, std::int64_t incMs,
                  std::int64_t usedMs, std::optional<int> score = std::nullopt);
    void clear() { games_.clear(); }

  private:
    struct Game {
        ClockKey key;
        bool valid = false;
        std::int64_t clockMs = 0, incMs = 0, usedMs = 0;
        std::int64_t latencyMs = 0;
        std::optional<int> score;
        std::uint64_t lastUse = 0;
    };
    Game& entryFor(const std::string& game);
    // Whether a search at key plays the move after g's (same game and start, same side, two
    // plies on).
    static bool continues(const Game& g, const ClockKey& key);

    std::vector<Game> games_;
    std::uint64_t uses_ = 0;
};

}  // namespace outpost::search
