// Perft: the number of leaf nodes of the legal move tree to a fixed depth. Leaves are counted in
// bulk: at depth 1 the legal moves are counted, not played.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"

namespace outpost {

std::uint64_t perft(Position& pos, int depth);

// Per root move counts (the "divide" of `go perft`), in generation order.
std::vector<std::pair<Move, std::uint64_t>> perftDivide(Position& pos, int depth);

}  // namespace outpost
