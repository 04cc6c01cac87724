// The few things the UCI front end needs from the rules of chess directly (not through a search):
// checking a `position` command, `d`, `go perft`, and a legal reply for `bestmove ... ponder`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace outpost::uci {

// The FEN as given, with what GUIs and tools commonly get wrong but cannot matter put right (each
// change is described in `warnings`): castling rights whose king or rook is not at home, an
// en-passant square no pawn can just have crossed, a missing fullmove number, fullmove 0. Anything
// else (a malformed FEN) comes back unchanged, for validatePosition to refuse.
std::string normalizeFen(const std::string& fen, std::vector<std::string>& warnings);

// Empty when the FEN (empty: the start position) and the moves from it are valid; else the reason.
std::string validatePosition(const std::string& fen, const std::vector<std::string>& moves);

// Some legal move for the side to move after `fen` + `moves` + `move`; empty if there is none.
std::string anyLegalReply(const std::string& fen, const std::vector<std::string>& moves,
                          const std::string& move);

// `go perft N`: moves with their subtree counts, then the total ("Nodes searched: N").
std::string perftReport(const std::string& fen, const std::vector<std::string>& moves, int depth);

// The legal moves in UCI notation (for the referee's `legalmoves` command).
std::vector<std::string> legalMoves(const std::string& fen, const std::vector<std::string>& moves);

// "ongoing", "checkmate", "stalemate", "fifty", "repetition" (threefold) or "insufficient".
std::string gameState(const std::string& fen, const std::vector<std::string>& moves);

// `eval`: the static evaluation of the position by term (eval/explain.h), as text.
std::string evaluationReport(const std::string& fen, const std::vector<std::string>& moves);

// `d`: the board, its FEN and key facts, as text.
std::string describePosition(const std::string& fen, const std::vector<std::string>& moves);

}  // namespace outpost::uci
