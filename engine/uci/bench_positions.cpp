// The bench positions: openings played out to the middlegame (written as move lists, so they are
// legal by construction), the standard move-generator test positions, and endgames that stress
// the table and the draw rules. Changing this list changes the bench signature.
#include "uci/bench.h"

namespace outpost::uci {

const std::vector<BenchPosition>& benchPositions() {
    static const std::vector<BenchPosition> kPositions = {
        // Openings into the middlegame.
        {"", ""},
        {"", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8"},
        {"", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1g5 e7e6 f2f4"},
        {"", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 b8d7"},
        {"", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8 f1e2 e7e5 e1g1 b8c6 d4d5 c6e7"},
        {"", "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4 e4e5 c7c5 a2a3 b4c3 b2c3 g8e7"},
        {"", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5 e4g3 f5g6 h2h4 h7h6 g1f3 b8d7"},
        {"", "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5 c4d5 f6d5 f1g2 d5b6"},
        {"", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d4 e5d4 c3d4 c5b4 c1d2 b4d2 b1d2 d7d5"},
        {"", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 d1c2 e8g8 a2a3 b4c3 c2c3 b7b6"},
        {"", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 g8f6 g1f3 c8f5"},
        {"", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4 a2a4 c8f5 e2e3 e7e6 f1c4 f8b4 e1g1"},
        {"", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4 d2d4 d6d5 f1d3"},
        {"", "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7 d2d3 d7d6"},
        {"", "d2d4 f7f5 g2g3 g8f6 f1g2 g7g6 g1f3 f8g7 e1g1 e8g8 c2c4 d7d6 b1c3"},
        {"", "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6 c1e3 a7a6 d1d2 b7b5"},
        {"", "e2e4 e7e5 f2f4 e5f4 g1f3 g7g5 h2h4 g5g4 f3e5 g8f6"},
        {"", "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g8f6 b1c3 e7e5 d4b5 d7d6 c1g5 a7a6 b5a3 b7b5"},
        {"", "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5 c4b5 a7a6 b5a6 c8a6 b1c3 d7d6"},
        {"", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d1e2"},
        // A mate in one on the board (the scholar's mate trap).
        {"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", ""},
        // The standard move-generator test positions: castling, promotions, en passant, pins.
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ""},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", ""},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", ""},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", ""},
        {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", ""},
        // Endgames.
        {"8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1", ""},
        {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", ""},
        {"1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1", ""},
        {"8/8/4k3/8/4PK2/r7/8/7R b - - 0 1", ""},
        {"8/5pk1/6p1/8/5P2/6P1/r4PK1/4R3 w - - 0 1", ""},
        {"8/p7/8/8/8/8/7P/K6k w - - 0 1", ""},
        {"8/8/3bk3/8/3PK3/8/8/2B5 w - - 0 1", ""},
        {"8/8/8/8/8/4k3/8/R3K3 w Q - 0 1", ""},
    };
    return kPositions;
}

}  // namespace outpost::uci
