#include "core/perft.h"

#include "core/movegen.h"

namespace outpost {

namespace {

std::uint64_t perftRecursive(Position& pos, int depth) {
    if (depth == 1) return std::uint64_t(countLegalMoves(pos));
    MoveList list;
    generateLegal(pos, list);
    std::uint64_t nodes = 0;
    for (const ScoredMove& sm : list) {
        pos.makeMove(sm.move);
        nodes += perftRecursive(pos, depth - 1);
        pos.unmakeMove();
    }
    return nodes;
}

}  // namespace

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    return perftRecursive(pos, depth);
}

std::vector<std::pair<Move, std::uint64_t>> perftDivide(Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> result;
    MoveList list;
    generateLegal(pos, list);
    for (const ScoredMove& sm : list) {
        std::uint64_t nodes = 1;
        if (depth > 1) {
            pos.makeMove(sm.move);
            nodes = perftRecursive(pos, depth - 1);
            pos.unmakeMove();
        }
        result.emplace_back(sm.move, nodes);
    }
    return result;
}

}  // namespace outpost
