// Opening names by position (server/openings): the embedded lichess-org/chess-openings tables,
// transpositions, games that leave theory, custom start positions, bad table rows, and the
// `opening` field of the API's objects.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "games/game_clock.h"
#include "games/game_json.h"
#include "games/pgn_writer.h"
#include "openings/embedded_openings.h"
#include "openings/openings.h"
#include "review/review_json.h"

using namespace outpost::server;

namespace {

using Moves = std::vector<std::string>;

// Data rows of the embedded files, counted from their text (every non-empty line but the header).
std::size_t embeddedRows() {
    std::size_t rows = 0;
    for (const OpeningTsv& file : embeddedOpeningTables()) {
        std::size_t lines = 0;
        std::size_t at = 0;
        while (at < file.text.size()) {
            const std::size_t end = std::min(file.text.find('\n', at), file.text.size());
            if (end > at) ++lines;
            at = end + 1;
        }
        rows += lines - 1;
    }
    return rows;
}

const char* const kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

}  // namespace

TEST_CASE("Openings: the embedded tables load whole", "[openings]") {
    REQUIRE(embeddedOpeningTables().size() == 5);
    CHECK(embeddedOpeningTables().front().name == "a.tsv");
    const auto started = std::chrono::steady_clock::now();
    const OpeningTable table = OpeningTable::fromTsv(embeddedOpeningTables());
    const auto elapsed = std::chrono::steady_clock::now() - started;
    INFO("built in " << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()
                     << " ms");
    CHECK(table.lines() == embeddedRows());
    CHECK(table.lines() > 3000);
    // Some rows name a position another row names too (a transposition of a shorter row).
    CHECK(table.positions() <= table.lines());
    CHECK(table.positions() > table.lines() * 9 / 10);
    CHECK(table.maxPly() == 36);
    CHECK(standardOpenings().lines() == table.lines());
}

