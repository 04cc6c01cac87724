// The UCI protocol front end over the Engine facade.
//
// The loop reads commands on the calling thread while a search runs on the engine's threads, so
// `stop`, `isready` and `ponderhit` are answered during a search. Everything goes out through one
// SyncWriter. Streams are parameters so tests drive the loop with string streams.
#pragma once

#include <chrono>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine.h"
#include "uci/options.h"
#include "uci/sync_writer.h"

namespace outpost::uci {

class UciLoop {
  public:
    UciLoop(std::istream& in, std::ostream& out);
    ~UciLoop();
    UciLoop(const UciLoop&) = delete;
    UciLoop& operator=(const UciLoop&) = delete;

    // Reads commands until `quit` or the end of input. At the end of input a running search is
    // allowed to finish (an infinite or ponder search is stopped) so scripts can pipe commands in.
    void run();

    // Executes one command line. Returns false for `quit`.
    bool execute(std::string_view line);

  private:
    void uci();
    void isReady();
    void setOption(std::string_view args);
    void newGame();
    void position(std::string_view args);
    void go(std::string_view args);
    void stop();
    void ponderHit();
    void perft(int depth);
    void display();

    void applyOptionsIfChanged();
    void stopAndWait();
    void reportBestMove(const SearchResult& result, const std::string& fen,
                        const std::vector<std::string>& moves);
    void releaseHeldBestMove();

    std::istream& in_;
    SyncWriter out_;
    UciSettings settings_;
    UciSettings defaults_;  // as the engine starts: what `uci` announces as each default
    bool optionsChanged_ = false;
    // The last `position` was refused: `go` answers bestmove 0000 until a position is taken.
    bool positionRefused_ = false;
    Engine engine_;

    std::string fen_;                 // empty: the start position
    std::vector<std::string> moves_;  // played from fen_

    // An infinite or ponder search must not print bestmove before `stop` (or `ponderhit`), even
    // if it ends on its own. Guarded by out_.mutex(), so deciding and printing are one step.
    bool holdBestMove_ = false;
    bool releaseOnPonderHit_ = false;  // `go ponder` (not infinite): ponderhit lets it report
    std::optional<std::string> heldBestMove_;
    // First move of the last multipv-1 info line printed; guarded by out_.mutex(). A GUI reads the
    // last PV as the line behind bestmove, so bestmove must not contradict it.
    std::string lastPvHead_;

    std::chrono::steady_clock::time_point searchStart_;
};

}  // namespace outpost::uci
