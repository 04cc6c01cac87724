#include "core/notation.h"

#include <catch2/catch.hpp>
#include <random>

#include "test_util.h"

using namespace outpost;

namespace {

std::string san(const std::string& fenText, const std::string& uci) {
    const Position pos = test::fen(fenText);
    const auto m = moveFromUci(pos, uci);
    REQUIRE(m.has_value());
    return moveToSan(pos, *m);
}

std::string uciOfSan(const std::string& fenText, const std::string& text) {
    const Position pos = test::fen(fenText);
    std::string error;
    const auto m = moveFromSan(pos, text, &error);
    INFO(text << ": " << error);
    REQUIRE(m.has_value());
    return moveToUci(*m);
}

std::string sanError(const std::string& fenText, const std::string& text) {
    const Position pos = test::fen(fenText);
    std::string error;
    const auto m = moveFromSan(pos, text, &error);
    CHECK(!m.has_value());
    return error;
}

}  // namespace

TEST_CASE("UCI and SAN round trip for every legal move of random games", "[notation]") {
    std::mt19937 rng(99);
    for (int game = 0; game < 60; ++game) {
        Position pos = game % 3 == 1   ? test::fen(test::kStandardFens[1])
                       : game % 3 == 2 ? test::fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1")
                                       : Position();
        for (int ply = 0; ply < 80; ++ply) {
            const auto moves = test::legalMoves(pos);
            if (moves.empty()) break;
            for (const Move m : moves) {
                const std::string s = moveToSan(pos, m);
                std::string error;
                const auto back = moveFromSan(pos, s, &error);
                INFO(pos.toFen() << " " << s << " " << error);
                REQUIRE(back.has_value());
                REQUIRE(*back == m);
                const auto fromUci = moveFromUci(pos, moveToUci(m));
                REQUIRE(fromUci.has_value());
                REQUIRE(*fromUci == m);
                REQUIRE(parseMove(pos, s) == m);
                REQUIRE(parseMove(pos, moveToUci(m)) == m);
            }
            pos.makeMove(moves[rng() % moves.size()]);
        }
    }
}

