#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/evaluate.h"
#include "eval/terms.h"
#include "eval/trace.h"
#include "eval/weight_values.h"
#include "eval/weights.h"
#include "fen_flip.h"

using namespace outpost;

namespace {

const std::vector<std::string> kFens = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "8/8/4k3/8/3PK3/8/8/8 w - - 0 1",
    "2r3k1/pb3pp1/1p2p2p/3nP3/3P4/P2B1N2/1P3PPP/2R3K1 b - - 3 25",
    "r1b2rk1/pp1n1ppp/2pbpq2/3p4/2PP4/2NBPN2/PPQ2PPP/R3K2R w KQ - 4 10",
    "4k3/8/8/3b4/8/8/2B1P3/4K3 w - - 0 1",
    "8/5k2/8/8/2n5/8/5K2/8 w - - 0 1",
    "3k4/3P4/3K4/8/8/8/8/8 b - - 0 1",
};

int evalFen(Evaluator& ev, const std::string& fen) {
    auto pos = Position::fromFen(fen);
    REQUIRE(pos.has_value());
    return ev.evaluate(*pos);
}

// Plays random legal moves from the start, collecting FENs along the way.
std::vector<std::string> randomGameFens(unsigned seed, int games, int maxPlies) {
    std::mt19937 rng(seed);
    std::vector<std::string> fens;
    for (int g = 0; g < games; ++g) {
        Position pos;
        for (int ply = 0; ply < maxPlies; ++ply) {
            MoveList moves;
            generateLegal(pos, moves);
            if (moves.empty()) break;
            std::uniform_int_distribution<std::size_t> pick(0, moves.size() - 1);
            pos.makeMove(moves[pick(rng)].move);
            fens.push_back(pos.toFen());
        }
    }
    return fens;
}

double traceScore(const eval::EvalTrace& t) {
    double mg = 0, eg = 0;
    const eval::S* w = eval::weightArray();
    for (std::size_t i = 0; i < eval::kNumWeights; ++i) {
        mg += t.coef[i] * w[i].mg;
        eg += t.coef[i] * w[i].eg;
    }
    const double white = eval::blendPhases(mg, eg, t.phase, t.scale);
    return t.whiteToMove ? white : -white;
}

}  // namespace

TEST_CASE("the start position scores only the tempo", "[eval]") {
    Evaluator ev;
    const int tempo = eval::kWeights.tempo.mg;  // full middlegame phase
    CHECK(evalFen(ev, kFens[0]) == tempo);
}

TEST_CASE("a position and its colour-flipped twin evaluate the same", "[eval][symmetry]") {
    Evaluator ev;
    for (const std::string& fen : kFens) {
        INFO(fen);
        CHECK(evalFen(ev, fen) == evalFen(ev, testing::flipFen(fen)));
    }
}

TEST_CASE("symmetry holds over positions from random games", "[eval][symmetry]") {
    Evaluator ev;
    const auto fens = randomGameFens(12345, 40, 160);
    REQUIRE(fens.size() > 1000);
    for (const std::string& fen : fens) {
        const int a = evalFen(ev, fen);
        const int b = evalFen(ev, testing::flipFen(fen));
        if (a != b) FAIL_CHECK(fen << " scores " << a << " but its twin " << b);
        CHECK(std::abs(a) < kEvalLimit);
    }
}

TEST_CASE("the pawn cache does not change scores", "[eval]") {
    Evaluator cached;
    const auto fens = randomGameFens(99, 10, 120);
    for (const std::string& fen : fens) {
        Evaluator fresh;
        const int first = evalFen(cached, fen);
        CHECK(first == evalFen(fresh, fen));
        CHECK(first == evalFen(cached, fen));
    }
    cached.clear();
    CHECK(evalFen(cached, kFens[2]) == evalFen(cached, kFens[2]));
}

TEST_CASE("the trace reproduces the evaluation", "[eval][trace]") {
    Evaluator ev;
    auto fens = randomGameFens(7, 10, 120);
    fens.insert(fens.end(), kFens.begin(), kFens.end());
    for (const std::string& fen : fens) {
        auto pos = Position::fromFen(fen);
        REQUIRE(pos);
        eval::EvalTrace trace;
        const int traced = eval::evaluateWithTrace(*pos, trace);
        INFO(fen);
        CHECK(traced == ev.evaluate(*pos));
        // The engine rounds each scaled king-danger term (up to about a dozen per side) and the
        // final blend down to whole centipawns; the trace keeps fractions.
        CHECK(std::abs(traceScore(trace) - traced) <= 12.0);
    }
}

TEST_CASE("the weight groups tile the weight table", "[eval][weights]") {
    std::size_t next = 0;
    for (const auto& g : eval::kWeightGroups) {
        INFO(g.name);
        CHECK(g.first == next);
        next = g.first + g.count;
    }
    CHECK(next == eval::kNumWeights);
}

TEST_CASE("material dominates: a queen up is a big plus for its owner", "[eval]") {
    Evaluator ev;
    const int white = evalFen(ev, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    const int black = evalFen(ev, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    CHECK(white > 700);
    CHECK(black < -700);
}
