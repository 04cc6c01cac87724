#include "games/chess_rules.h"

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"

namespace outpost::server {

const char* const ChessState::kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct ChessState::Impl {
    Position position;
};

ChessState::ChessState(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ChessState::ChessState(const ChessState& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
ChessState& ChessState::operator=(const ChessState& other) {
    if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
    return *this;
}
ChessState::ChessState(ChessState&&) noexcept = default;
ChessState& ChessState::operator=(ChessState&&) noexcept = default;
ChessState::~ChessState() = default;

std::optional<ChessState> ChessState::load(std::string_view fen,
                                           const std::vector<std::string>& moves,
                                           std::string& error, bool& badMove) {
    badMove = false;
    std::optional<Position> position = fen.empty()
                                           ? std::optional<Position>(Position::startPosition())
                                           : Position::fromFen(fen, &error);
    if (!position) {
        if (error.empty()) error = "unreadable FEN";
        return std::nullopt;
    }
    for (std::size_t i = 0; i < moves.size(); ++i) {
        std::string reason;
        auto move = parseMove(*position, moves[i], &reason);
        if (!move) {
            badMove = true;
            error = "move " + std::to_string(i + 1) + " '" + moves[i] +
                    "': " + (reason.empty() ? std::string("illegal") : reason);
            return std::nullopt;
        }
        position->makeMove(*move);
    }
    auto impl = std::make_unique<Impl>();
    impl->position = std::move(*position);
    return ChessState(std::move(impl));
}

std::string ChessState::fen() const {
    return impl_->position.toFen();
}
bool ChessState::whiteToMove() const {
    return impl_->position.sideToMove() == White;
}
bool ChessState::inCheck() const {
    return impl_->position.inCheck();
}
int ChessState::fullmoveNumber() const {
    return impl_->position.fullmoveNumber();
}

std::vector<std::string> ChessState::legalMoves() const {
    MoveList list;
    generateLegal(impl_->position, list);
    std::vector<std::string> moves;
    moves.reserve(list.size());
    for (const ScoredMove& scored : list) moves.push_back(moveToUci(scored.move));
    return moves;
}

ParsedMove ChessState::parse(std::string_view text) const {
    std::string reason;
    auto move = parseMove(impl_->position, text, &reason);
    if (!move) return {"", reason.empty() ? std::string("illegal move") : reason};
    return {moveToUci(*move), ""};
}

std::string ChessState::san(const std::string& uci) const {
    auto move = moveFromUci(impl_->position, uci);
    return move ? moveToSan(impl_->position, *move) : uci;
}

void ChessState::play(const std::string& uci) {
    auto move = moveFromUci(impl_->position, uci);
    if (!move) throw std::invalid_argument("illegal move " + uci);
    impl_->position.makeMove(*move);
}

std::vector<std::string> ChessState::sanLine(const std::vector<std::string>& uciMoves) const {
    Position walker = impl_->position;
    std::vector<std::string> line;
    line.reserve(uciMoves.size());
    for (const std::string& uci : uciMoves) {
        auto move = moveFromUci(walker, uci);
        if (!move) break;
        line.push_back(moveToSan(walker, *move));
        walker.makeMove(*move);
    }
    return line;
}

std::optional<GameEnd> ChessState::outcome() const {
    const bool whiteMoves = whiteToMove();
    switch (impl_->position.gameStatus()) {
        case GameStatus::Ongoing:
            return std::nullopt;
        case GameStatus::Checkmate:
            return GameEnd{"checkmate", whiteMoves ? "0-1" : "1-0", "",
                           whiteMoves ? "black" : "white"};
        case GameStatus::Stalemate:
            return GameEnd{"stalemate", "1/2-1/2", "stalemate", ""};
        case GameStatus::ThreefoldRepetition:
            return GameEnd{"draw", "1/2-1/2", "threefold_repetition", ""};
        case GameStatus::FiftyMoves:
            return GameEnd{"draw", "1/2-1/2", "fifty_moves", ""};
        case GameStatus::InsufficientMaterial:
            return GameEnd{"draw", "1/2-1/2", "insufficient_material", ""};
    }
    return std::nullopt;
}

bool ChessState::canMate(bool white) const {
    const Position& p = impl_->position;
    const Color us = white ? White : Black;
    const Color them = white ? Black : White;
    if (p.count(us, Pawn) + p.count(us, Rook) + p.count(us, Queen) > 0) return true;
    const int minors = p.count(us, Knight) + p.count(us, Bishop);
    if (minors >= 2) return true;
    // A lone minor piece mates only with the help of the opponent's own pieces.
    const int theirPieces = p.count(them, Pawn) + p.count(them, Knight) + p.count(them, Bishop) +
                            p.count(them, Rook) + p.count(them, Queen);
    return minors == 1 && theirPieces > 0;
}

}  // namespace outpost::server