TEST_CASE("Openings: a known opening by its moves", "[openings]") {
    auto opening = openingOf("", {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"});
    REQUIRE(opening);
    CHECK(opening->eco == "C50");
    CHECK(opening->name == "Italian Game");

    opening = openingOf("", {"e2e4", "c7c5"});
    REQUIRE(opening);
    CHECK(*opening == Opening{"B20", "Sicilian Defense"});
    // The start position is not named: no moves, no opening.
    CHECK_FALSE(openingOf("", {}));
}

TEST_CASE("Openings: a transposition is named by the position it reaches", "[openings]") {
    // 1. Nf3 Nc6 2. e4 e5 3. Bc4 reaches the Italian Game's position by another order.
    const auto direct = openingOf("", {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"});
    const auto transposed = openingOf("", {"g1f3", "b8c6", "e2e4", "e7e5", "f1c4"});
    REQUIRE(transposed);
    CHECK(*transposed == *direct);
    // On the way it was a Zukertort Opening.
    const auto early = openingOf("", {"g1f3", "b8c6"});
    REQUIRE(early);
    CHECK(early->eco == "A04");
}

TEST_CASE("Openings: a game that leaves theory keeps the last named opening", "[openings]") {
    const Moves italian = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"};
    Moves game = italian;
    for (const char* move : {"a8b8", "h1g1", "b8a8", "g1h1", "a8b8", "h1g1"}) game.push_back(move);
    const auto opening = openingOf("", game);
    REQUIRE(opening);
    CHECK(*opening == *openingOf("", italian));

    // Moves past the longest row are not looked at: a named position there would not count.
    Moves shuffle;
    for (int i = 0; i < 10; ++i) {
        for (const char* move : {"g1f3", "g8f6", "f3g1", "f6g8"}) shuffle.push_back(move);
    }
    shuffle.push_back("e2e4");
    REQUIRE(shuffle.size() > std::size_t(standardOpenings().maxPly()));
    const auto late = openingOf("", shuffle);
    REQUIRE(late);
    CHECK(late->eco != "B00");  // 1. e4's position, reached after ply 36, is not it
}

TEST_CASE("Openings: a custom start position is named only by what it reaches", "[openings]") {
    CHECK_FALSE(openingOf("8/8/8/4k3/8/8/8/4K3 w - - 0 1", {"e1e2", "e5e4"}));
    // A FEN that is a named position is that opening, before any move.
    const auto afterE4 = openingOf(kAfterE4, {});
    REQUIRE(afterE4);
    CHECK(*afterE4 == Opening{"B00", "King's Pawn Game"});
    // A FEN that does not load, or an illegal move, names nothing more.
    CHECK_FALSE(openingOf("not a fen", {}));
    const auto stopped = openingOf("", {"e2e4", "e7e5", "e1e3", "g8f6"});
    REQUIRE(stopped);
    CHECK(stopped->eco == "C20");
}

TEST_CASE("Openings: addOpening sets the field only when a position is named", "[openings]") {
    nlohmann::json json = nlohmann::json::object();
    addOpening(json, "", {"e2e4", "c7c5"});
    REQUIRE(json.contains("opening"));
    CHECK(json["opening"] == nlohmann::json{{"eco", "B20"}, {"name", "Sicilian Defense"}});
    nlohmann::json none = nlohmann::json::object();
    addOpening(none, "", {});
    CHECK_FALSE(none.contains("opening"));
}

TEST_CASE("Openings: a table from rows, shortest row first, bad rows named", "[openings]") {
    const OpeningTsv rows[] = {{"x.tsv",
                                "eco\tname\tpgn\n"
                                "C44\tLong Way\t1. Nf3 Nc6 2. e4 e5\n"
                                "C44\tShort Way\t1. e4 e5 2. Nf3 Nc6\n"
                                "\n"
                                "B00\tDetour\t1. Nf3 Nf6 2. Ng1 Ng8 3. e4\n"
                                "B00\tKing's Pawn\t1. e4\n"}};
    const OpeningTable table = OpeningTable::fromTsv(rows);
    CHECK(table.lines() == 4);
    CHECK(table.positions() == 2);
    CHECK(table.maxPly() == 5);
    // Both rows reach one position; neither is shorter, so the first stays.
    const auto opening = table.classify("", {"e2e4", "e7e5", "g1f3", "b8c6"});
    REQUIRE(opening);
    CHECK(opening->name == "Long Way");
    // The shorter row names a shared position, whatever the order of the rows.
    const auto e4 = table.classify("", {"e2e4"});
    REQUIRE(e4);
    CHECK(e4->name == "King's Pawn");

    const OpeningTsv illegal[] = {{"y.tsv", "eco\tname\tpgn\nA00\tNonsense\t1. e4 e5 2. Ke3\n"}};
    CHECK_THROWS_WITH(OpeningTable::fromTsv(illegal), Catch::Contains("y.tsv:2: move 'Ke3'"));
    const OpeningTsv columns[] = {{"z.tsv", "A00\tMissing moves\n"}};
    CHECK_THROWS_WITH(OpeningTable::fromTsv(columns), Catch::Contains("z.tsv:1: expected"));
}

namespace {

GameRecord recordOf(std::string initialFen, Moves moves) {
    GameRecord game;
    game.id = "opening-test";
    game.initialFen = std::move(initialFen);
    game.moves = std::move(moves);
    game.status = "ongoing";
    game.result = "*";
    game.engine.side = "none";
    return game;
}

const Moves kItalian = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"};
const nlohmann::json kItalianJson = {{"eco", "C50"}, {"name", "Italian Game"}};
const char* const kBareKings = "8/8/8/4k3/8/8/8/4K3 w - - 0 1";

}  // namespace

TEST_CASE("Openings: the game, its events and its PGN name the opening", "[openings]") {
    const GameRecord game = recordOf(ChessState::kStartFen, kItalian);
    const nlohmann::json json = gameJson(game, nowEpochMs());
    REQUIRE(json.contains("opening"));
    CHECK(json["opening"] == kItalianJson);
    const nlohmann::json state = nlohmann::json::parse(gameEventPayload(game, nowEpochMs()));
    CHECK(state["opening"] == kItalianJson);
    const std::string pgn = gamePgn(game);
    CHECK(pgn.find("[ECO \"C50\"]\n[Opening \"Italian Game\"]\n") != std::string::npos);

    const GameRecord custom = recordOf(kBareKings, {"e1e2"});
    CHECK_FALSE(gameJson(custom, nowEpochMs()).contains("opening"));
    CHECK(nlohmann::json::parse(gameEventPayload(custom, nowEpochMs()))["opening"].is_null());
    CHECK(gamePgn(custom).find("[ECO") == std::string::npos);
}

TEST_CASE("Openings: an analysis names the opening of the position analysed", "[openings]") {
    const ServerConfig config;
    auto parsed = parseAnalysis({{"moves", {"e4", "e5", "Nf3", "Nc6", "Bc4"}}}, config, {});
    REQUIRE(std::holds_alternative<AnalysisSpec>(parsed));
    const AnalysisSpec& spec = std::get<AnalysisSpec>(parsed);
    const nlohmann::json result = analysisResultJson(JobOutcome{}, spec);
    CHECK(result["opening"] == kItalianJson);

    auto bare = parseAnalysis({{"fen", kBareKings}}, config, {});
    REQUIRE(std::holds_alternative<AnalysisSpec>(bare));
    CHECK_FALSE(analysisResultJson(JobOutcome{}, std::get<AnalysisSpec>(bare)).contains("opening"));
}

TEST_CASE("Openings: a review names the opening of the reviewed game", "[openings]") {
    review::ReviewState state;
    state.id = "review-test";
    const auto game = review::makeReviewGame("", kItalian);
    state.positions.resize(game->total());
    CHECK(review::reviewJson(*game, state)["opening"] == kItalianJson);

    const auto bare = review::makeReviewGame(kBareKings, {"e1e2"});
    state.positions.assign(bare->total(), std::nullopt);
    CHECK_FALSE(review::reviewJson(*bare, state).contains("opening"));
}
