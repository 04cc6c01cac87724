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
