// A stored Review as PGN annotations (GET /api/v1/games/{id}/pgn?review=1): after each reviewed
// move an [%eval] comment with the evaluation after it (pawns, or #N / #-N for a mate, White's
// view), the NAG of its class ($6 ?! inaccuracy, $2 ? mistake, $4 ?? blunder) and, when the
// engine preferred another move, that move and its line as a variation.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "games/pgn_writer.h"
#include "store/game_record.h"

namespace outpost::server::review {

inline constexpr int kNagInaccuracy = 6;
inline constexpr int kNagMistake = 2;
inline constexpr int kNagBlunder = 4;

// "0.34", "-1.20", "#3", "#-3" from a Score object ({cp} or {mate}); empty for a checkmate on
// the board (mate 0), which needs no evaluation.
std::string pgnEval(const nlohmann::json& score);

// Annotations for `game`'s moves from `review` (a Review object). Nothing when the review is of
// other moves than the game's (its moves must begin the game's).
std::vector<PgnAnnotation> pgnAnnotations(const GameRecord& game, const nlohmann::json& review);

}  // namespace outpost::server::review
