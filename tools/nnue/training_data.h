// The trainer's data: outpost-datagen's lines parsed into packed samples, and the hold-out cut at
// a game boundary (kept apart from trainer.cpp so the parsing and the cut can be tested).
//
// A line is "FEN [result] score": the game's result and the search score in centipawns, both from
// White's point of view, and nothing after the score. The data carries no game marker; datagen
// writes each game's positions together and in the order they were played, so a position whose
// game ply (from the FEN's side to move and move number) is not beyond the previous line's starts
// a new game, and so does the first line of each file. Some boundaries go unseen (a game whose
// first kept position comes later in the game than the previous game's last one): the games on
// either side then count as one, which only leaves the cut fewer places to fall.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace outpost::nnue_data {

struct Sample {
    std::uint64_t occupied;
    std::array<std::uint8_t, 16> pieces;  // 4-bit codes in square order: colour x 6 + type - 1
    std::int16_t score;                   // centipawns, side to move
    std::uint8_t result;                  // 0 loss, 1 draw, 2 win for the side to move
    std::uint8_t stm;
};
static_assert(sizeof(Sample) == 32);

// The code (colour x 6 + type - 1) of a sample's n-th piece in square order.
inline int sampleCode(const Sample& s, int n) {
    return (s.pieces[std::size_t(n / 2)] >> (4 * (n % 2))) & 15;
}

struct ParsedLine {
    Sample sample;
    int ply = 0;  // half-moves since the game's start position's move 1 (the FEN's counters)
};

// One datagen line, or nothing for anything else: a missing or malformed field, a board that is
// not eight ranks of eight squares, a score with anything after it (a line cut short inside its
// score, then run into by the next write, must not parse as a shorter score).
std::optional<ParsedLine> parseLine(std::string_view line);

// The position a sample stands for as a FEN, for the engine's own inference on held-out samples:
// the board and the side to move (no castling rights, en passant square or move counters: the
// sample does not keep them, and neither evaluation reads them). The data holds only samples, 32
// bytes a position, and never the lines' text.
std::string sampleFen(const Sample& s);

struct Dataset {
    std::vector<Sample> samples;
    std::size_t trainCount = 0;  // the first trainCount samples train; the rest are held out
    std::size_t skipped = 0;     // lines (or game records) that did not parse
    std::size_t games = 0;       // games told apart (see above)
    std::size_t heldOutGames = 0;
    std::size_t duplicates = 0;  // positions dropped as repeats of an earlier one (dedupe)
};

// Reads datagen files one after another into a Dataset, up to a number of positions.
class DataReader {
  public:
    explicit DataReader(std::size_t maxPositions = 0) : maxPositions_(maxPositions) {}

    // Reads one file (a new file starts a new game). A last line without its newline may still
    // be being written: it is left out. False once maxPositions are read (stop reading).
    bool read(std::istream& in);
    // Reads one file of binary game records (game_record.h): each game is replayed, its kept
    // positions become samples, and each record starts a game. A record cut short at the end
    // (still being written) is left out; a corrupt one counts as skipped and ends the file.
    bool readGames(std::istream& in);
    // Either of the two, by what the file starts with (a stream open in binary mode).
    bool readFile(std::istream& in);
    bool full() const { return maxPositions_ != 0 && samples_.size() >= maxPositions_; }

    // The samples read, about the last `holdout` fraction of them held out in whole games (see
    // holdoutCut). With dedupe, a position (board and side to move) seen before is dropped
    // first, keeping the first time it was seen and every game's order: the trainer does not
    // weigh the common opening positions several times over, and no held-out position is also
    // a training position.
    Dataset finish(double holdout, bool dedupe = false) &&;

  private:
    std::size_t removeDuplicates();

    std::size_t maxPositions_;
    std::vector<Sample> samples_;
    std::vector<std::size_t> gameStarts_;  // sample indices where a game begins
    std::size_t skipped_ = 0;
};

// The index of the first held-out sample: the game start nearest to count x (1 - holdout), among
// the starts in the second half of the data (count, nothing held out, when holdout is 0 or no
// game starts there).
std::size_t holdoutCut(const std::vector<std::size_t>& gameStarts, std::size_t count,
                       double holdout);

}  // namespace outpost::nnue_data
