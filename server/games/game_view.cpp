#include "games/game_view.h"

#include <chrono>
#include <ctime>
#include <sstream>

namespace outpost::server {

std::int64_t nowEpochMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

ChessState replay(const GameRecord& game) {
    std::string error;
    bool badMove = false;
    auto state = ChessState::load(game.initialFen, game.moves, error, badMove);
    if (!state) throw std::runtime_error("stored game " + game.id + " does not replay: " + error);
    return std::move(*state);
}

ClockReading readClock(const ClockState& clock, bool whiteToMove, std::int64_t nowMs) {
    ClockReading reading{clock.whiteMs, clock.blackMs};
    if (clock.running) {
        const std::int64_t elapsed = std::max<std::int64_t>(0, nowMs - clock.turnStartedAtMs);
        (whiteToMove ? reading.whiteMs : reading.blackMs) -= elapsed;
    }
    reading.whiteMs = std::max<std::int64_t>(0, reading.whiteMs);
    reading.blackMs = std::max<std::int64_t>(0, reading.blackMs);
    return reading;
}

std::int64_t flagFallAtMs(const ClockState& clock, bool whiteToMove) {
    return clock.turnStartedAtMs + (whiteToMove ? clock.whiteMs : clock.blackMs);
}

nlohmann::json gameJson(const GameRecord& game, const ChessState& state, std::int64_t nowMs) {
    const bool ongoing = game.status == "ongoing";
    nlohmann::json engine = {{"side", game.engine.side}};
    if (game.engine.level) engine["level"] = *game.engine.level;
    if (game.engine.limits) {
        nlohmann::json limits = nlohmann::json::object();
        if (game.engine.limits->depth) limits["depth"] = *game.engine.limits->depth;
        if (game.engine.limits->movetimeMs) limits["movetime"] = *game.engine.limits->movetimeMs;
        if (game.engine.limits->nodes) limits["nodes"] = *game.engine.limits->nodes;
        engine["limits"] = limits;
    }
    // SAN needs the position before each move: replay from the start.
    std::string error;
    bool badMove = false;
    auto walker = ChessState::load(game.initialFen, {}, error, badMove);
    std::vector<std::string> san;
    if (walker) san = walker->sanLine(game.moves);

    nlohmann::json json = {
        {"id", game.id},
        {"initialFen", game.initialFen},
        {"fen", state.fen()},
        {"moves", game.moves},
        {"san", san},
        {"turn", state.whiteToMove() ? "white" : "black"},
        {"status", game.status},
        {"result", game.result},
        {"check", state.inCheck()},
        {"legalMoves", ongoing ? state.legalMoves() : std::vector<std::string>{}},
        {"engine", engine},
        {"version", game.version},
    };
    if (!game.reason.empty()) json["reason"] = game.reason;
    if (!game.winner.empty()) json["winner"] = game.winner;
    if (game.clock) {
        const ClockReading reading = readClock(*game.clock, state.whiteToMove(), nowMs);
        json["clock"] = {{"white", reading.whiteMs},
                         {"black", reading.blackMs},
                         {"initial", game.clock->initialMs},
                         {"increment", game.clock->incrementMs},
                         {"running", game.clock->running}};
    }
    return json;
}

nlohmann::json gameJson(const GameRecord& game) {
    return gameJson(game, replay(game), nowEpochMs());
}

std::string gameEventPayload(const GameRecord& game) {
    return nlohmann::json{{"type", "game"}, {"game", gameJson(game)}}.dump();
}

namespace {

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

}  // namespace

std::string gamePgn(const GameRecord& game, const std::vector<PgnAnnotation>& annotations) {
    std::ostringstream out;
    const std::time_t created = static_cast<std::time_t>(game.createdAtMs / 1000);
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
        << "[Result \"" << game.result << "\"]\n";
    if (game.initialFen != ChessState::kStartFen) {
        out << "[SetUp \"1\"]\n[FEN \"" << game.initialFen << "\"]\n";
    }
    if (game.status != "ongoing") {
        out << "[Termination \"" << (game.status == "timeout" ? "time forfeit" : "normal")
            << "\"]\n";
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
            if (i < annotations.size()) {
                const PgnAnnotation& note = annotations[i];
                if (note.nag > 0) movetext += "$" + std::to_string(note.nag) + " ";
                if (!note.comment.empty()) {
                    movetext += "{ " + note.comment + " } ";
                    needNumber = true;
                }
                if (!note.variation.empty()) {
                    movetext += variationText(*state, note.variation) + " ";
                    needNumber = true;
                }
            }
            state->play(uci);
        }
    }
    movetext += game.result;
    // PGN export lines stay under 80 characters.
    constexpr std::size_t kPgnLineWidth = 79;
    std::string line;
    std::istringstream words(movetext);
    std::string word;
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > kPgnLineWidth) {
            out << line << "\n";
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
    }
    out << line << "\n";
    return out.str();
}

}  // namespace outpost::server
