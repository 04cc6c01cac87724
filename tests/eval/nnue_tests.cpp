#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <random>
#include <set>
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
// Of the given shape, each output bucket with its own weights and bias.
std::unique_ptr<nnue::Network> randomNetwork(unsigned seed, int hidden = nnue::kDefaultHidden,
                                             int buckets = 1) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> feature(-400, 400);
    std::uniform_int_distribution<int> outputWeight(-nnue::kMaxOutputWeight,
                                                    nnue::kMaxOutputWeight);
    std::uniform_int_distribution<int> outputBias(-50000, 50000);
    auto net = std::make_unique<nnue::Network>(hidden, buckets);
    for (auto& w : net->featureWeights) w = static_cast<std::int16_t>(feature(rng));
    for (auto& b : net->featureBias) b = static_cast<std::int16_t>(feature(rng) / 2 + 100);
    for (auto& w : net->outputWeights) w = static_cast<std::int16_t>(outputWeight(rng));
    for (auto& b : net->outputBias) b = outputBias(rng);
    return net;
}

// The neurons a net of `hidden` uses, both perspectives (the rest of the arrays is unused).
bool sameAccumulator(const nnue::Accumulator& a, const nnue::Accumulator& b, int hidden) {
    for (const Color c : {White, Black})
        if (std::memcmp(a.values[c].data(), b.values[c].data(),
                        std::size_t(hidden) * sizeof(std::int16_t)) != 0)
            return false;
    return true;
}

