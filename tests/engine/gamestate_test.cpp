#include <catch2/catch.hpp>

#include "core/notation.h"
#include "test_util.h"

using namespace outpost;

namespace {

void play(Position& pos, std::initializer_list<const char*> moves) {
    for (const char* text : moves) {
        std::string error;
        const auto m = parseMove(pos, text, &error);
        INFO(text << ": " << error);
        REQUIRE(m.has_value());
        pos.makeMove(*m);
    }
}

}  // namespace

TEST_CASE("checkmate and stalemate", "[gamestate]") {
    Position pos;
    play(pos, {"f3", "e5", "g4", "Qh4#"});
    CHECK(pos.gameStatus() == GameStatus::Checkmate);
    CHECK(pos.inCheck());
    CHECK(!hasLegalMove(pos));
    CHECK(test::fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").gameStatus() == GameStatus::Stalemate);
    CHECK(test::fen("8/8/8/8/8/3k4/3p4/3K4 w - - 0 1").gameStatus() == GameStatus::Stalemate);
    CHECK(Position().gameStatus() == GameStatus::Ongoing);
}

TEST_CASE("threefold repetition", "[gamestate]") {
    Position pos;
    play(pos, {"Nf3", "Nf6", "Ng1", "Ng8"});
    CHECK(pos.repetitionCount() == 2);
    CHECK(pos.gameStatus() == GameStatus::Ongoing);
    CHECK(!pos.isRepetition(0));
    CHECK(pos.isRepetition(5));  // a repetition inside the search tree already counts
    play(pos, {"Nf3", "Nf6", "Ng1", "Ng8"});
    CHECK(pos.repetitionCount() == 3);
    CHECK(pos.gameStatus() == GameStatus::ThreefoldRepetition);
    CHECK(pos.isRepetition(0));
    CHECK(pos.isDraw(0));
    // A pawn move resets the count.
    play(pos, {"e4"});
    CHECK(pos.repetitionCount() == 1);
}

TEST_CASE("repetition needs the same castling rights", "[gamestate]") {
    Position pos = test::fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(pos, {"Ke2", "Ke7", "Ke1", "Ke8", "Ke2", "Ke7", "Ke1", "Ke8"});
    // The first position had castling rights; later ones do not: only two repetitions.
    CHECK(pos.repetitionCount() == 2);
    CHECK(pos.gameStatus() == GameStatus::Ongoing);
}

TEST_CASE("fifty-move rule", "[gamestate]") {
    Position pos = test::fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    CHECK(pos.gameStatus() == GameStatus::Ongoing);
    play(pos, {"Ra2"});
    CHECK(pos.rule50() == 100);
    CHECK(pos.gameStatus() == GameStatus::FiftyMoves);
    CHECK(pos.isDraw(0));
    // Mate on the hundredth ply is still mate.
    Position mate = test::fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(mate, {"Ra8#"});
    CHECK(mate.gameStatus() == GameStatus::Checkmate);
    CHECK(!mate.isDraw(0));
}

TEST_CASE("insufficient material", "[gamestate]") {
    const struct {
        const char* fen;
        bool insufficient;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
        {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
        {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
        {"4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", false},  // bishops on different colors
        {"4k1b1/8/8/8/8/8/8/4KB2 w - - 0 1", true},  // both on light squares
        {"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false},
        {"4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false},
        {"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
    };
    for (const auto& c : cases) {
        INFO(c.fen);
        const Position pos = test::fen(c.fen);
        CHECK(pos.hasInsufficientMaterial() == c.insufficient);
        if (c.insufficient) CHECK(pos.gameStatus() == GameStatus::InsufficientMaterial);
    }
    Position pos = test::fen("4k3/8/8/8/8/8/4q3/4KN2 w - - 0 1");
    play(pos, {"Kxe2"});
    CHECK(pos.gameStatus() == GameStatus::InsufficientMaterial);
}
