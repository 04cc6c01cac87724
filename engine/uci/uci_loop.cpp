#include "uci/uci_loop.h"

#include <algorithm>
#include <exception>
#include <new>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/cpu.h"
#include "uci/go_command.h"
#include "uci/info_format.h"
#include "uci/position_tools.h"

namespace outpost::uci {

namespace {

constexpr const char* kEngineAuthor = "the Outpost team";

// `info currmove` only on searches long enough for a GUI to show it; short searches would just
// flood the pipe.
constexpr std::int64_t kCurrMoveDelayMs = 1000;
// At the end of input a running search gets this long to finish, looked at this often.
constexpr std::chrono::seconds kEndOfInputWait{30};
constexpr std::chrono::milliseconds kEndOfInputPoll{10};

std::pair<std::string_view, std::string_view> splitCommand(std::string_view line) {
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    std::size_t begin = 0;
    while (begin < line.size() && isSpace(line[begin])) ++begin;
    std::size_t end = begin;
    while (end < line.size() && !isSpace(line[end])) ++end;
    std::size_t rest = end;
    while (rest < line.size() && isSpace(line[rest])) ++rest;
    std::size_t restEnd = line.size();
    while (restEnd > rest && isSpace(line[restEnd - 1])) --restEnd;
    return {line.substr(begin, end - begin), line.substr(rest, restEnd - rest)};
}

}  // namespace

UciLoop::UciLoop(std::istream& in, std::ostream& out) : in_(in), out_(out) {
    // std::cin is tied to std::cout: every read would flush std::cout from this thread, outside
    // the writer's lock, racing with the search thread's output (seen as a stale bestmove line
    // printed twice). The writer flushes each line itself, so the tie is not needed.
    in_.tie(nullptr);
    settings_.engine = engine_.options();
    defaults_ = settings_;
}

UciLoop::~UciLoop() {
    stopAndWait();
}

void UciLoop::run() {
    for (std::string line; std::getline(in_, line);) {
        if (!execute(line)) return;
    }
    // End of input: let a search finish (`printf 'go depth 12' | outpost` prints its move), but
    // never wait forever: an infinite or ponder search stops at once, any other after
    // kEndOfInputWaitMs (a `go` without limits, a deep `go depth 60`, a clock for the other side
    // only: the GUI that would stop it is gone).
    bool unbounded = false;
    {
        std::lock_guard lock(out_.mutex());
        unbounded = holdBestMove_;
    }
    if (unbounded) stop();
    const auto giveUpAt = std::chrono::steady_clock::now() + kEndOfInputWait;
    while (engine_.searching() && std::chrono::steady_clock::now() < giveUpAt)
        std::this_thread::sleep_for(kEndOfInputPoll);
    if (engine_.searching()) stop();
    engine_.wait();
}

bool UciLoop::execute(std::string_view line) {
    const auto [command, args] = splitCommand(line);
    if (command.empty()) return true;
    if (command == "quit") {
        stopAndWait();
        return false;
    }
    try {
        if (command == "uci") {
            uci();
        } else if (command == "isready") {
            isReady();
        } else if (command == "setoption") {
            setOption(args);
        } else if (command == "ucinewgame") {
            newGame();
        } else if (command == "position") {
            position(args);
        } else if (command == "go") {
            go(args);
        } else if (command == "stop") {
            stop();
        } else if (command == "ponderhit") {
            ponderHit();
        } else if ((command == "d" || command == "eval" || command == "legalmoves" ||
                    command == "gamestate") &&
                   positionRefused_) {
            // As `go`: no answer about the board before a refused `position` (it would read as
            // the board just sent). The referee's commands still get their line, with nothing in
            // it: no moves, state "none".
            out_.line("info string error: no position: the last 'position' was refused");
            if (command == "legalmoves") out_.line("legalmoves");
            if (command == "gamestate") out_.line("gamestate none");
        } else if (command == "d") {
            display();
        } else if (command == "eval") {
            // Not UCI (Stockfish has the same): the static evaluation by term.
            out_.line(evaluationReport(fen_, moves_));
        } else if (command == "legalmoves") {
            // Not UCI: the rules as the engine knows them, for the repository's own referee.
            std::string answer = "legalmoves";
            for (const std::string& move : legalMoves(fen_, moves_)) answer += " " + move;
            out_.line(answer);
        } else if (command == "gamestate") {
            out_.line("gamestate " + gameState(fen_, moves_));
        } else if (command == "debug" || command == "register") {
            // Accepted and ignored, as the protocol allows.
        } else {
            out_.line("info string Unknown command: '" + std::string(command) + "'");
        }
    } catch (const std::exception& error) {
        out_.line("info string error: " + std::string(error.what()));
    }
    return true;
}

void UciLoop::uci() {
    out_.line(std::string("id name ") + kEngineName + " " + kEngineVersion);
    out_.line(std::string("id author ") + kEngineAuthor);
    // The code paths picked for this CPU at start (core/cpu.h).
    out_.line("info string " + describeCpuChoice(cpuChoice()));
    // The defaults, not the values set since: `uci` may come again mid-session.
    for (const std::string& option : optionLines(defaults_)) out_.line(option);
    out_.line("uciok");
}

void UciLoop::isReady() {
    // During a search the answer must come at once; options wait for the next `go`.
    if (!engine_.searching()) applyOptionsIfChanged();
    out_.line("readyok");
}

void UciLoop::setOption(std::string_view args) {
    std::string name;
    std::string value;
    if (!parseSetOption(args, name, value)) {
        out_.line("info string error: setoption needs 'name <name> [value <value>]'");
        return;
    }
    switch (applyOption(name, value, settings_)) {
        case OptionResult::Changed:
            optionsChanged_ = true;
            break;
        case OptionResult::ClearHash:
            stopAndWait();
            engine_.clearHash();
            break;
        case OptionResult::UnknownName:
            out_.line("info string error: unknown option '" + name + "'");
            break;
        case OptionResult::BadValue:
            out_.line("info string error: bad value '" + value + "' for option '" + name + "'");
            break;
    }
}

void UciLoop::newGame() {
    stopAndWait();
    applyOptionsIfChanged();
    engine_.clearHash();
    fen_.clear();
    moves_.clear();
    positionRefused_ = false;
}

void UciLoop::position(std::string_view args) {
    std::istringstream stream{std::string(args)};
    std::string token;
    stream >> token;
    // A position that cannot be read is refused, not replaced by another (`go` then answers
    // bestmove 0000 rather than search a board the GUI did not send).
    const auto refuse = [this](const std::string& error) {
        out_.line("info string error: " + error);
        positionRefused_ = true;
    };
    std::string fen;
    if (token == "fen") {
        while (stream >> token && token != "moves") fen += (fen.empty() ? "" : " ") + token;
        // `position fen` with nothing after it is not the start position.
        if (fen.empty()) return refuse("position fen needs a FEN");
    } else if (token == "startpos") {
        token.clear();
        stream >> token;  // "moves" or nothing
        // `position startpos e2e4` (no "moves"): the moves would be lost without a word.
        if (!token.empty() && token != "moves")
            return refuse("expected 'moves' after 'startpos', got '" + token.substr(0, 40) + "'");
    } else {
        return refuse("position needs 'startpos' or 'fen <fen>'");
    }
    std::vector<std::string> moves;
    if (token == "moves") {
        while (stream >> token) moves.push_back(token);
    }
    if (!fen.empty()) {
        std::vector<std::string> warnings;
        fen = normalizeFen(fen, warnings);
        for (const std::string& warning : warnings) out_.line("info string warning: " + warning);
    }
    if (const std::string error = validatePosition(fen, moves); !error.empty()) {
        // Not the position before it either: a `go` now would answer for another board.
        return refuse(error);
    }
    positionRefused_ = false;
    fen_ = std::move(fen);
    moves_ = std::move(moves);
}

void UciLoop::go(std::string_view args) {
    std::vector<std::string> warnings;
    const GoCommand command = parseGo(args, warnings);
    for (const std::string& warning : warnings) out_.line("info string warning: " + warning);
    if (positionRefused_) {
        // A GUI waits for bestmove after every go; there is no position to search.
        stopAndWait();
        out_.line("info string error: no position to search: the last 'position' was refused");
        out_.line("bestmove 0000");
        return;
    }
    if (command.perftDepth) {
        perft(*command.perftDepth);
        return;
    }
    stopAndWait();
    applyOptionsIfChanged();

    SearchRequest request;
    request.fen = fen_;
    request.moves = moves_;
    request.limits = command.limits;
    if (!request.limits.searchmoves.empty()) {
        // As Stockfish: a searchmove that is not legal here is left out (with a warning), not a
        // reason to answer bestmove 0000; with none left, every move is searched.
        std::vector<std::string> kept;
        for (const std::string& move : request.limits.searchmoves) {
            std::vector<std::string> line = moves_;
            line.push_back(move);
            if (validatePosition(fen_, line).empty()) {
                kept.push_back(move);
            } else {
                out_.line("info string warning: searchmove '" + move +
                          "' is not legal here; left out");
            }
        }
        if (kept.empty())
            out_.line("info string warning: no legal searchmove; searching all moves");
        request.limits.searchmoves = std::move(kept);
    }
    request.multiPv = settings_.multiPv;
    request.level = effectiveLevel(settings_);

    {
        std::lock_guard lock(out_.mutex());
        holdBestMove_ = request.limits.infinite || request.limits.ponder;
        releaseOnPonderHit_ = request.limits.ponder && !request.limits.infinite;
        heldBestMove_.reset();
        lastPvHead_.clear();
    }
    searchStart_ = std::chrono::steady_clock::now();

    SearchCallbacks callbacks;
    // A level searches several lines to choose among them; the GUI sees only the lines it asked
    // for with MultiPV (the move played is reported again before bestmove when it differs).
    callbacks.onInfo = [this, shownLines = settings_.multiPv](const SearchInfo& info) {
        if (info.multipv > shownLines) return;
        std::lock_guard lock(out_.mutex());
        if (info.multipv == 1) lastPvHead_ = info.pv.empty() ? std::string() : info.pv.front();
        out_.lineLocked(formatInfo(info));
    };
    callbacks.onCurrMove = [this](const std::string& move, int number, int depth) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - searchStart_)
                                 .count();
        if (elapsed >= kCurrMoveDelayMs) out_.line(formatCurrMove(move, number, depth));
    };
    // The search thread reports on the position it was given, not on whatever `position` the
    // GUI has sent since.
    callbacks.onBestMove = [this, fen = fen_, moves = moves_](const SearchResult& result) {
        reportBestMove(result, fen, moves);
    };
    try {
        engine_.go(request, std::move(callbacks));
    } catch (const std::invalid_argument& invalid) {
        // A GUI waits for bestmove after every go; never leave it hanging.
        std::lock_guard lock(out_.mutex());
        holdBestMove_ = false;
        out_.lineLocked("info string error: " + std::string(invalid.what()));
        out_.lineLocked("bestmove 0000");
    }
}