std::unique_ptr<nnue::Network> load(const std::string& bytes, std::string* error = nullptr) {
    return nnue::loadNetwork({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
                             error);
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
    REQUIRE(net->hidden == nnue::kDefaultHidden);
    REQUIRE(net->outputBuckets == 1);
    const std::string bytes = nnue::serializeNetwork(*net);
    REQUIRE(bytes.size() == nnue::fileBytes(net->hidden, 1));
    REQUIRE(bytes.substr(4, 4) == std::string("\x01\0\0\0", 4));  // still version 1
    auto again = load(bytes);
    REQUIRE(again != nullptr);
    REQUIRE(nnue::serializeNetwork(*again) == bytes);
}

TEST_CASE("broken network files are refused with a reason", "[nnue]") {
    for (const auto& [hidden, buckets] : {std::pair{256, 1}, std::pair{512, 8}}) {
        INFO(hidden << " hidden, " << buckets << " buckets");
        const std::string good = nnue::serializeNetwork(*randomNetwork(1, hidden, buckets));
        std::string error;
        REQUIRE(load(good, &error) != nullptr);
        REQUIRE(load(good.substr(0, good.size() - 1), &error) == nullptr);
        REQUIRE(error.find("bytes") != std::string::npos);
        REQUIRE(load(good.substr(0, 10), &error) == nullptr);
        std::string badMagic = good;
        badMagic[0] = 'X';
        REQUIRE(load(badMagic, &error) == nullptr);
        std::string badVersion = good;
        badVersion[4] = 3;
        REQUIRE(load(badVersion, &error) == nullptr);
        REQUIRE(error.find("version") != std::string::npos);
        for (const int badHidden : {1, 32, 320 + 1, 576, 1 << 20}) {
            std::string badShape = good;
            badShape[12] = char(badHidden & 0xFF);
            badShape[13] = char((badHidden >> 8) & 0xFF);
            badShape[14] = char((badHidden >> 16) & 0xFF);
            REQUIRE(load(badShape, &error) == nullptr);
            REQUIRE(error.find("shape") != std::string::npos);
        }
        // The first output weight's high byte: 0x7F00 is far beyond the multiply's 16-bit range.
        std::string badWeight = good;
        badWeight[good.size() - 4 * buckets - 2 * 2 * hidden * buckets + 1] = 0x7F;
        REQUIRE(load(badWeight, &error) == nullptr);
        REQUIRE(error.find("range") != std::string::npos);
    }
    // Version 2 with a bucket count of 0, 1 (version 1's job) or more than 8.
    const std::string v2 = nnue::serializeNetwork(*randomNetwork(1, 256, 8));
    for (const char buckets : {0, 1, 9}) {
        std::string bad = v2;
        bad[16] = buckets;
        std::string error;
        REQUIRE(load(bad, &error) == nullptr);
        REQUIRE(error.find("shape") != std::string::npos);
    }
}

TEST_CASE("bucketed and wider networks are written as version 2 and read back exactly", "[nnue]") {
    for (const auto& [hidden, buckets] :
         {std::pair{512, 1}, std::pair{256, 8}, std::pair{512, 8}, std::pair{64, 3}}) {
        INFO(hidden << " hidden, " << buckets << " buckets");
        const auto net = randomNetwork(11, hidden, buckets);
        const std::string bytes = nnue::serializeNetwork(*net);
        REQUIRE(bytes.size() == nnue::fileBytes(hidden, buckets));
        REQUIRE(std::uint8_t(bytes[4]) == (buckets > 1 ? 2 : 1));
        const auto again = load(bytes);
        REQUIRE(again != nullptr);
        REQUIRE(again->hidden == hidden);
        REQUIRE(again->outputBuckets == buckets);
        REQUIRE(again->featureWeights == net->featureWeights);
        REQUIRE(again->outputWeights == net->outputWeights);
        REQUIRE(again->outputBias == net->outputBias);
        REQUIRE(nnue::serializeNetwork(*again) == bytes);
    }
}

TEST_CASE("the material on the board picks the network's output bucket", "[nnue]") {
    // Eight buckets whose output layers differ only in their bias: the score tells the bucket.
    auto net = std::make_unique<nnue::Network>(nnue::kDefaultHidden, 8);
    for (int b = 0; b < 8; ++b) net->outputBias[std::size_t(b)] = (b + 1) * nnue::kQA * nnue::kQB;
    const auto bucketOf = [&](const char* fen) {
        const Position pos = *Position::fromFen(fen);
        const int cp = nnue::evaluate(*net, pos);
        REQUIRE(cp % nnue::kScale == 0);
        REQUIRE(nnue::outputBucket(*net, pos) == cp / nnue::kScale - 1);
        return cp / nnue::kScale - 1;
    };
    CHECK(bucketOf(kStartFen.data()) == 7);                             // 32 pieces
    CHECK(bucketOf("8/8/8/8/4k3/8/4P3/4K3 b - - 0 1") == 0);            // 3
    CHECK(bucketOf("8/8/3k4/8/8/2NN4/8/4K3 w - - 0 1") == 0);           // 4
    CHECK(bucketOf("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1") == 2);  // 10
    CHECK(bucketOf("2r3k1/pb3pp1/1p2p2p/3nP3/3P4/P2B1N2/1P3PPP/2R3K1 b - - 3 25") == 4);  // 21
    // One bucket: every position scores with it.
    auto single = randomNetwork(12);
    for (const std::string& fen : kFens)
        CHECK(nnue::outputBucket(*single, *Position::fromFen(fen)) == 0);
    // The rule itself, for 8 buckets: (pieces - 2) / 4.
    for (int pieces = 2; pieces <= 32; ++pieces)
        CHECK(nnue::outputBucket(pieces, 8) == (pieces - 2) / 4);
}

TEST_CASE("the network sees both colours alike", "[nnue]") {
    const auto [hidden, buckets] = GENERATE(std::pair{256, 1}, std::pair{512, 8});
    auto net = randomNetwork(2, hidden, buckets);
    for (const std::string& fen : kFens) {
        const auto pos = Position::fromFen(fen);
        const auto flipped = Position::fromFen(testing::flipFen(fen));
        REQUIRE(pos);
        REQUIRE(flipped);
        CHECK(nnue::evaluate(*net, *pos) == nnue::evaluate(*net, *flipped));
    }
}

namespace {

// Every kernel this CPU can run, scalar and SSE2 always among them on x86-64 (so CI runs the
// SSE2 path that a build for the x86-64-v2 floor ships, whatever machine it has).
std::vector<Kernel> runnableKernels() {
    std::vector<Kernel> kernels;
    for (const Kernel k : {Kernel::Scalar, Kernel::Sse2, Kernel::Avx2, Kernel::Avx512})
        if (nnue::kernelSupported(k)) kernels.push_back(k);
    return kernels;
}

}  // namespace

TEST_CASE("scalar and SSE2 run everywhere, and the active kernel is one this CPU runs", "[nnue]") {
    const std::vector<Kernel> kernels = runnableKernels();
    std::string names;
    for (const Kernel k : kernels) names += std::string(kernelName(k)) + " ";
    INFO("runnable kernels: " << names << "; active: " << kernelName(nnue::activeKernel()));
    REQUIRE(nnue::kernelSupported(Kernel::Scalar));
#if defined(__x86_64__)
    REQUIRE(nnue::kernelSupported(Kernel::Sse2));
#endif
    REQUIRE(nnue::kernelSupported(nnue::activeKernel()));
}

// A random walk through games the way the search walks (side lines and back, null moves,
// positions skipped so several moves are replayed), checking at each stop that every kernel's
// incremental accumulator equals the scalar refresh and that every kernel's output equals the
// scalar output, bit for bit.
TEST_CASE("every kernel equals scalar: incremental accumulators and outputs over random games",
          "[nnue][kernels]") {
    // The committed shape, the widest with 8 buckets, and an odd one (the narrowest width).
    const auto [hidden, buckets] = GENERATE(std::pair{256, 1}, std::pair{512, 8}, std::pair{64, 3});
    INFO(hidden << " hidden, " << buckets << " buckets");
    const std::vector<Kernel> kernels = runnableKernels();
    auto net = randomNetwork(3, hidden, buckets);
    std::mt19937_64 rng(4);
    std::vector<nnue::AccumulatorStack> stacks;
    for (const Kernel k : kernels) stacks.emplace_back(*net, k);
    int checked = 0;
    std::set<int> bucketsSeen;
    for (int game = 0; game < 40; ++game) {
        Position pos = *Position::fromFen(kFens[game % kFens.size()]);
        for (int ply = 0; ply < 160; ++ply) {
            MoveList moves;
            generateLegal(pos, moves);
            if (moves.empty()) break;
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
                    for (auto& stack : stacks) stack.evaluate(pos);
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
            if (rng() % 3 == 0) continue;
            nnue::Accumulator reference;
            nnue::refresh(*net, pos, reference, Kernel::Scalar);
            const int bucket = nnue::outputBucket(*net, pos);
            bucketsSeen.insert(bucket);
            const int expected =
                nnue::output(*net, reference, pos.sideToMove(), bucket, Kernel::Scalar);
            for (std::size_t i = 0; i < kernels.size(); ++i) {
                INFO("kernel " << kernelName(kernels[i]) << ", " << pos.toFen());
                nnue::Accumulator fresh;
                nnue::refresh(*net, pos, fresh, kernels[i]);
                REQUIRE(sameAccumulator(fresh, reference, hidden));
                REQUIRE(sameAccumulator(stacks[i].accumulator(pos), reference, hidden));
                REQUIRE(nnue::output(*net, reference, pos.sideToMove(), bucket, kernels[i]) ==
                        expected);
                REQUIRE(stacks[i].evaluate(pos) == expected);
            }
            ++checked;
        }
        if (game % 5 == 0)
            for (auto& stack : stacks) stack.clear();
    }
    REQUIRE(checked > 1000);
    REQUIRE(int(bucketsSeen.size()) >= std::min(buckets, 5));  // the games reach the endgame
}

// Outputs at the edges of the clamp: accumulators far outside [0, kQA] both ways and the largest
// weights, where a lane overflow or a wrong clamp in one kernel would show.
TEST_CASE("every kernel equals scalar on extreme accumulators", "[nnue][kernels]") {
    const auto [hidden, buckets] = GENERATE(std::pair{256, 1}, std::pair{512, 8});
    INFO(hidden << " hidden, " << buckets << " buckets");
    auto net = randomNetwork(5, hidden, buckets);
    for (auto& w : net->outputWeights)
        w = static_cast<std::int16_t>(&w - net->outputWeights.data()) % 2 ? nnue::kMaxOutputWeight
                                                                          : -nnue::kMaxOutputWeight;
    std::mt19937 rng(6);
    std::uniform_int_distribution<int> any(-32768, 32767);
    for (int trial = 0; trial < 200; ++trial) {
        nnue::Accumulator acc;
        for (auto& side : acc.values)
            for (auto& v : side)
                v = static_cast<std::int16_t>(trial == 0   ? nnue::kQA
                                              : trial == 1 ? 32767
                                                           : any(rng));
        const int bucket = trial % buckets;
        for (const Color stm : {White, Black}) {
            const int expected = nnue::output(*net, acc, stm, bucket, Kernel::Scalar);
            for (const Kernel k : runnableKernels()) {
                INFO("kernel " << kernelName(k) << ", trial " << trial);
                REQUIRE(nnue::output(*net, acc, stm, bucket, k) == expected);
            }
        }
    }
}

// The trained network over the positions of many random games: the evaluation the search sees.
TEST_CASE("every kernel gives the embedded network's scalar evaluation", "[nnue][kernels]") {
    const nnue::Network* net = nnue::embeddedNetwork();
    REQUIRE(net != nullptr);
    std::mt19937_64 rng(7);
    int checked = 0;
    for (int game = 0; game < 30; ++game) {
        Position pos = *Position::fromFen(kFens[game % kFens.size()]);
        std::vector<nnue::AccumulatorStack> stacks;
        for (const Kernel k : runnableKernels()) stacks.emplace_back(*net, k);
        for (int ply = 0; ply < 120; ++ply) {
            MoveList moves;
            generateLegal(pos, moves);
            if (moves.empty()) break;
            pos.makeMove(moves[rng() % moves.size()].move);
            const int expected = nnue::evaluate(*net, pos, Kernel::Scalar);
            for (auto& stack : stacks) REQUIRE(stack.evaluate(pos) == expected);
            ++checked;
        }
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
