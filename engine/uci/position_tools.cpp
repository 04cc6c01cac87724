#include "uci/position_tools.h"

#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/position.h"
#include "eval/evaluate.h"
#include "eval/explain.h"

namespace outpost::uci {

namespace {

// The position after `moves` from `fen`; nullopt with the reason in `error`.
std::optional<Position> replay(const std::string& fen, const std::vector<std::string>& moves,
                               std::string& error) {
    std::optional<Position> pos = fen.empty() ? std::optional<Position>(Position::startPosition())
                                              : Position::fromFen(fen, &error);
    if (!pos) {
        if (error.empty()) error = "invalid FEN";
        error = "invalid FEN '" + fen + "': " + error;
        return std::nullopt;
    }
    for (const std::string& text : moves) {
        std::string reason;
        const std::optional<Move> move = moveFromUci(*pos, text, &reason);
        if (!move) {
            error = reason.empty() ? "illegal move '" + text + "'" : reason;
            return std::nullopt;
        }
        pos->makeMove(*move);
    }
    return pos;
}

}  // namespace

std::string normalizeFen(const std::string& fen, std::vector<std::string>& warnings) {
    std::istringstream stream{fen};
    std::vector<std::string> fields;
    for (std::string field; stream >> field;) fields.push_back(field);
    if (fields.size() < 4 || fields.size() > 6) return fen;
    // The board alone, read as the engine reads it (without the fields put right below).
    const std::optional<Position> board =
        Position::fromFen(fields[0] + " " + fields[1] + " - - 0 1");
    if (!board) return fen;
    const auto pieceAt = [&](int file, int rank) { return board->pieceOn(makeSquare(file, rank)); };
    const std::string original = fields[2] + " " + fields[3];

    // Castling rights whose king or rook is not on its square can never be used: dropped.
    if (fields[2] != "-" && fields[2].find_first_not_of("KQkq") == std::string::npos) {
        std::string kept;
        for (const char right : fields[2]) {
            const Color side = right == 'K' || right == 'Q' ? White : Black;
            const int rank = side == White ? 0 : 7;
            const int rookFile = (right == 'K' || right == 'k') ? 7 : 0;
            if (pieceAt(4, rank) == makePiece(side, King) &&
                pieceAt(rookFile, rank) == makePiece(side, Rook) &&
                kept.find(right) == std::string::npos) {
                kept += right;
            }
        }
        fields[2] = kept.empty() ? "-" : kept;
    }
    // An en-passant square no pawn can just have crossed (some GUIs write one after any double
    // push, or keep it from an earlier position): dropped.
    const std::string& ep = fields[3];
    if (ep.size() == 2 && ep[0] >= 'a' && ep[0] <= 'h' && ep[1] >= '1' && ep[1] <= '8') {
        const bool whiteToMove = fields[1] == "w";
        const int file = ep[0] - 'a';
        const int rank = ep[1] - '1';
        const bool plausible =
            rank == (whiteToMove ? 5 : 2) && pieceAt(file, rank) == NoPiece &&
            pieceAt(file, whiteToMove ? 6 : 1) == NoPiece &&
            pieceAt(file, whiteToMove ? 4 : 3) == makePiece(whiteToMove ? Black : White, Pawn);
        if (!plausible) fields[3] = "-";
    }
    if (fields[2] + " " + fields[3] != original) {
        warnings.push_back("FEN castling/en-passant fields '" + original +
                           "' name pieces that are not there; read as '" + fields[2] + " " +
                           fields[3] + "'");
    }
    // An en-passant square says a pawn has just moved two squares, which sets the halfmove clock
    // to 0: a setup dialog that keeps another clock gets 0 (the square decides which captures are
    // legal; the clock only how far the fifty-move draw is).
    if (fields[3] != "-" && fields.size() >= 5 && !fields[4].empty() &&
        fields[4].find_first_not_of("0123456789") == std::string::npos &&
        fields[4].find_first_not_of('0') != std::string::npos) {
        warnings.push_back("FEN halfmove clock '" + fields[4] + "' with en-passant square '" +
                           fields[3] + "' (a double pawn push just made); read as 0");
        fields[4] = "0";
    }
    // Move counters: a halfmove clock alone gets move 1; move 0 (written by some tools) is 1.
    if (fields.size() == 5) fields.push_back("1");
    if (fields.size() == 6 && fields[5] == "0") fields[5] = "1";

    std::string result;
    for (const std::string& field : fields) result += (result.empty() ? "" : " ") + field;
    return result;
}

std::string validatePosition(const std::string& fen, const std::vector<std::string>& moves) {
    std::string error;
    return replay(fen, moves, error) ? std::string() : error;
}

std::string anyLegalReply(const std::string& fen, const std::vector<std::string>& moves,
                          const std::string& move) {
    std::vector<std::string> line = moves;
    line.push_back(move);
    std::string error;
    std::optional<Position> pos = replay(fen, line, error);
    if (!pos) return {};
    MoveList list;
    generateLegal(*pos, list);
    return list.empty() ? std::string() : moveToUci(list[0].move);
}

std::vector<std::string> legalMoves(const std::string& fen, const std::vector<std::string>& moves) {
    std::string error;
    std::optional<Position> pos = replay(fen, moves, error);
    std::vector<std::string> result;
    if (!pos) return result;
    MoveList list;
    generateLegal(*pos, list);
    for (const ScoredMove& scored : list) result.push_back(moveToUci(scored.move));
    return result;
}

std::string gameState(const std::string& fen, const std::vector<std::string>& moves) {
    std::string error;
    std::optional<Position> pos = replay(fen, moves, error);
    if (!pos) return "invalid";
    switch (pos->gameStatus()) {
        case GameStatus::Ongoing:
            return "ongoing";
        case GameStatus::Checkmate:
            return "checkmate";
        case GameStatus::Stalemate:
            return "stalemate";
        case GameStatus::ThreefoldRepetition:
            return "repetition";
        case GameStatus::FiftyMoves:
            return "fifty";
        case GameStatus::InsufficientMaterial:
            return "insufficient";
    }
    return "ongoing";
}

std::string perftReport(const std::string& fen, const std::vector<std::string>& moves, int depth) {
    std::string error;
    std::optional<Position> pos = replay(fen, moves, error);
    if (!pos) return "info string error: " + error;
    std::ostringstream out;
    std::uint64_t total = 0;
    if (depth <= 0) {
        total = 1;
    } else {
        for (const auto& [move, count] : perftDivide(*pos, depth)) {
            out << moveToUci(move) << ": " << count << '\n';
            total += count;
        }
    }
    out << "\nNodes searched: " << total;
    return out.str();
}

std::string evaluationReport(const std::string& fen, const std::vector<std::string>& moves) {
    std::string error;
    std::optional<Position> pos = replay(fen, moves, error);
    if (!pos) return "info string error: " + error;
    std::string report = eval::formatExplanation(eval::explain(*pos));
    // The hand-crafted terms above; the network (the switch `network`) has no terms, one number.
    // The number the search sees: the same Evaluator, known endgame draws included.
    Evaluator network;
    network.useNetwork(true);
    if (network.usingNetwork()) {
        const int mover = network.evaluate(*pos);
        const int white = pos->sideToMove() == White ? mover : -mover;
        report += "\nnetwork evaluation: " + std::string(white >= 0 ? "+" : "") +
                  std::to_string(white) + " cp for White, " + (mover >= 0 ? "+" : "") +
                  std::to_string(mover) + " cp for the side to move";
    }
    return report;
}

std::string describePosition(const std::string& fen, const std::vector<std::string>& moves) {
    std::string error;
    std::optional<Position> pos = replay(fen, moves, error);
    if (!pos) return "info string error: " + error;
    std::ostringstream out;
    out << pos->pretty() << "State: " << gameState(fen, moves);
    return out.str();
}

}  // namespace outpost::uci
