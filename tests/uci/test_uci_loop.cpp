#include <catch2/catch.hpp>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "uci/uci_loop.h"

namespace {

// Runs the loop over `input` to its end and returns every line it printed.
std::vector<std::string> runUci(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    {
        outpost::uci::UciLoop loop(in, out);
        loop.run();
    }
    std::istringstream lines(out.str());
    std::vector<std::string> result;
    for (std::string line; std::getline(lines, line);) result.push_back(line);
    return result;
}

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

int indexOf(const std::vector<std::string>& lines, const std::string& prefix) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (startsWith(lines[i], prefix)) return static_cast<int>(i);
    }
    return -1;
}

int countOf(const std::vector<std::string>& lines, const std::string& prefix) {
    int count = 0;
    for (const std::string& line : lines) count += startsWith(line, prefix) ? 1 : 0;
    return count;
}

}  // namespace

TEST_CASE("a second uci announces the defaults, not the values set since", "[uci][loop]") {
    const auto lines = runUci("uci\nsetoption name Hash value 32\nuci\n");
    REQUIRE(countOf(lines, "uciok") == 2);
    int hashLines = 0;
    for (const std::string& line : lines) {
        if (!startsWith(line, "option name Hash ")) continue;
        ++hashLines;
        CHECK(line.find(" default 16 ") != std::string::npos);
    }
    CHECK(hashLines == 2);
}

TEST_CASE("uci handshake lists options and ends with uciok", "[uci][loop]") {
    const auto lines = runUci("uci\nisready\n");
    REQUIRE(lines.size() >= 4);
    CHECK(startsWith(lines[0], "id name Outpost"));
    CHECK(indexOf(lines, "option name Hash type spin") > 0);
    CHECK(indexOf(lines, "option name nullMove type check") > 0);
    CHECK(indexOf(lines, "uciok") < indexOf(lines, "readyok"));
}

TEST_CASE("go depth reports iterations and a bestmove with a ponder move", "[uci][loop]") {
    const auto lines = runUci("ucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 5\n");
    REQUIRE(countOf(lines, "bestmove") == 1);
    const std::string& best = lines[indexOf(lines, "bestmove")];
    CHECK(best.find(" ponder ") != std::string::npos);
    const int info = indexOf(lines, "info depth 5 ");
    REQUIRE(info >= 0);
    const std::string& line = lines[info];
    for (const char* field : {" seldepth ", " multipv 1 ", " score ", " nodes ", " nps ",
                              " hashfull ", " time ", " pv "}) {
        CHECK(line.find(field) != std::string::npos);
    }
}

TEST_CASE("isready is answered during an infinite search, bestmove only after stop",
          "[uci][loop]") {
    const auto lines = runUci("position startpos\ngo infinite\nisready\nstop\n");
    const int ready = indexOf(lines, "readyok");
    const int best = indexOf(lines, "bestmove");
    REQUIRE(ready >= 0);
    REQUIRE(best >= 0);
    CHECK(ready < best);
    CHECK(countOf(lines, "bestmove") == 1);
}

