// What a review reviews: the start position, the moves (UCI), their SAN and every position of
// the game (positions[i] is before move i; the last is after the last move), computed once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "games/chess_rules.h"
#include "review/review_math.h"

namespace outpost::server::review {

struct ReviewGame {
    std::string initialFen;  // always a full FEN
    std::vector<std::string> moves;
    std::vector<std::string> san;
    std::vector<ChessState> positions;  // moves.size() + 1

    std::size_t total() const { return positions.size(); }
};

// The game from a FEN (empty: the start position) and legal UCI moves. Throws
// std::invalid_argument when they are not (callers validate first).
std::shared_ptr<const ReviewGame> makeReviewGame(const std::string& fen,
                                                 const std::vector<std::string>& uciMoves);

// What the search found in one position (or what the board says, when the game is over there).
struct PositionEval {
    Eval eval;                    // White's view
    std::string bestmove;         // UCI; empty when the position has no legal move
    std::vector<std::string> pv;  // UCI, from the position
    int depth = 0;
};

// The evaluation of a position with no legal moves (checkmate or stalemate); nothing when the
// game goes on there and a search is needed.
std::optional<PositionEval> boardEval(const ChessState& position);

}  // namespace outpost::server::review