TEST_CASE("SAN writing", "[notation]") {
    const std::string start(kStartFen);
    CHECK(san(start, "g1f3") == "Nf3");
    CHECK(san(start, "e2e4") == "e4");
    const std::string kiwi = test::kStandardFens[1];
    CHECK(san(kiwi, "e1g1") == "O-O");
    CHECK(san(kiwi, "e1c1") == "O-O-O");
    CHECK(san(kiwi, "d5e6") == "dxe6");
    CHECK(san(kiwi, "e5f7") == "Nxf7");
    CHECK(san(kiwi, "c3b1") == "Nb1");
    // Disambiguation by file, by rank, and by both.
    CHECK(san("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2") == "Nbd2");
    CHECK(san("4k3/8/8/N7/8/8/8/N3K3 w - - 0 1", "a1b3") == "N1b3");
    CHECK(san("7k/8/8/8/Q1Q5/8/Q7/K7 w - - 0 1", "a4b3") == "Qa4b3");
    // Promotions, checks and mates.
    CHECK(san("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q") == "e8=Q");
    CHECK(san("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8n") == "exd8=N");
    CHECK(san("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q") == "e8=Q+");
    CHECK(san("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8") == "Ra8#");
    CHECK(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6") == "exd6");
}

TEST_CASE("SAN reading is tolerant", "[notation]") {
    const std::string promo = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";
    CHECK(uciOfSan(promo, "e8=Q") == "e7e8q");
    CHECK(uciOfSan(promo, "e8Q") == "e7e8q");
    CHECK(uciOfSan(promo, "e8q") == "e7e8q");
    CHECK(uciOfSan(promo, "e8(Q)") == "e7e8q");
    CHECK(uciOfSan(promo, "exd8N") == "e7d8n");
    CHECK(uciOfSan(promo, "ed8=R+") == "e7d8r");
    CHECK(uciOfSan(promo, "e7d8b") == "e7d8b");
    const std::string kiwi = test::kStandardFens[1];
    CHECK(uciOfSan(kiwi, "O-O") == "e1g1");
    CHECK(uciOfSan(kiwi, "0-0") == "e1g1");
    CHECK(uciOfSan(kiwi, "O-O-O") == "e1c1");
    CHECK(uciOfSan(kiwi, "0-0-0+") == "e1c1");
    CHECK(uciOfSan(kiwi, "Nxf7") == "e5f7");
    CHECK(uciOfSan(kiwi, "Nf7") == "e5f7");
    CHECK(uciOfSan(kiwi, "Nxf7+!?") == "e5f7");
    CHECK(uciOfSan(kiwi, "Ne5xf7") == "e5f7");
    CHECK(uciOfSan(kiwi, "Ne5-f7") == "e5f7");
    CHECK(uciOfSan(kiwi, "dxe6") == "d5e6");
    CHECK(uciOfSan(kiwi, "de6") == "d5e6");
    CHECK(uciOfSan(kiwi, "de") == "d5e6");
    CHECK(uciOfSan(kiwi, "Bxa6") == "e2a6");
    CHECK(uciOfSan(kiwi, "g3") == "g2g3");
    CHECK(uciOfSan(kiwi, "nxf7") == "e5f7");
    // Coordinates with a separator name any piece by its square, as they name a pawn.
    CHECK(uciOfSan(kiwi, "e5-f7") == "e5f7");
    CHECK(uciOfSan(kiwi, "e5xf7") == "e5f7");
    CHECK(uciOfSan(kiwi, "f3xf6") == "f3f6");
    CHECK(uciOfSan(kiwi, "e1-g1") == "e1g1");
    CHECK(uciOfSan(kiwi, "e1-c1") == "e1c1");
    CHECK(uciOfSan(kiwi, "e1-f1") == "e1f1");
    CHECK(uciOfSan(kiwi, "a2-a3") == "a2a3");
    CHECK(uciOfSan(std::string(kStartFen), "g1-f3") == "g1f3");
    CHECK(uciOfSan("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6") == "e5d6");
    CHECK(uciOfSan("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6e.p.") == "e5d6");
    // Lower-case b is the b-pawn; upper-case B the bishop.
    CHECK(uciOfSan("4k3/8/8/2p5/1P6/8/8/2B1K3 w - - 0 1", "bxc5") == "b4c5");
    CHECK(uciOfSan("4k3/8/8/8/1P6/8/8/2B1K3 w - - 0 1", "Bb2") == "c1b2");
}

TEST_CASE("SAN reading errors", "[notation]") {
    const std::string twoKnights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    CHECK(sanError(twoKnights, "Nd2").find("ambiguous") != std::string::npos);
    CHECK(sanError(twoKnights, "Nd2").find("Nbd2") != std::string::npos);
    CHECK(sanError(std::string(kStartFen), "e5").find("illegal") != std::string::npos);
    CHECK(sanError(std::string(kStartFen), "g1-g3").find("illegal move 'g1-g3'") !=
          std::string::npos);
    CHECK(sanError(std::string(kStartFen), "g1-f3=Q").find("illegal") != std::string::npos);
    CHECK(sanError(std::string(kStartFen), "O-O").find("not legal") != std::string::npos);
    CHECK(sanError(std::string(kStartFen), "").find("empty") != std::string::npos);
    CHECK(sanError(std::string(kStartFen), "Zz9").find("not a move") != std::string::npos);
    CHECK(sanError("4k3/4P3/8/8/8/8/8/K7 w - - 0 1", "e8").find("illegal") != std::string::npos);
    CHECK(sanError("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8").find("promotion") != std::string::npos);
    CHECK(sanError("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=K").find("king") != std::string::npos);
    // A promotion to something that is not a piece says so (it was "no destination square").
    for (const char* bad : {"e8=P", "e8=", "e8=X", "e8P", "e8p", "e7e8=", "exd8=P"}) {
        INFO(bad);
        CHECK(sanError("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", bad).find("bad promotion piece") !=
              std::string::npos);
    }
    {
        const Position promo = test::fen("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        for (const char* bad : {"e7e8p", "e7e8x", "e7d8P"}) {
            INFO(bad);
            std::string why;
            CHECK(!parseMove(promo, bad, &why));
            CHECK(why.find("bad promotion piece") != std::string::npos);
        }
        // Not promotions: a capture mark after a last-rank square, and a plain move, still read.
        CHECK(parseMove(test::fen("4k2r/8/8/8/8/8/8/4K2R w - - 0 1"), "Rh8x"));
        CHECK(parseMove(test::fen("4k2r/8/8/8/8/8/8/4K2R w - - 0 1"), "h1h8"));
    }
    const Position start;
    std::string error;
    // A null move is named as one (it was "not a move (no destination square)").
    for (const char* pass : {"0000", "--", "Z0"}) {
        INFO(pass);
        CHECK(!parseMove(start, pass, &error));
        CHECK(error.find("null move") != std::string::npos);
    }
    CHECK(!moveFromUci(start, "0000", &error));
    CHECK(error.find("null move") != std::string::npos);
    CHECK(!moveFromUci(start, "e2e5", &error));
    CHECK(error.find("illegal") != std::string::npos);
    CHECK(!moveFromUci(start, "e2", &error));
    CHECK(!moveFromUci(start, "e2e4x", &error));
    CHECK(!moveFromUci(test::fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"), "e7e8", &error));
    CHECK(error.find("promotion") != std::string::npos);
    // Castling written king-takes-rook is understood.
    CHECK(moveFromUci(test::fen(test::kStandardFens[1]), "e1h1") ==
          Move::make(E1, G1, MoveKind::Castling));
    CHECK(moveToUci(Move::none()) == "0000");
    CHECK(squareFromString("e4") == E4);
    CHECK(!squareFromString("i4"));
    CHECK(squareToString(H8) == "h8");
}
