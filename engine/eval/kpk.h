// King and pawn against king: an exact win/draw table, built once on first use.
//
// The table is computed by retrograde analysis when first needed (a few milliseconds) and never
// changes afterwards, so every thread may probe it. Squares are 0..63 with a1 = 0.
#pragma once

namespace outpost::eval {

// True when the side with the pawn wins with best play. `pawnSideToMove` says whose turn it is;
// squares are given from the pawn side's point of view as they stand on the board; `pawnIsWhite`
// says which colour owns the pawn (Black's squares are mirrored internally).
bool kpkIsWin(bool pawnIsWhite, int strongKing, int pawn, int weakKing, bool pawnSideToMove);

// Builds the table now (it is otherwise built at the first probe, which may be mid-search).
void kpkPrepare();

}  // namespace outpost::eval
