// What clients see of a stored game: the public Game JSON (derived fields recomputed from the
// moves), the PGN, and the clock readings at a given moment.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "games/chess_rules.h"
#include "store/game_record.h"

namespace outpost::server {

std::int64_t nowEpochMs();

// The position after all of the game's moves (the stored moves were legal when stored).
ChessState replay(const GameRecord& game);

// Remaining milliseconds of each side at `nowMs` (the side to move loses the time since its
// turn started).
struct ClockReading {
    std::int64_t whiteMs = 0;
    std::int64_t blackMs = 0;
};
ClockReading readClock(const ClockState& clock, bool whiteToMove, std::int64_t nowMs);
// When the side to move runs out of time (epoch milliseconds), for a running clock.
std::int64_t flagFallAtMs(const ClockState& clock, bool whiteToMove);

// The API's Game object (never the token).
nlohmann::json gameJson(const GameRecord& game, const ChessState& state, std::int64_t nowMs);
nlohmann::json gameJson(const GameRecord& game);

// {"type":"game","game":{...}}: what subscribers get at every change.
std::string gameEventPayload(const GameRecord& game);

// What a review adds to one move of a PGN export: a NAG ($2, $4, $6; 0: none), a comment
// ("[%eval 0.34]") and a variation (the better move and its line, SAN from the position before
// the move).
struct PgnAnnotation {
    int nag = 0;
    std::string comment;
    std::vector<std::string> variation;
};

// `annotations[i]`, when given, annotates move i (fewer than the moves: the rest are plain).
std::string gamePgn(const GameRecord& game, const std::vector<PgnAnnotation>& annotations = {});

}  // namespace outpost::server
