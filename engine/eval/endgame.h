// Endgame scaling: how much of the endgame score a material balance can actually win.
//
// A score of +2 pawns with opposite-coloured bishops, or a knight up with no pawns left, is not
// the advantage it seems. The evaluation multiplies the endgame part of its score by
// endgameScale(...) / kScaleNormal (64), with 0 for known draws.
#pragma once

namespace outpost {
class Position;
}

namespace outpost::eval {

// `egScore` is the endgame sum from White's side; its sign picks the side trying to win.
int endgameScale(const Position& pos, int egScore);

}  // namespace outpost::eval
