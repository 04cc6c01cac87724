#include <catch2/catch.hpp>
#include <random>

#include "test_util.h"

using namespace outpost;

namespace {

// The reason fromFen gives for rejecting text (empty if it was accepted).
std::string rejection(const std::string& text) {
    std::string error;
    const auto pos = Position::fromFen(text, &error);
    if (pos) return {};
    REQUIRE(!error.empty());
    return error;
}

}  // namespace

TEST_CASE("FEN round trips", "[fen]") {
    for (const std::string& text : test::kStandardFens) CHECK(test::fen(text).toFen() == text);
    CHECK(Position().toFen() == std::string(kStartFen));
    CHECK(test::fen("4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1").toFen() ==
          "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1");
    // Four fields: the counters default to 0 1.
    CHECK(test::fen("4k3/8/8/8/8/8/8/4K3 b - -").toFen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // Extra spaces are tolerated; castling letters in any order are normalised.
    CHECK(test::fen("  4k2r/8/8/8/8/8/8/R3K3  w  kQ  -  3  40 ").toFen() ==
          "4k2r/8/8/8/8/8/8/R3K3 w Qk - 3 40");
    CHECK(test::fen("4k3/8/8/8/8/8/8/4K3 b - - 7 31").gamePly() == 61);
}

TEST_CASE("every FEN written can be read back, counters past the reader's bounds included",
          "[fen]") {
    // A game from the largest fullmove number read (100000) and a long shuffle past the largest
    // halfmove clock read (1000): the FEN written after them must still be accepted.
    Position pos = test::fen("4k3/8/8/8/8/8/8/4K2R b - - 998 100000");
    const Move shuffle[] = {Move(E8, D8), Move(H1, H2), Move(D8, E8), Move(H2, H1)};
    for (int ply = 0; ply < 8; ++ply) pos.makeMove(shuffle[ply % 4]);
    const std::string written = pos.toFen();
    INFO(written);
    CHECK(rejection(written).empty());
    CHECK(written == "4k3/8/8/8/8/8/8/4K2R b - - 1000 100000");
    CHECK(pos.fullmoveNumber() == 100004);  // the position still counts on
}

TEST_CASE("FEN rejections say why", "[fen]") {
    const struct {
        const char* fen;
        const char* reason;  // a fragment of the expected message
    } cases[] = {
        {"", "wrong number of fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -  0", "wrong number of fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
         "wrong number of fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "bad piece letter"},
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 squares"},
        {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 squares"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter"},
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "exactly one black king"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", "exactly one white king"},
        {"4k3/8/8/8/8/8/8/4K2P w - - 0 1", "first or last rank"},
        {"3pk3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"},
        {"4k3/8/8/8/8/8/8/4K2r b - - 0 1", "not to move is in check"},
        {"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"},
        {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"},
        {"4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "no rook on h1"},
        {"4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", "king is not on its start square"},
        {"r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "no rook on h8"},
        {"4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "repeated"},
        {"4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", "bad castling field"},
        {"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "bad en-passant square"},
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", "impossible en-passant square"},
        {"4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", "impossible en-passant square"},
        {"4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1", "impossible en-passant square"},
        {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "bad halfmove clock"},
        {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "bad halfmove clock"},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 0", "bad fullmove number"},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999", "bad fullmove number"},
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 5 1", "bad halfmove clock"},
        {"4k3/8/8/8/8/8/PPPPPPP1/P3K3 w - - 0 1", "first or last rank"},
        {"4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "more than 8 white pawns"},
    };
    for (const auto& c : cases) {
        INFO("FEN: '" << c.fen << "'");
        const std::string why = rejection(c.fen);
        INFO("reason: " << why);
        CHECK(why.find(c.reason) != std::string::npos);
    }
}

TEST_CASE("FEN reading survives garbage", "[fen]") {
    std::mt19937 rng(7);
    const std::string alphabet = "pnbrqkPNBRQK12345678/ -wbKQkqa1h8e3e60\t\n\x01\xff";
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        if (i % 2) {
            // Mutations of a valid FEN.
            text = test::kStandardFens[i % test::kStandardFens.size()];
            for (int k = 0; k < 1 + int(rng() % 3); ++k)
                text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
        } else {
            const int len = int(rng() % 90);
            for (int k = 0; k < len; ++k) text += alphabet[rng() % alphabet.size()];
        }
        std::string error;
        const auto pos = Position::fromFen(text, &error);
        if (pos) {
            ++accepted;
            REQUIRE(pos->validate().empty());
            REQUIRE(Position::fromFen(pos->toFen()).has_value());
        } else {
            REQUIRE(!error.empty());
        }
    }
    CHECK(accepted > 0);
}
