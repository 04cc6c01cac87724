// libFuzzer target for PGN import (server/games/pgn_import.h), the parser behind
// POST /api/v1/review {pgn}. Whatever the text: importPgn returns (never throws, never crashes);
// an error has one of the documented codes and a message; a success is a game whose moves all
// replay legally from its start position, within the size limits. Build: see fuzz/CMakeLists.txt.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "games/chess_rules.h"
#include "games/pgn_import.h"

using namespace outpost::server;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const PgnImport game = importPgn(text);
    if (!game.ok()) {
        check(game.errorCode == "too_large" || game.errorCode == "bad_pgn" ||
              game.errorCode == "invalid_fen" || game.errorCode == "illegal_move");
        check(!game.error.empty());
        check(game.errorCode != "illegal_move" || game.errorPly > 0);
        return 0;
    }
    check(size <= kMaxPgnBytes);
    check(game.moves.size() <= kMaxPgnPlies);
    // Every move of the main line is legal in turn from the start position.
    std::string error;
    bool badMove = false;
    const auto replayed = ChessState::load(game.initialFen, game.moves, error, badMove);
    check(replayed.has_value());
    return 0;
}
