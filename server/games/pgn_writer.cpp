#include "games/pgn_writer.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "games/chess_rules.h"
#include "openings/openings.h"

namespace outpost::server {

namespace {

constexpr std::int64_t kMsPerSecond = 1000;
constexpr std::int64_t kSecondsPerMinute = 60;
constexpr std::int64_t kSecondsPerHour = 3600;
// PGN export lines stay under 80 characters.
constexpr std::size_t kPgnLineWidth = 79;

// "12. e4", "12... e5": a move with its number when it needs one.
std::string numbered(const ChessState& state, const std::string& san, bool forceNumber) {
    if (state.whiteToMove()) return std::to_string(state.fullmoveNumber()) + ". " + san;
    if (forceNumber) return std::to_string(state.fullmoveNumber()) + "... " + san;
    return san;
}

// "( 12... Nf6 13. Nf3 )": a line from `state`, numbered as a variation is.
std::string variationText(ChessState state, const std::vector<std::string>& sanMoves) {
    std::string text = "(";
    bool first = true;
    for (const std::string& san : sanMoves) {
        ParsedMove parsed = state.parse(san);
        if (parsed.uci.empty()) break;
        text += " " + numbered(state, san, first);
        state.play(parsed.uci);
        first = false;
    }
    return text + " )";
}

// The comment after move i: the annotation's, then the clock, in one pair of braces.
std::string moveComment(const GameRecord& game, std::size_t i, const PgnAnnotation* note) {
    std::string comment = note ? note->comment : "";
    if (game.clock && i < game.moveClocksMs.size() && game.moveClocksMs[i] >= 0) {
        if (!comment.empty()) comment += ' ';
        comment += "[%clk " + pgnClock(game.moveClocksMs[i]) + "]";
    }
    return comment;
}

std::string wrapped(const std::string& movetext) {
    std::string text;
    std::string line;
    std::istringstream words(movetext);
    std::string word;
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > kPgnLineWidth) {
            text += line + "\n";
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
    }
    return text + line + "\n";
}

}  // namespace

std::string pgnClock(std::int64_t remainingMs) {
    const std::int64_t seconds = std::max<std::int64_t>(0, remainingMs) / kMsPerSecond;
    char text[32];
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld",
                  static_cast<long long>(seconds / kSecondsPerHour),
                  static_cast<long long>(seconds % kSecondsPerHour / kSecondsPerMinute),
                  static_cast<long long>(seconds % kSecondsPerMinute));
    return text;
}

std::string pgnTimeControl(const GameRecord& game) {
    if (!game.clock) return "-";
    return std::to_string(game.clock->initialMs / kMsPerSecond) + "+" +
           std::to_string(game.clock->incrementMs / kMsPerSecond);
}

std::string gamePgn(const GameRecord& game, const std::vector<PgnAnnotation>& annotations) {
    std::ostringstream out;
    const std::time_t created = static_cast<std::time_t>(game.createdAtMs / kMsPerSecond);
    std::tm utc{};
    gmtime_r(&created, &utc);
    char date[16];
    std::strftime(date, sizeof date, "%Y.%m.%d", &utc);
    auto player = [&](const char* side) {
        if (game.engine.side != side) return std::string("Player");
        return game.engine.level ? "Outpost level " + std::to_string(*game.engine.level)
                                 : std::string("Outpost");
    };
    out << "[Event \"Outpost game\"]\n"
        << "[Site \"outpost\"]\n"
        << "[Date \"" << date << "\"]\n"
        << "[Round \"-\"]\n"
        << "[White \"" << player("white") << "\"]\n"
        << "[Black \"" << player("black") << "\"]\n"
        << "[Result \"" << game.result << "\"]\n"
        << "[TimeControl \"" << pgnTimeControl(game) << "\"]\n"
        << pgnOpeningTags(game.initialFen, game.moves);
    if (game.initialFen != ChessState::kStartFen) {
        out << "[SetUp \"1\"]\n[FEN \"" << game.initialFen << "\"]\n";
    }
    if (game.status != "ongoing") {
        // The PGN standard's values; "abandoned" for a game claimed against a player who left,
        // "unterminated" for an aborted one (no result: it did not end by the rules).
        const char* termination = game.status == "timeout"     ? "time forfeit"
                                  : game.reason == "abandoned" ? "abandoned"
                                  : game.status == "aborted"   ? "unterminated"
                                                               : "normal";
        out << "[Termination \"" << termination << "\"]\n";
    }
    out << "\n";
    std::string error;
    bool badMove = false;
    auto state = ChessState::load(game.initialFen, {}, error, badMove);
    std::string movetext;
    if (state) {
        bool needNumber = true;  // the first move, and a Black move after a comment or line
        for (std::size_t i = 0; i < game.moves.size(); ++i) {
            const std::string& uci = game.moves[i];
            movetext += numbered(*state, state->san(uci), needNumber) + " ";
            needNumber = false;
            const PgnAnnotation* note = i < annotations.size() ? &annotations[i] : nullptr;
            if (note && note->nag > 0) movetext += "$" + std::to_string(note->nag) + " ";
            if (const std::string comment = moveComment(game, i, note); !comment.empty()) {
                movetext += "{ " + comment + " } ";
                needNumber = true;
            }
            if (note && !note->variation.empty()) {
                movetext += variationText(*state, note->variation) + " ";
                needNumber = true;
            }
            state->play(uci);
        }
    }
    movetext += game.result;
    out << wrapped(movetext);
    return out.str();
}

}  // namespace outpost::server
