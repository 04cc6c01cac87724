// Reading a game from PGN: the main line of the first game in the text, checked move by move.
//
// A pure function (no I/O, no globals), so it can be fuzzed: whatever the text, it returns a
// result or an error, never throws, and reads at most kMaxPgnBytes of it.
//
// Read: the tag pairs ([Name "value"], with \" and \\ escapes); movetext with move numbers
// ("12." and "12..."), SAN (check and mate marks, annotations !?, castling O-O or 0-0,
// promotions e8=Q or e8Q), NAGs ($1), comments ({...} and ; to the end of the line), escape lines
// (% at the start of a line) and variations ((...), nested, skipped). The game ends at its
// result (1-0, 0-1, 1/2-1/2, *), or at the next game's tags, or at the end of the text. The
// position starts from the [FEN] tag when there is one (with or without [SetUp "1"]).
// A [Variant] tag other than standard chess is refused (bad_pgn); a leading UTF-8 byte order
// mark and an "e.p." after an en passant capture are skipped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace outpost::server {

// Larger texts are refused (too_large) before any parsing.
inline constexpr std::size_t kMaxPgnBytes = 256 * 1024;
// Games longer than this (plies of the main line) are refused (too_large).
inline constexpr std::size_t kMaxPgnPlies = 1200;

struct PgnImport {
    // Empty on success. Otherwise one of: "too_large", "bad_pgn" (malformed text: an
    // unterminated tag, comment or variation, no moves where moves were expected),
    // "invalid_fen" (the [FEN] tag), "illegal_move" (a move that is not legal or not a move).
    std::string errorCode;
    std::string error;  // for people: what is wrong and where
    int errorPly = 0;   // the ply (1 = the first move) of an illegal_move; 0 otherwise

    std::string initialFen;          // the [FEN] tag as given; empty for the start position
    std::vector<std::string> moves;  // UCI, the main line
    std::vector<std::pair<std::string, std::string>> tags;  // in the order of the text
    std::string result = "*";  // the movetext's result token (or the [Result] tag's)

    bool ok() const { return errorCode.empty(); }
};

PgnImport importPgn(std::string_view text);

}  // namespace outpost::server
