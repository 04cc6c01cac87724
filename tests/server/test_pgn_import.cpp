// PGN import: the main line of real-world PGN (comments, variations, NAGs, numbers, castling,
// promotions, FEN start) and clear errors for what is not a game.
#include <catch2/catch.hpp>

#include "games/chess_rules.h"
#include "games/pgn_import.h"
#include "games/pgn_writer.h"

using namespace outpost::server;

TEST_CASE("PGN import: tags, comments, variations, NAGs and the result", "[pgn]") {
    const PgnImport game = importPgn(R"([Event "Casual"]
[White "A \"quoted\" name"]
[Black "B"]
[Result "1-0"]

% an escape line
1. e4 {best by test} e5 2. Nf3 $1 (2. f4 exf4 (2... d5) 3. Nf3) Nc6 ; a rest-of-line comment
3.Bb5 a6?! 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 0-0 9. h3 Na5 10. Bc2 c5
11. d4 Qc7 1-0
)");
    REQUIRE(game.ok());
    CHECK(game.result == "1-0");
    CHECK(game.initialFen.empty());
    REQUIRE(game.tags.size() == 4);
    CHECK(game.tags[1].second == "A \"quoted\" name");
    REQUIRE(game.moves.size() == 22);
    CHECK(game.moves[0] == "e2e4");
    CHECK(game.moves[2] == "g1f3");
    CHECK(game.moves[3] == "b8c6");   // the variation was skipped
    CHECK(game.moves[8] == "e1g1");   // O-O
    CHECK(game.moves[15] == "e8g8");  // 0-0
    CHECK(game.moves[21] == "d8c7");
}

TEST_CASE("PGN import: a FEN start, promotions, check and mate marks", "[pgn]") {
    const PgnImport game = importPgn(R"([SetUp "1"]
[FEN "8/P6k/8/8/8/8/6pK/8 w - - 0 1"]

1. a8=Q+ Kg6 2. Kxg2 Kf5 3. Qf8+ *)");
    REQUIRE(game.ok());
    CHECK(game.initialFen == "8/P6k/8/8/8/8/6pK/8 w - - 0 1");
    CHECK(game.moves == std::vector<std::string>{"a7a8q", "h7g6", "h2g2", "g6f5", "a8f8"});
    CHECK(game.result == "*");

    const PgnImport mate = importPgn("1. f3 e5 2. g4 Qh4# 0-1");
    REQUIRE(mate.ok());
    CHECK(mate.moves.back() == "d8h4");
    CHECK(mate.result == "0-1");
    // Only the first game of several.
    const PgnImport first = importPgn("[Event \"1\"]\n\n1. d4 *\n\n[Event \"2\"]\n\n1. e4 e5 *");
    REQUIRE(first.ok());
    CHECK(first.moves == std::vector<std::string>{"d2d4"});
    // No moves at all is a game too (a review of the start position).
    CHECK(importPgn("[Event \"empty\"]\n\n*").moves.empty());
}

TEST_CASE("PGN import: errors say which move and why", "[pgn]") {
    const PgnImport illegal = importPgn("1. e4 e5 2. Ke3 Nc6 *");
    CHECK(illegal.errorCode == "illegal_move");
    CHECK(illegal.errorPly == 3);
    CHECK(illegal.error.find("2. Ke3") != std::string::npos);

    const PgnImport black = importPgn("1. e4 e5 2. d4 Ke6 *");
    CHECK(black.errorCode == "illegal_move");
    CHECK(black.errorPly == 4);
    CHECK(black.error.find("2... Ke6") != std::string::npos);

    CHECK(importPgn("1. e4 {never closed").errorCode == "bad_pgn");
    CHECK(importPgn("1. e4 (1. d4 d5").errorCode == "bad_pgn");
    CHECK(importPgn("[Event \"x\"\n1. e4").errorCode == "bad_pgn");
    CHECK(importPgn("1. e4 ) e5").errorCode == "bad_pgn");
    CHECK(importPgn("[FEN \"not a fen\"]\n\n1. e4").errorCode == "invalid_fen");
    CHECK(importPgn("1. f3 e5 2. g4 Qh4# 3. a3").errorCode == "illegal_move");  // after mate
    CHECK(importPgn("hello world").errorCode == "illegal_move");

    const std::string huge(kMaxPgnBytes + 1, ' ');
    CHECK(importPgn(huge).errorCode == "too_large");
    std::string longGame;
    for (int i = 0; i < 400; ++i) longGame += "Nf3 Nf6 Ng1 Ng8 ";
    CHECK(importPgn(longGame).errorCode == "too_large");
}

