#include "review/review_game.h"

#include <stdexcept>

namespace outpost::server::review {

std::shared_ptr<const ReviewGame> makeReviewGame(const std::string& fen,
                                                 const std::vector<std::string>& uciMoves) {
    std::string error;
    bool badMove = false;
    std::optional<ChessState> state = ChessState::load(fen, {}, error, badMove);
    if (!state) throw std::invalid_argument("invalid FEN: " + error);
    auto game = std::make_shared<ReviewGame>();
    game->initialFen = state->fen();
    game->moves = uciMoves;
    game->positions.reserve(uciMoves.size() + 1);
    game->positions.push_back(*state);
    for (const std::string& uci : uciMoves) {
        game->san.push_back(state->san(uci));
        state->play(uci);
        game->positions.push_back(*state);
    }
    return game;
}

std::optional<PositionEval> boardEval(const ChessState& position) {
    if (!position.legalMoves().empty()) return std::nullopt;
    PositionEval eval;
    eval.eval = position.inCheck() ? Eval::checkmated(position.whiteToMove()) : Eval::cp(0);
    return eval;
}

}  // namespace outpost::server::review