void UciLoop::reportBestMove(const SearchResult& result, const std::string& fen,
                             const std::vector<std::string>& moves) {
    // Last line of defence: a GUI forfeits the game on an illegal move, so a move the rules
    // reject is replaced by a legal one, and the error is reported (the referee counts these).
    SearchResult checked = result;
    const std::vector<std::string> legal = legalMoves(fen, moves);
    const bool isLegal = std::find(legal.begin(), legal.end(), checked.bestmove) != legal.end() ||
                         (legal.empty() && checked.bestmove == "0000");
    if (!isLegal) {
        out_.line("info string error: search returned illegal bestmove '" + checked.bestmove + "'");
        checked.bestmove = legal.empty() ? "0000" : legal.front();
        checked.ponder.clear();
        checked.info.pv.clear();
    }
    if (legal.empty()) {
        // No move at the root: say why, as GUIs expect (mated: mate 0; stalemate: a draw). The
        // engine's answer already says which.
        const bool mated = checked.info.score.kind == Score::Kind::Mate;
        out_.line(mated ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
    }
    std::string fallback;
    if (ponderFromResult(checked).empty() && checked.bestmove != "0000") {
        fallback = anyLegalReply(fen, moves, checked.bestmove);
    }
    const std::string line = formatBestMove(checked, fallback);
    std::lock_guard lock(out_.mutex());
    // The move comes from the last finished iteration, or is a level's choice among candidates;
    // the last info line may show another move (a fail-high line of an unfinished iteration, or
    // the best candidate). Then the line actually played is reported once more.
    if (!checked.info.pv.empty() && checked.info.pv.front() == checked.bestmove &&
        lastPvHead_ != checked.bestmove) {
        out_.lineLocked(formatInfo(checked.info));
        lastPvHead_ = checked.bestmove;
    }
    if (holdBestMove_) {
        heldBestMove_ = line;
        return;
    }
    out_.lineLocked(line);
}

void UciLoop::releaseHeldBestMove() {
    std::lock_guard lock(out_.mutex());
    holdBestMove_ = false;
    if (heldBestMove_) {
        out_.lineLocked(*heldBestMove_);
        heldBestMove_.reset();
    }
}

void UciLoop::stop() {
    releaseHeldBestMove();
    engine_.stop();
}

void UciLoop::ponderHit() {
    // The clock now applies; if the search already ended while pondering, its move goes out now.
    engine_.ponderhit();
    bool release = false;
    {
        std::lock_guard lock(out_.mutex());
        release = releaseOnPonderHit_;
        releaseOnPonderHit_ = false;
    }
    if (release) releaseHeldBestMove();
}

void UciLoop::stopAndWait() {
    if (engine_.searching()) stop();
    engine_.wait();
    // A search that ended on its own while held still owes its bestmove to nobody: drop it.
    std::lock_guard lock(out_.mutex());
    holdBestMove_ = false;
    heldBestMove_.reset();
}

void UciLoop::applyOptionsIfChanged() {
    if (!optionsChanged_) return;
    optionsChanged_ = false;
    EngineOptions options = settings_.engine;
    options.sharedTable = engine_.options().sharedTable;
    try {
        engine_.setOptions(options);
    } catch (const std::bad_alloc&) {
        // The table asked for cannot be had: the engine keeps the one it has (and every other
        // option as it was), and says so; readyok and bestmove still come.
        const std::size_t kept = engine_.options().hashMb;
        out_.line("info string error: not enough memory for Hash " +
                  std::to_string(options.hashMb) + " MB; keeping " + std::to_string(kept) +
                  " MB and the other options as they were");
        settings_.engine = engine_.options();
    }
}

void UciLoop::perft(int depth) {
    stopAndWait();
    out_.line(perftReport(fen_, moves_, depth));
}

void UciLoop::display() {
    out_.line(describePosition(fen_, moves_));
}

}  // namespace outpost::uci
