// Move generation. Every generator produces only LEGAL moves: pins are handled with line masks,
// checks with a check mask (capture the checker or block it), king moves are tested against
// enemy attacks with the king removed from the occupancy, and en passant is verified by hand
// (the rare horizontal discovered check through both pawns).
//
// The kinds partition the legal moves so a staged move picker can ask for them one at a time:
//   Captures  captures (en passant included) and all promotions, capturing or not
//   Quiets    everything else (castling included)
//   Legal     Captures + Quiets
//   Evasions / NonEvasions  synonyms of Legal for positions in / not in check (kept for move
//             pickers that distinguish them)
// countLegalMoves() counts without building a list (perft's bulk counting at the leaves).
#pragma once

#include "core/position.h"
#include "core/types.h"

namespace outpost {

enum class GenType { Captures, Quiets, Evasions, NonEvasions, Legal };

template <GenType T>
void generate(const Position& pos, MoveList& list);

inline void generateLegal(const Position& pos, MoveList& list) {
    generate<GenType::Legal>(pos, list);
}

int countLegalMoves(const Position& pos);
bool hasLegalMove(const Position& pos);

}  // namespace outpost
