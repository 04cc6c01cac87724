// The network trainer's data (tools/nnue/training_data.h): what a datagen line parses to, which
// lines are refused, where games begin, and that the hold-out is whole games.
#include <bit>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "training_data.h"

using namespace outpost::nnue_data;

namespace {

// Positions of one game in datagen's format: move numbers rise, one line per ply from `firstPly`.
std::string gameLines(int firstPly, int plies, const char* result = "[0.5]") {
    std::string text;
    for (int ply = firstPly; ply < firstPly + plies; ++ply) {
        const bool black = ply % 2 == 1;
        text += std::string("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR ") +
                (black ? "b" : "w") + " KQkq - 0 " + std::to_string(ply / 2 + 1) + " " + result +
                " " + std::to_string(ply) + "\n";
    }
    return text;
}

// All of `text` read as one file, then finished.
Dataset readText(const std::string& text, double holdout, bool dedupe) {
    std::istringstream in(text);
    DataReader reader;
    reader.read(in);
    return std::move(reader).finish(holdout, dedupe);
}

constexpr const char* kLine =
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [1.0] -37";

}  // namespace

TEST_CASE("A datagen line parses to the side to move's score and result", "[nnue][data]") {
    const auto parsed = parseLine(kLine);
    REQUIRE(parsed);
    CHECK(parsed->sample.stm == 1);     // Black to move
    CHECK(parsed->sample.score == 37);  // -37 for White is +37 for Black
    CHECK(parsed->sample.result == 0);  // White won: a loss for the side to move
    CHECK(parsed->ply == 1);
    CHECK(std::popcount(parsed->sample.occupied) == 32);
    CHECK(parseLine(std::string(kLine) + "  \r"));  // trailing blanks are no damage
}

