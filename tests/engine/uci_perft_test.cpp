#include <catch2/catch.hpp>
#include <sstream>

#include "uci/uci.h"

using namespace outpost;

namespace {

std::string runUci(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    UciLoop loop(in, out);
    loop.run();
    return out.str();
}

}  // namespace

TEST_CASE("uci handshake", "[uci]") {
    const std::string out = runUci("uci\nisready\nquit\n");
    CHECK(out.find("id name Outpost") != std::string::npos);
    CHECK(out.find("uciok") != std::string::npos);
    CHECK(out.find("readyok") != std::string::npos);
}

TEST_CASE("go perft prints Stockfish's format", "[uci][perft]") {
    const std::string out = runUci("position startpos\ngo perft 2\n");
    CHECK(out.find("e2e4: 20\n") != std::string::npos);
    CHECK(out.find("g1f3: 20\n") != std::string::npos);
    CHECK(out.find("\n\nNodes searched: 400\n") != std::string::npos);
}

TEST_CASE("position with moves, fen and d", "[uci]") {
    const std::string out = runUci("position startpos moves e2e4 e7e5 g1f3\nd\n");
    CHECK(out.find("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2") !=
          std::string::npos);
    CHECK(out.find("Key: ") != std::string::npos);
    const std::string kiwi = runUci(
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 "
        "moves e1g1\ngo perft 1\n");
    CHECK(kiwi.find("Nodes searched: 43") != std::string::npos);
    const std::string bad = runUci("position fen 8/8/8 w - - 0 1\nposition startpos moves e2e5\n");
    CHECK(bad.find("invalid FEN") != std::string::npos);
    CHECK(bad.find("illegal move") != std::string::npos);
    CHECK(runUci("nonsense\n").find("Unknown command") != std::string::npos);
}
