// Static exchange evaluation: the material outcome of the capture sequence on a move's
// destination square when both sides always recapture with their least valuable attacker and may
// stop whenever continuing would lose. X-ray attackers behind the capturing pieces join in.
// Uses kSeeValue; castling counts as 0, en passant as winning a pawn, promotions gain the
// promoted piece's value minus a pawn. Pins are ignored (as usual for SEE).
#pragma once

#include "core/position.h"
#include "core/types.h"

namespace outpost {

// Is the exchange value of m at least threshold? (Faster than see(); what pruning needs.)
bool seeGe(const Position& pos, Move m, int threshold);

// The exchange value of m in centipawns.
int see(const Position& pos, Move m);

}  // namespace outpost