TEST_CASE("PGN import: a file that starts with a UTF-8 byte order mark", "[pgn]") {
    // Saved by a Windows editor or downloaded from a site that writes one, with CRLF lines.
    const PgnImport tagged =
        importPgn("\xEF\xBB\xBF[Event \"x\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 1-0\r\n");
    REQUIRE(tagged.ok());
    REQUIRE(tagged.tags.size() == 2);
    CHECK(tagged.tags[0].first == "Event");
    CHECK(tagged.moves == std::vector<std::string>{"e2e4", "e7e5"});
    CHECK(tagged.result == "1-0");

    const PgnImport bare = importPgn(
        "\xEF\xBB\xBF"
        "1. d4 d5 *");
    REQUIRE(bare.ok());
    CHECK(bare.moves == std::vector<std::string>{"d2d4", "d7d5"});
}

TEST_CASE("PGN import: an en passant capture marked e.p. apart from its move", "[pgn]") {
    const PgnImport game = importPgn("1. e4 d5 2. e5 f5 3. exf6 e.p. Nxf6 4. d4 *");
    REQUIRE(game.ok());
    CHECK(game.moves ==
          std::vector<std::string>{"e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "g8f6", "d2d4"});
}

TEST_CASE("PGN import: a game of another variant is refused, not read as chess", "[pgn]") {
    // A King of the Hill game (a king in the centre wins it): every move is legal chess.
    const PgnImport koth = importPgn(R"([Event "Rated King of the Hill game"]
[Variant "King of the Hill"]
[Result "1-0"]

1. e4 e5 2. Ke2 Ke7 3. Ke3 Ke6 4. Kd3 Kd6 5. Kc4 Kc6 1-0
)");
    CHECK(koth.errorCode == "bad_pgn");
    CHECK(koth.error.find("King of the Hill") != std::string::npos);
    CHECK(koth.moves.empty());

    // Chess960: the message names the variant, not the castling field of its FEN.
    const PgnImport c960 = importPgn(
        "[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w "
        "HFhf - 2 9\"]\n\n9. g3 *");
    CHECK(c960.errorCode == "bad_pgn");
    CHECK(c960.error.find("Chess960") != std::string::npos);

    // Standard chess, as Lichess and others name it.
    CHECK(importPgn("[Variant \"Standard\"]\n\n1. e4 *").ok());
    CHECK(importPgn("[Variant \"From Position\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n"
                    "1. e4 *")
              .ok());
    CHECK(importPgn("[Variant \"chess\"]\n\n1. e4 *").ok());
}

TEST_CASE("PGN import: an error names a long piece of the text by its first 40 bytes", "[pgn]") {
    // A paste that is not PGN (a long word, a long tag name): the message stays short and is
    // valid UTF-8 (the cut does not split the two bytes of an e acute).
    std::string word;
    for (int i = 0; i < 3000; ++i) word += "\xC3\xA9";
    const PgnImport game = importPgn("1. e4 " + word + " *");
    CHECK(game.errorCode == "illegal_move");
    CHECK(game.errorPly == 2);
    CHECK(game.error.size() < 200);
    CHECK(game.error.find("move 1... " + word.substr(0, 40) + "... (ply 2)") != std::string::npos);

    const PgnImport tag = importPgn("[" + std::string(5000, 'A') + " \"x");
    CHECK(tag.errorCode == "bad_pgn");
    CHECK(tag.error.size() < 200);
}

TEST_CASE("PGN export read back: an aborted game is unterminated, not ended normally", "[pgn]") {
    GameRecord game;
    game.initialFen = ChessState::kStartFen;
    game.moves = {"e2e4"};
    game.status = "aborted";
    game.result = "*";
    const std::string pgn = gamePgn(game);
    INFO(pgn);
    CHECK(pgn.find("[Termination \"unterminated\"]") != std::string::npos);
    const PgnImport back = importPgn(pgn);
    REQUIRE(back.ok());
    CHECK(back.moves == game.moves);
    CHECK(back.result == "*");

    game.status = "resigned";
    game.result = "0-1";
    CHECK(gamePgn(game).find("[Termination \"normal\"]") != std::string::npos);
}
