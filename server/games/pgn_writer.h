// The one PGN writer of the server: a stored game as PGN, for the game's export and, with a
// review's annotations, for the reviewed export (review/review_pgn.h makes the annotations).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/game_record.h"

namespace outpost::server {

// What a review adds to one move of a PGN export: a NAG ($2, $4, $6; 0: none), a comment
// ("[%eval 0.34]") and a variation (the better move and its line, SAN from the position before
// the move).
struct PgnAnnotation {
    int nag = 0;
    std::string comment;
    std::vector<std::string> variation;
};

// "0:05:00": a clock's remaining time as PGN's [%clk] writes it (whole seconds, rounded down).
std::string pgnClock(std::int64_t remainingMs);
// The TimeControl tag's value: "300+2" (seconds + increment seconds), "-" without a clock.
std::string pgnTimeControl(const GameRecord& game);

// The game's PGN: the Seven Tag Roster, TimeControl, SetUp/FEN and Termination where they apply,
// each move's clock as { [%clk h:mm:ss] } when the game kept it, and `annotations[i]`, when given,
// on move i (fewer than the moves: the rest are plain).
std::string gamePgn(const GameRecord& game, const std::vector<PgnAnnotation>& annotations = {});

}  // namespace outpost::server
