// Growing a net (tools/nnue/network_reshape.h): a wider net, or one with output buckets, made
// from a trained one evaluates every position exactly as the original, so training it starts
// where the old net stands.
#include <bit>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "eval/nnue.h"
#include "network_reshape.h"

using namespace outpost;

namespace {

// Positions from random games of every phase, the start included.
std::vector<Position> randomPositions(unsigned seed, int games, int plies) {
    std::mt19937_64 rng(seed);
    std::vector<Position> positions;
    for (int game = 0; game < games; ++game) {
        Position pos = *Position::fromFen(kStartFen);
        positions.push_back(pos);
        for (int ply = 0; ply < plies; ++ply) {
            MoveList moves;
            generateLegal(pos, moves);
            if (moves.empty()) break;
            // Captures first half the time, so the games reach the endings (every bucket).
            Move m = moves[rng() % moves.size()].move;
            for (const auto& sm : moves)
                if (pos.isCaptureOrPromotion(sm.move) && rng() % 2 == 0) m = sm.move;
            pos.makeMove(m);
            positions.push_back(pos);
        }
    }
    return positions;
}

}  // namespace

TEST_CASE("a network grown wider and into output buckets evaluates exactly as before", "[nnue]") {
    const nnue::Network& net = *nnue::embeddedNetwork();
    const std::vector<Position> positions = randomPositions(21, 12, 160);
    for (const auto& [hidden, buckets] :
         {std::pair{net.hidden, 8}, std::pair{512, net.outputBuckets}, std::pair{512, 8}}) {
        INFO(hidden << " hidden, " << buckets << " buckets");
        std::string error;
        const auto grown = nnue_data::reshapeNetwork(net, hidden, buckets, 1, &error);
        REQUIRE(grown != nullptr);
        REQUIRE(grown->hidden == hidden);
        REQUIRE(grown->outputBuckets == buckets);
        // It is a different net (new neurons, new buckets) ...
        REQUIRE(nnue::serializeNetwork(*grown) != nnue::serializeNetwork(net));
        // ... with the same evaluation, through the search's incremental path too.
        nnue::AccumulatorStack stack(*grown);
        int bucketsUsed = 0;
        for (const Position& pos : positions) {
            INFO(pos.toFen());
            const int expected = nnue::evaluate(net, pos);
            REQUIRE(nnue::evaluate(*grown, pos) == expected);
            REQUIRE(stack.evaluate(pos) == expected);
            bucketsUsed |= 1 << nnue::outputBucket(*grown, pos);
        }
        if (buckets == 8) REQUIRE(std::popcount(unsigned(bucketsUsed)) >= 6);
        // The new neurons are live (inside the activation) and carry no output weight yet.
        if (hidden > net.hidden) {
            int live = 0;
            for (int i = net.hidden; i < hidden; ++i) live += grown->featureBias[i] > 0;
            REQUIRE(live > (hidden - net.hidden) / 2);
            for (int b = 0; b < buckets; ++b)
                for (int i = net.hidden; i < hidden; ++i) {
                    REQUIRE(grown->bucketWeights(b)[i] == 0);
                    REQUIRE(grown->bucketWeights(b)[hidden + i] == 0);
                }
        }
    }
}

TEST_CASE("a network is grown, never narrowed, and only into a shape the engine reads", "[nnue]") {
    const nnue::Network net(512, 8);
    std::string error;
    REQUIRE(nnue_data::reshapeNetwork(net, 256, 8, 1, &error) == nullptr);
    REQUIRE(error.find("narrow") != std::string::npos);
    REQUIRE(nnue_data::reshapeNetwork(net, 512, 4, 1, &error) == nullptr);
    REQUIRE(error.find("buckets") != std::string::npos);
    REQUIRE(nnue_data::reshapeNetwork(net, 1024, 8, 1, &error) == nullptr);
    REQUIRE(nnue_data::reshapeNetwork(net, 500, 8, 1, &error) == nullptr);
    REQUIRE(nnue_data::reshapeNetwork(net, 512, 8, 1, &error) != nullptr);  // the same shape
}
