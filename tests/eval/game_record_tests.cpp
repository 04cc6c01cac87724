// Datagen's binary game records (tools/nnue/game_record.h): a record reads back as written, replays
// to the samples its text lines would give, and a reader stops cleanly at a record cut short.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "core/notation.h"
#include "core/position.h"
#include "game_record.h"

using namespace outpost;
using namespace outpost::nnue_data;

namespace {

// A short game with a capture, castling and a promotion, the kept plies marked.
RecordedGame sampleGame() {
    RecordedGame game;
    game.startFen = "r3k2r/p6p/8/8/8/8/P5pP/R3K2R w KQkq - 3 40";
    game.result = 2;  // White won
    game.plies = {{"e1c1", 35, true},    {"e8g8", -40, true},  {"a2a4", 20, false},
                  {"g2h1n", 900, false}, {"d1h1", 850, false}, {"a7a5", 800, true}};
    return game;
}

// The text line datagen writes for a kept position (White's point of view).
std::string textLine(const Position& pos, const char* result, int score) {
    return pos.toFen() + " " + result + " " + std::to_string(score);
}

}  // namespace

TEST_CASE("A game record reads back as it was written", "[nnue][data]") {
    const RecordedGame game = sampleGame();
    std::stringstream bytes;
    REQUIRE(writeGameRecord(bytes, game));
    // 4 mark + 1 result + 1 length + FEN + 2 count + 4 a ply.
    CHECK(bytes.str().size() == 8 + game.startFen.size() + 4 * game.plies.size());
    CHECK(startsWithGameRecord(bytes));

    RecordedGame read;
    REQUIRE(readGameRecord(bytes, read) == RecordRead::Game);
    CHECK(read.startFen == game.startFen);
    CHECK(read.result == game.result);
    REQUIRE(read.plies.size() == game.plies.size());
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        CHECK(read.plies[i].uci == game.plies[i].uci);
        CHECK(read.plies[i].score == game.plies[i].score);
        CHECK(read.plies[i].kept == game.plies[i].kept);
    }
    CHECK(readGameRecord(bytes, read) == RecordRead::End);
}

TEST_CASE("A replayed game gives the samples of its text lines", "[nnue][data]") {
    const RecordedGame game = sampleGame();
    const auto replayed = replayGame(game);
    REQUIRE(replayed.size() == 3);

    Position pos = *Position::fromFen(game.startFen);
    std::size_t k = 0;
    for (const RecordedPly& ply : game.plies) {
        if (ply.kept) {
            const auto parsed = parseLine(textLine(pos, "[1.0]", ply.score));
            REQUIRE(parsed);
            CHECK(replayed[k].ply == parsed->ply);
            CHECK(replayed[k].sample.occupied == parsed->sample.occupied);
            CHECK(replayed[k].sample.pieces == parsed->sample.pieces);
            CHECK(replayed[k].sample.score == parsed->sample.score);
            CHECK(replayed[k].sample.result == parsed->sample.result);
            CHECK(replayed[k].sample.stm == parsed->sample.stm);
            ++k;
        }
        pos.makeMove(*moveFromUci(pos, ply.uci));
    }
}

TEST_CASE("A record with an illegal move or a bad start replays to nothing", "[nnue][data]") {
    RecordedGame game = sampleGame();
    game.plies[2].uci = "e1e3";
    CHECK(replayGame(game).empty());
    game = sampleGame();
    game.startFen = "not a fen";
    CHECK(replayGame(game).empty());
    game = sampleGame();
    game.plies[0].uci = "b7";  // not square to square: not written
    std::stringstream bytes;
    CHECK_FALSE(writeGameRecord(bytes, game));
    CHECK(bytes.str().empty());
}

TEST_CASE("A reader stops at a record cut short and skips a corrupt one", "[nnue][data]") {
    std::stringstream full;
    REQUIRE(writeGameRecord(full, sampleGame()));
    REQUIRE(writeGameRecord(full, sampleGame()));
    const std::string bytes = full.str();

    // The second record is still being written: only the first game is read.
    std::stringstream cut(bytes.substr(0, bytes.size() - 3), std::ios::in | std::ios::binary);
    DataReader reader;
    reader.readGames(cut);
    const Dataset data = std::move(reader).finish(0);
    CHECK(data.samples.size() == 3);
    CHECK(data.games == 1);
    CHECK(data.skipped == 0);

    RecordedGame game;
    std::stringstream head(bytes.substr(0, 5));
    CHECK(readGameRecord(head, game) == RecordRead::CutShort);
    CHECK(head.tellg() == 0);  // left where the record began

    std::stringstream corrupt("XPG1" + bytes.substr(4));
    DataReader corruptReader;
    corruptReader.readFile(corrupt);  // not a record stream: read as text, nothing parses
    const Dataset none = std::move(corruptReader).finish(0);
    CHECK(none.samples.empty());
    std::stringstream second(bytes.substr(0, bytes.size() / 2) + "XPG1" +
                             bytes.substr(bytes.size() / 2 + 4));
    DataReader secondReader;
    secondReader.readGames(second);
    const Dataset one = std::move(secondReader).finish(0);
    CHECK(one.samples.size() == 3);
    CHECK(one.skipped == 1);
}

TEST_CASE("A reader goes on after a piece of a record that a stopped datagen left",
          "[nnue][data]") {
    std::stringstream one;
    REQUIRE(writeGameRecord(one, sampleGame()));
    const std::string record = one.str();
    // Game 1 whole, game 2 stopped in the middle of its moves, then games 3 and 4 that the next
    // run appended: game 2's moves swallow the start of game 3, which is lost with it.
    const std::string bytes = record + record.substr(0, record.size() - 10) + record + record;
    std::stringstream in(bytes, std::ios::in | std::ios::binary);
    DataReader reader;
    reader.readFile(in);
    const Dataset data = std::move(reader).finish(0);
    CHECK(data.games == 2);
    CHECK(data.samples.size() == 6);
    CHECK(data.skipped >= 1);

    // A stream with no mark after the corrupt one ends the reading.
    std::stringstream tail(record + std::string("OPG1junk-no-record-follows"),
                           std::ios::in | std::ios::binary);
    DataReader tailReader;
    tailReader.readFile(tail);
    const Dataset first = std::move(tailReader).finish(0);
    CHECK(first.games == 1);
    CHECK(first.samples.size() == 3);
}