TEST_CASE("an infinite search that ends by itself still waits for stop", "[uci][loop]") {
    // Mate in one: the search may finish at once, but bestmove must wait for the stop command.
    std::istringstream in;
    std::ostringstream out;
    {
        outpost::uci::UciLoop loop(in, out);
        loop.execute(
            "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
        loop.execute("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        loop.execute("isready");  // a marker: bestmove must come after it
        loop.execute("stop");
        loop.execute("quit");  // waits for the search thread, so `out` is complete
    }
    const std::string text = out.str();
    const auto ready = text.find("readyok");
    const auto best = text.find("bestmove h5f7");
    REQUIRE(ready != std::string::npos);
    REQUIRE(best != std::string::npos);
    CHECK(ready < best);
}

TEST_CASE("ponderhit turns a ponder search into a normal one", "[uci][loop]") {
    const auto lines = runUci("position startpos\ngo ponder wtime 200 btime 200\nponderhit\n");
    CHECK(countOf(lines, "bestmove") == 1);
}

TEST_CASE("MultiPV reports several lines", "[uci][loop]") {
    const auto lines = runUci("setoption name MultiPV value 3\nposition startpos\ngo depth 4\n");
    CHECK(indexOf(lines, "info depth 4 seldepth") >= 0);
    CHECK(countOf(lines, "info depth 4 ") >= 3);
    bool sawThird = false;
    for (const std::string& line : lines) {
        if (line.find(" multipv 3 ") != std::string::npos) sawThird = true;
    }
    CHECK(sawThird);
}

TEST_CASE("UCI_LimitStrength with a low UCI_Elo searches as level 1 says", "[uci][loop]") {
    const std::string game = "position startpos moves e2e4 e7e5\ngo depth 6\n";
    const auto limited = runUci(
        "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 800\n" + game);
    REQUIRE(countOf(limited, "bestmove") == 1);
    // Level 1: depth 1 and at most 400 nodes, choosing among 6 candidate lines, of which the GUI
    // (MultiPV 1) sees only the first.
    CHECK(indexOf(limited, "info depth 1 ") >= 0);
    CHECK(indexOf(limited, "info depth 2 ") < 0);
    CHECK(indexOf(limited, "info depth 1 seldepth") >= 0);
    for (const std::string& line : limited) {
        if (!startsWith(line, "info depth")) continue;
        const auto at = line.find(" nodes ");
        REQUIRE(at != std::string::npos);
        CHECK(std::stoull(line.substr(at + 7)) <= 400);
        CHECK(line.find(" multipv 1 ") != std::string::npos);
    }
    // The last info line is the line played (a level may play another candidate than the best).
    const int best = indexOf(limited, "bestmove");
    REQUIRE(best >= 1);
    const std::string& bestLine = limited[static_cast<std::size_t>(best)];
    const std::string move = bestLine.substr(9, bestLine.find(' ', 9) - 9);
    CHECK(limited[static_cast<std::size_t>(best) - 1].find(" multipv 1 ") != std::string::npos);
    CHECK(limited[static_cast<std::size_t>(best) - 1].find(" pv " + move) != std::string::npos);

    // The same search with the Elo set but UCI_LimitStrength off goes to the depth asked for.
    const auto full = runUci("setoption name UCI_Elo value 800\n" + game);
    CHECK(indexOf(full, "info depth 6 ") >= 0);
}

TEST_CASE("mate and stalemate positions answer bestmove 0000", "[uci][loop]") {
    // Fool's mate: white is checkmated.
    // GUIs show why there is no move: mate 0 when mated, a draw score when stalemated.
    auto lines = runUci("position startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 3\n");
    CHECK(indexOf(lines, "bestmove 0000") >= 0);
    CHECK(indexOf(lines, "info depth 0 score mate 0") >= 0);
    CHECK(indexOf(lines, "info depth 0 score mate 0") < indexOf(lines, "bestmove 0000"));
    CHECK(indexOf(lines, "info depth 0 score cp 0") < 0);
    lines = runUci("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
    CHECK(indexOf(lines, "bestmove 0000") >= 0);
    CHECK(indexOf(lines, "info depth 0 score cp 0") >= 0);
    CHECK(indexOf(lines, "info depth 0 score mate 0") < 0);
}

TEST_CASE("a level's extra candidate lines stay hidden unless MultiPV asks for them",
          "[uci][loop]") {
    const std::string game = "setoption name Level value 3\nposition startpos\ngo depth 3\n";
    const auto single = runUci(game);
    REQUIRE(countOf(single, "bestmove") == 1);
    for (const std::string& line : single) {
        if (startsWith(line, "info depth")) CHECK(line.find(" multipv 1 ") != std::string::npos);
    }
    const auto three = runUci("setoption name MultiPV value 3\n" + game);
    bool sawThird = false;
    for (const std::string& line : three) {
        CHECK(line.find(" multipv 4 ") == std::string::npos);
        if (line.find(" multipv 3 ") != std::string::npos) sawThird = true;
    }
    CHECK(sawThird);
}

TEST_CASE("bad input is reported, not fatal", "[uci][loop]") {
    const auto lines = runUci(
        "position fen not a fen\nposition startpos moves e2e5\nsetoption name Nope value 1\n"
        "go depth x\nfrobnicate\nisready\n");
    CHECK(countOf(lines, "info string error") >= 4);
    CHECK(indexOf(lines, "info string Unknown command") >= 0);
    CHECK(indexOf(lines, "readyok") >= 0);
}

TEST_CASE("every go gets a bestmove, never one for another board", "[uci][loop]") {
    // A refused position (no white king) after a good one: the old board is not searched; a
    // good position after it is.
    auto lines = runUci(
        "position startpos\nposition fen 4k3/8/8/8/8/8/8/7R w - - 0 1\ngo depth 3\n"
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1\ngo depth 3\n");
    REQUIRE(countOf(lines, "bestmove") == 2);
    CHECK(lines[static_cast<std::size_t>(indexOf(lines, "bestmove"))] == "bestmove 0000");
    CHECK(lines.back().rfind("bestmove 0000", 0) != 0);
    // Malformed go parameters are ignored with a warning, and the search runs (it used to
    // answer nothing, leaving the GUI waiting).
    lines = runUci("position startpos\ngo depth -1 nodes 2000 sideways\n");
    CHECK(countOf(lines, "info string warning") == 2);
    REQUIRE(indexOf(lines, "bestmove") >= 0);
    CHECK(indexOf(lines, "bestmove 0000") < 0);
}

TEST_CASE("a position command without a board is refused, not read as another board",
          "[uci][loop]") {
    // `position fen` with no FEN used to search the start position, `position startpos e2e4`
    // (no "moves") dropped the move, and a garbled `position` left the board before it in place;
    // each `go` answered for a board the GUI never sent.
    const char* commands[] = {
        "position fen",
        "position fen moves e2e4",
        "position startpos e2e4",
        "position startpos e2e4 e7e5",
        "position",
        "position strtpos moves e2e4",
    };
    for (const char* command : commands) {
        INFO(command);
        const auto lines =
            runUci(std::string("position startpos moves d2d4\n") + command + "\ngo depth 2\n");
        CHECK(indexOf(lines, "info string error") >= 0);
        REQUIRE(countOf(lines, "bestmove") == 1);
        CHECK(indexOf(lines, "bestmove 0000") >= 0);
    }
    // The forms that name a board still do.
    for (const char* command :
         {"position startpos", "position startpos moves", "position startpos moves e2e4",
          "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1"}) {
        INFO(command);
        const auto lines = runUci(std::string(command) + "\ngo depth 2\n");
        CHECK(indexOf(lines, "info string error") < 0);
        REQUIRE(indexOf(lines, "bestmove") >= 0);
        CHECK(indexOf(lines, "bestmove 0000") < 0);
    }
}

TEST_CASE("go perft, d and the referee commands", "[uci][loop]") {
    auto lines = runUci("position startpos\ngo perft 3\n");
    CHECK(indexOf(lines, "Nodes searched: 8902") >= 0);
    lines = runUci("position startpos moves f2f3 e7e5 g2g4\nlegalmoves\ngamestate\n");
    const int legal = indexOf(lines, "legalmoves ");
    REQUIRE(legal >= 0);
    CHECK(lines[legal].find(" d8h4") != std::string::npos);
    CHECK(indexOf(lines, "gamestate ongoing") >= 0);
    lines = runUci("position startpos moves f2f3 e7e5 g2g4 d8h4\ngamestate\n");
    CHECK(indexOf(lines, "gamestate checkmate") >= 0);
    lines = runUci("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8\ngamestate\n");
    CHECK(indexOf(lines, "gamestate repetition") >= 0);
    lines = runUci("position fen 8/8/8/4k3/8/8/8/4K3 w - - 0 1\ngamestate\n");
    CHECK(indexOf(lines, "gamestate insufficient") >= 0);
    // After a refused position none of them answers for the board before it.
    lines = runUci(
        "position startpos moves e2e4\n"
        "position fen 4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1\nlegalmoves\ngamestate\nd\neval\n");
    CHECK(indexOf(lines, "gamestate none") >= 0);
    CHECK(indexOf(lines, "gamestate ongoing") < 0);
    REQUIRE(indexOf(lines, "legalmoves") >= 0);
    CHECK(lines[static_cast<std::size_t>(indexOf(lines, "legalmoves"))] == "legalmoves");
    CHECK(indexOf(lines, "Fen: ") < 0);
    CHECK(indexOf(lines, "pieceValue ") < 0);
    CHECK(countOf(lines, "info string error: no position") == 4);
}

TEST_CASE("eval prints the static evaluation by term", "[uci][loop]") {
    // Black lacks its g8 knight and is to move: material favours White, the mover is worse.
    auto lines =
        runUci("position fen rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1\neval\n");
    const int material = indexOf(lines, "pieceValue ");
    REQUIRE(material >= 0);
    const int total = indexOf(lines, "evaluation: +");
    REQUIRE(total > material);
    CHECK(lines[total].find("cp for White, -") != std::string::npos);
    CHECK(indexOf(lines, "phase 23/24") >= 0);  // a knight counts 1 of 24
    CHECK(indexOf(lines, "network evaluation: +") > total);
}

TEST_CASE("a FEN's unusable castling rights, impossible en passant and odd counters are read",
          "[uci][loop]") {
    // Setup dialogs leave KQkq ticked with the rooks gone, tools write fullmove 0 or only the
    // halfmove clock; Stockfish plays on from all of these, and a GUI that gets bestmove 0000
    // forfeits.
    const char* fens[] = {
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        // An en-passant square with a halfmove clock a double push would have reset.
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 1",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 7 3",
    };
    for (const char* fen : fens) {
        INFO(fen);
        const auto lines = runUci(std::string("position fen ") + fen + "\ngo depth 1\n");
        CHECK(indexOf(lines, "info string error") == -1);
        const int best = indexOf(lines, "bestmove ");
        REQUIRE(best >= 0);
        CHECK(lines[best] != "bestmove 0000");
    }
    // The rights that are usable stay: White may still castle short here.
    const auto lines = runUci("position fen r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1\nlegalmoves\n");
    CHECK(indexOf(lines, "info string warning") >= 0);
    const int legal = indexOf(lines, "legalmoves");
    REQUIRE(legal >= 0);
    CHECK(lines[legal].find(" e1g1") != std::string::npos);
    // A plausible en-passant square is kept.
    const auto ep = runUci(
        "position fen rnbqkbnr/pppp1ppp/8/4pP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3\n"
        "legalmoves\n");
    CHECK(indexOf(ep, "info string warning") == -1);
    CHECK(ep[indexOf(ep, "legalmoves")].find(" f5e6") != std::string::npos);
    // ... and kept when the clock is what is off: the capture stays legal, the clock reads 0.
    const auto clock = runUci(
        "position fen rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 7 3\n"
        "legalmoves\nd\n");
    CHECK(indexOf(clock, "info string warning: FEN halfmove clock '7'") >= 0);
    CHECK(clock[indexOf(clock, "legalmoves")].find(" d4e3") != std::string::npos);
    CHECK(indexOf(clock, "Fen: rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3") >= 0);
}

TEST_CASE("an illegal searchmove is left out, not answered with bestmove 0000", "[uci][loop]") {
    auto lines = runUci("position startpos\ngo depth 3 searchmoves e2e5 a2a3\n");
    CHECK(indexOf(lines, "info string warning: searchmove 'e2e5'") >= 0);
    REQUIRE(indexOf(lines, "bestmove") >= 0);
    CHECK(startsWith(lines[static_cast<std::size_t>(indexOf(lines, "bestmove"))], "bestmove a2a3"));
    // None legal: every move is searched (a GUI that gets bestmove 0000 forfeits).
    lines = runUci("position startpos\ngo depth 3 searchmoves e2e5\n");
    REQUIRE(indexOf(lines, "bestmove") >= 0);
    CHECK(indexOf(lines, "bestmove 0000") < 0);
}
