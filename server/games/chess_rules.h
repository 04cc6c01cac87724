// The few chess facts the server needs, on top of engine/core: load a position from FEN + moves,
// parse a client's move (UCI or SAN), format SAN, list legal moves, and tell how a game ended.
// Keeps the rest of the server independent of the core's types.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace outpost::server {

struct GameEnd {
    std::string status;  // checkmate | stalemate | draw
    std::string result;  // 1-0 | 0-1 | 1/2-1/2
    std::string reason;  // for draws: threefold_repetition | fifty_moves | insufficient_material |
                         // stalemate
    std::string winner;  // white | black | empty
};

struct ParsedMove {
    std::string uci;    // empty when the move was rejected
    std::string error;  // "illegal" or "ambiguous" with details, when rejected
};

class ChessState {
  public:
    ChessState(const ChessState& other);
    ChessState& operator=(const ChessState& other);
    ChessState(ChessState&&) noexcept;
    ChessState& operator=(ChessState&&) noexcept;
    ~ChessState();

    // The start position when fen is empty. On failure returns nothing and sets error to the
    // reason (the FEN parser's for a bad FEN; "move N 'x' is illegal" for a bad move).
    // `badMove` tells which of the two failed.
    static std::optional<ChessState> load(std::string_view fen,
                                          const std::vector<std::string>& moves, std::string& error,
                                          bool& badMove);

    std::string fen() const;
    bool whiteToMove() const;
    bool inCheck() const;
    std::vector<std::string> legalMoves() const;  // UCI
    // UCI or SAN.
    ParsedMove parse(std::string_view text) const;
    std::string san(const std::string& uci) const;  // of a legal move
    void play(const std::string& uci);              // a legal move
    // SAN of a line of UCI moves played from here, stopping at the first illegal one.
    std::vector<std::string> sanLine(const std::vector<std::string>& uciMoves) const;
    // Checkmate, stalemate, or a draw by rule; nothing while the game goes on.
    std::optional<GameEnd> outcome() const;
    // Whether `white` (or black) has mating material at all (for a flag fall).
    bool canMate(bool white) const;
    int fullmoveNumber() const;

    static const char* const kStartFen;

  private:
    struct Impl;
    explicit ChessState(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace outpost::server
