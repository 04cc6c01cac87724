#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"
#include "engine.h"
#include "eval/evaluate.h"
#include "eval/nnue.h"
#include "fen_flip.h"

using namespace outpost;

namespace {

// A network with random weights over the whole legal range, so the kernels meet large values
// (a trained net's weights are small) and every feature row differs.
std::unique_ptr<nnue::Network> randomNetwork(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> feature(-400, 400);
    std::uniform_int_distribution<int> outputWeight(-nnue::kMaxOutputWeight,
                                                    nnue::kMaxOutputWeight);
    auto net = std::make_unique<nnue::Network>();
    for (auto& w : net->featureWeights) w = static_cast<std::int16_t>(feature(rng));
    for (auto& b : net->featureBias) b = static_cast<std::int16_t>(feature(rng) / 2 + 100);
    for (auto& w : net->outputWeights) w = static_cast<std::int16_t>(outputWeight(rng));
    net->outputBias = 12345;
    return net;
}

bool sameAccumulator(const nnue::Accumulator& a, const nnue::Accumulator& b) {
    return std::memcmp(a.values.data(), b.values.data(), sizeof(a.values)) == 0;
}

const std::vector<std::string> kFens = {
    std::string(kStartFen),
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2r3k1/pb3pp1/1p2p2p/3nP3/3P4/P2B1N2/1P3PPP/2R3K1 b - - 3 25",
};

}  // namespace

TEST_CASE("the embedded network loads and writes back byte for byte", "[nnue]") {
    const nnue::Network* net = nnue::embeddedNetwork();
    REQUIRE(net != nullptr);
    const std::string bytes = nnue::serializeNetwork(*net);
    REQUIRE(bytes.size() == nnue::kFileBytes);
    auto again =
        nnue::loadNetwork({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()});
    REQUIRE(again != nullptr);
    REQUIRE(nnue::serializeNetwork(*again) == bytes);
}

TEST_CASE("broken network files are refused with a reason", "[nnue]") {
    const std::string good = nnue::serializeNetwork(*randomNetwork(1));
    std::string error;
    auto load = [&](std::string bytes) {
        return nnue::loadNetwork(
            {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}, &error);
    };
    REQUIRE(load(good) != nullptr);
    REQUIRE(load(good.substr(0, good.size() - 1)) == nullptr);
    REQUIRE(error.find("bytes") != std::string::npos);
    std::string badMagic = good;
    badMagic[0] = 'X';
    REQUIRE(load(badMagic) == nullptr);
    std::string badShape = good;
    badShape[12] = 1;  // hidden size
    REQUIRE(load(badShape) == nullptr);
    std::string badWeight = good;
    // The first output weight's high byte: 0x7F00 is far beyond the multiply's 16-bit range.
    badWeight[nnue::kFileBytes - 4 - 2 * 2 * nnue::kHidden + 1] = 0x7F;
    REQUIRE(load(badWeight) == nullptr);
}

TEST_CASE("the network sees both colours alike", "[nnue]") {
    auto net = randomNetwork(2);
    for (const std::string& fen : kFens) {
        const auto pos = Position::fromFen(fen);
        const auto flipped = Position::fromFen(testing::flipFen(fen));
        REQUIRE(pos);
        REQUIRE(flipped);
        CHECK(nnue::evaluate(*net, *pos) == nnue::evaluate(*net, *flipped));
    }
}

