// Opening names by position: the lichess-org/chess-openings tables (server/openings/data, CC0)
// replayed once and indexed by the position each line reaches, so a game that gets there by
// another move order (a transposition) is named the same.
//
// The key of a position is the engine's Zobrist key, which hashes exactly what an EPD holds:
// piece placement, side to move, castling rights, and the en-passant square only when a pawn can
// take there (the tables' convention too); move counters are left out. A 64-bit key over a few
// thousand entries makes a false match about 1 in 10^15 per lookup.
//
// Immutable once built: one table serves every thread without locks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace outpost::server {

struct Opening {
    std::string eco;   // "C50"
    std::string name;  // "Italian Game"
    bool operator==(const Opening&) const = default;
};

// One TSV file: its name (for error messages) and its text, header line `eco\tname\tpgn` first.
struct OpeningTsv {
    std::string_view name;
    std::string_view text;
};

class OpeningTable {
  public:
    // Replays every line's moves from the standard start position. Throws std::invalid_argument
    // naming the file and line of a malformed row or an illegal move.
    static OpeningTable fromTsv(std::span<const OpeningTsv> files);

    // Rows read (every line but the headers).
    std::size_t lines() const { return lines_; }
    // Distinct positions named (rows reaching the same position count once).
    std::size_t positions() const { return byKey_.size(); }
    // The longest row, in plies: no later position of a game can be named.
    int maxPly() const { return maxPly_; }

    // The opening reached by a game from `initialFen` (empty: the standard start) through the
    // UCI `moves`: the named position latest in the game within the first maxPly() plies (the
    // start position counts). Nothing when none is named, or when the FEN does not load; an
    // illegal move ends the walk.
    std::optional<Opening> classify(std::string_view initialFen,
                                    const std::vector<std::string>& moves) const;

  private:
    struct Entry {
        Opening opening;
        int plies = 0;  // of the row that named it (the shortest row wins a shared position)
    };
    std::unordered_map<std::uint64_t, Entry> byKey_;
    std::size_t lines_ = 0;
    int maxPly_ = 0;
};

}  // namespace outpost::server