TEST_CASE("A sample gives back its board and side to move as a FEN", "[nnue][data]") {
    const auto parsed = parseLine(kLine);
    REQUIRE(parsed);
    CHECK(sampleFen(parsed->sample) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1");
    const auto endgame = parseLine("8/5k2/8/3Pp3/8/8/1K6/7R w - e6 3 50 [0.5] 120");
    REQUIRE(endgame);
    CHECK(sampleFen(endgame->sample) == "8/5k2/8/3Pp3/8/8/1K6/7R w - - 0 1");
}

TEST_CASE("A line cut short or run into by another is refused", "[nnue][data]") {
    const std::string line = kLine;
    // Cut inside the score, then the next write carried on on the same line: "-3" + a new FEN.
    CHECK_FALSE(parseLine(line.substr(0, line.size() - 1) + "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/"
                                                            "RNBQKBNR w KQkq - 0 1 [0.5] 12"));
    CHECK_FALSE(parseLine(line.substr(0, line.size() - 3)));  // no score at all
    CHECK_FALSE(parseLine(line + "x"));
    CHECK_FALSE(parseLine(line + " 5"));
    CHECK_FALSE(parseLine(line.substr(0, line.find(" [")) + " [1.0 -37"));
    // A board cut short: seven ranks.
    CHECK_FALSE(parseLine("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP b KQkq - 0 1 [1.0] -37"));
    CHECK_FALSE(parseLine("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN b KQkq - 0 1 [1.0] -37"));
    CHECK_FALSE(parseLine(""));
}

TEST_CASE("Games are told apart by their plies and by files", "[nnue][data]") {
    DataReader reader;
    std::istringstream first(gameLines(8, 30) + gameLines(8, 20) + gameLines(12, 10));
    REQUIRE(reader.read(first));
    std::istringstream second(gameLines(40, 10));  // a later ply, but a new file
    REQUIRE(reader.read(second));
    const Dataset data = std::move(reader).finish(0);
    CHECK(data.samples.size() == 70);
    CHECK(data.games == 4);
    CHECK(data.trainCount == 70);
}

TEST_CASE("The hold-out is whole games, nearest the fraction asked for", "[nnue][data]") {
    DataReader reader;
    // Games of 40, 30, 20 and 10 positions: 100 in all.
    std::istringstream in(gameLines(8, 40) + gameLines(8, 30) + gameLines(8, 20) +
                          gameLines(8, 10));
    reader.read(in);
    const Dataset data = std::move(reader).finish(0.25);
    // 25 asked: the game boundaries are at 40, 70 and 90 positions; 70 is nearest to 75.
    CHECK(data.trainCount == 70);
    CHECK(data.heldOutGames == 2);
    REQUIRE(data.samples.size() == 100);
    CHECK(data.samples[data.trainCount].score == 8);  // a game's start: its score is its ply

    CHECK(holdoutCut({0, 40, 70, 90}, 100, 0.05) == 90);
    CHECK(holdoutCut({0, 40, 70, 90}, 100, 0) == 100);
    // One long game, or games starting only in the first half: nothing held out, never most.
    CHECK(holdoutCut({0}, 100, 0.1) == 100);
    CHECK(holdoutCut({0, 10}, 100, 0.1) == 100);
}

TEST_CASE("The trainer's --max-positions reads exactly that many, over several files",
          "[nnue][data]") {
    DataReader reader(25);
    std::istringstream a(gameLines(8, 10)), b(gameLines(8, 10)), c(gameLines(8, 10));
    CHECK(reader.read(a));
    CHECK(reader.read(b));
    CHECK_FALSE(reader.read(c));  // full: the caller stops reading files
    std::istringstream d(gameLines(8, 10));
    CHECK_FALSE(reader.read(d));
    CHECK(std::move(reader).finish(0).samples.size() == 25);
}

TEST_CASE("A last line without its newline is left out, and bad lines are counted",
          "[nnue][data]") {
    DataReader reader;
    std::string text = gameLines(8, 3) + "garbage\n" + std::string(kLine);
    std::istringstream in(text);
    reader.read(in);
    const Dataset data = std::move(reader).finish(0);
    CHECK(data.samples.size() == 3);
    CHECK(data.skipped == 1);
}

TEST_CASE("Dedupe drops repeated positions and keeps each game's order and start", "[nnue][data]") {
    // Game A: three positions. Game B repeats A's first two (the same board and side to move,
    // other counters and scores), then one of its own. Game C is all repeats of A.
    const std::string a1 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 5 [0.5] 1\n";
    const std::string a2 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 6 [0.5] 2\n";
    const std::string a3 =
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 6 [0.5] 3\n";
    const std::string b3 = "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 6 [1.0] 4\n";
    const std::string same1 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 5 [1.0] 9\n";
    const std::string same2 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 6 [1.0] 9\n";
    // The same board with the other side to move is another position.
    const std::string other = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 6 [0.0] 5\n";
    const std::string text = a1 + a2 + a3 + same1 + same2 + b3 + a1 + a2 + other;

    const Dataset kept = readText(text, 0, false);
    CHECK(kept.samples.size() == 9);
    CHECK(kept.games == 3);
    CHECK(kept.duplicates == 0);

    const Dataset data = readText(text, 0, true);
    CHECK(data.duplicates == 4);
    REQUIRE(data.samples.size() == 5);
    // The first time each position was seen, in the order read: A's three, B's own, then C's.
    CHECK(data.samples[0].score == -1);  // Black to move: White's +1 is -1
    CHECK(data.samples[1].score == 2);
    CHECK(data.samples[2].score == -3);
    CHECK(data.samples[3].score == -4);
    CHECK(data.samples[4].score == -5);
    // Games A, B (now one position) and C (its one new position): three starts still.
    CHECK(data.games == 3);

    // A hold-out cut after dedupe falls on a game start of the deduplicated data: B's.
    const Dataset held = readText(text, 0.4, true);
    CHECK(held.trainCount == 3);
    CHECK(held.heldOutGames == 2);
}