TEST_CASE("incremental accumulators equal a refresh, and SIMD equals scalar, over random games",
          "[nnue]") {
    auto net = randomNetwork(3);
    INFO("best kernel: " << nnue::bestKernelName());
    std::mt19937_64 rng(4);
    nnue::AccumulatorStack simdStack(*net), scalarStack(*net);
    int checked = 0;
    for (int game = 0; game < 40; ++game) {
        Position pos = *Position::fromFen(kFens[game % kFens.size()]);
        for (int ply = 0; ply < 160; ++ply) {
            MoveList moves;
            generateLegal(pos, moves);
            if (moves.empty()) break;
            // Walk a little way into a side line and back, as the search does, some plies.
            std::uniform_int_distribution<std::size_t> pick(0, moves.size() - 1);
            const int r = int(rng() % 8);
            if (r == 0 && !pos.inCheck()) {
                pos.makeNullMove();
            } else if (r == 1) {
                pos.makeMove(moves[pick(rng)].move);
                MoveList replies;
                generateLegal(pos, replies);
                if (!replies.empty()) {
                    pos.makeMove(replies[rng() % replies.size()].move);
                    simdStack.evaluate(pos);
                    pos.unmakeMove();
                }
                pos.unmakeMove();
                pos.makeMove(moves[pick(rng)].move);
            } else {
                // Prefer captures and promotions: they exercise every kind of update.
                Move m = moves[pick(rng)].move;
                for (const auto& sm : moves)
                    if (pos.isCaptureOrPromotion(sm.move) && rng() % 3 == 0) m = sm.move;
                pos.makeMove(m);
            }
            // Some positions are skipped, so the stack must also replay several moves.
            if (rng() % 3 == 0) continue;
            nnue::Accumulator fresh, freshScalar;
            nnue::refresh(*net, pos, fresh, nnue::Kernel::Best);
            nnue::refresh(*net, pos, freshScalar, nnue::Kernel::Scalar);
            REQUIRE(sameAccumulator(fresh, freshScalar));
            REQUIRE(sameAccumulator(simdStack.accumulator(pos, nnue::Kernel::Best), fresh));
            REQUIRE(sameAccumulator(scalarStack.accumulator(pos, nnue::Kernel::Scalar), fresh));
            const int simd = nnue::output(*net, fresh, pos.sideToMove(), nnue::Kernel::Best);
            const int scalar = nnue::output(*net, fresh, pos.sideToMove(), nnue::Kernel::Scalar);
            REQUIRE(simd == scalar);
            REQUIRE(simdStack.evaluate(pos) == simd);
            ++checked;
        }
        if (game % 5 == 0) simdStack.clear();
    }
    REQUIRE(checked > 1000);
}

TEST_CASE("the evaluator switches between the network and the hand-crafted terms", "[nnue]") {
    Evaluator evaluator;
    const Position pos = *Position::fromFen(kFens[1]);
    REQUIRE_FALSE(evaluator.usingNetwork());
    const int classical = evaluator.evaluate(pos);
    evaluator.useNetwork(true);
    REQUIRE(evaluator.usingNetwork());
    REQUIRE(evaluator.evaluate(pos) == nnue::evaluate(*nnue::embeddedNetwork(), pos));
    evaluator.useNetwork(false);
    REQUIRE(evaluator.evaluate(pos) == classical);
}

TEST_CASE("under the network the endgame rules' known draws score zero, other positions not",
          "[nnue]") {
    Evaluator evaluator;
    evaluator.useNetwork(true);
    REQUIRE(evaluator.usingNetwork());
    const nnue::Network& net = *nnue::embeddedNetwork();
    // Known draws: king and pawn against a king in front of it (the bitbase), a lone bishop,
    // two knights, a rook pawn with the defending king in the corner.
    for (const char* fen : {"8/8/8/8/4k3/8/4P3/4K3 b - - 0 1", "8/8/3k4/8/8/2B5/8/4K3 w - - 0 1",
                            "8/8/3k4/8/8/2NN4/8/4K3 w - - 0 1", "k7/8/1K6/P7/8/8/8/8 w - - 0 1"}) {
        INFO(fen);
        const Position pos = *Position::fromFen(fen);
        CHECK(nnue::evaluate(net, pos) != 0);  // the raw net does not know it
        CHECK(evaluator.evaluate(pos) == 0);
    }
    // Wins and ordinary positions keep the network's own score.
    for (const std::string& fen :
         {std::string("8/8/8/4K3/4P3/8/8/4k3 w - - 0 1"), kFens[1], kFens[4]}) {
        INFO(fen);
        const Position pos = *Position::fromFen(fen);
        CHECK(evaluator.evaluate(pos) == nnue::evaluate(net, pos));
    }
}

TEST_CASE("searches with the network find mates and play legal moves", "[nnue]") {
    EngineOptions options;
    options.config.network = true;
    Engine engine(options);
    SearchRequest request;
    request.fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";  // Rd8#
    request.limits.depth = 6;
    SearchResult result = engine.run(request);
    REQUIRE(result.bestmove == "d1d8");
    REQUIRE(result.info.score.kind == Score::Kind::Mate);
    for (const std::string& fen : kFens) {
        request.fen = fen;
        request.limits.depth = 7;
        result = engine.run(request);
        const Position pos = *Position::fromFen(fen);
        MoveList legal;
        generateLegal(pos, legal);
        bool found = false;
        for (const auto& sm : legal) found |= moveToUci(sm.move) == result.bestmove;
        CHECK(found);
    }
}
