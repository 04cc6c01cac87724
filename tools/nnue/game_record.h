// A compact binary record of a self-play game: the start position, then each ply's move and
// search score, instead of a FEN line per kept position (docs/nnue.md, "Data on disk").
//
// A record, little-endian:
//   "OPG1"                 4 bytes, the record's mark (a file is records one after another)
//   result                 1 byte: 0 Black won, 1 draw, 2 White won
//   FEN length, FEN        1 byte, then the start position's FEN (with its counters)
//   ply count              2 bytes
//   per ply                2 bytes move (from | to << 6 | promotion << 12, bit 15: the position
//                          before the move is a training position), 2 bytes score (centipawns,
//                          White's point of view)
// About 4 bytes a ply against about 70 for a FEN line; a game of 120 plies keeping 70 positions
// takes 560 bytes instead of 4,900. The trainer replays each game to get its positions, so the
// record also gives exact game boundaries (the text format has to guess them from move numbers).
// Appending a record is one write of whole bytes: a reader that meets a record cut short (the
// writer is still at it) stops there and can read it again later.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "training_data.h"

namespace outpost::nnue_data {

inline constexpr std::string_view kGameRecordMark = "OPG1";

struct RecordedPly {
    std::string uci;    // the move played, in UCI notation
    int score = 0;      // the search score before the move, centipawns, White's point of view
    bool kept = false;  // the position before the move is a training position
};

struct RecordedGame {
    std::string startFen;
    int result = 1;  // 0 Black won, 1 draw, 2 White won
    std::vector<RecordedPly> plies;
};

// Writes one record. False (nothing written) for a game it cannot encode: a start FEN longer
// than 255 characters, more than 65,535 plies, or a move that is not UCI square-to-square.
bool writeGameRecord(std::ostream& out, const RecordedGame& game);

enum class RecordRead { Game, End, CutShort, Corrupt };

// Reads the next record. End at the end of the stream; CutShort when the stream ends inside a
// record (the stream is left where the record began, for a later try); Corrupt for a record
// that is not one (no mark, a zero-length FEN, a result out of range).
RecordRead readGameRecord(std::istream& in, RecordedGame& game);

// Replays a game from its start position and gives the kept positions as samples, in order
// (the same samples parseLine gives for the text lines of the same game). Empty when the start
// FEN or a move is not legal: the record does not describe a game.
std::vector<ParsedLine> replayGame(const RecordedGame& game);

// After a corrupt record that began at `from`: moves the stream to the next record's mark after
// `from` and gives true, or to the end and gives false. A datagen stopped in the middle of a
// write leaves a piece of a record that the next run appends after; what follows is not lost.
bool skipToNextRecord(std::istream& in, std::streampos from);

// True when the stream starts with a game record's mark (the stream's position is kept).
bool startsWithGameRecord(std::istream& in);

}  // namespace outpost::nnue_data
