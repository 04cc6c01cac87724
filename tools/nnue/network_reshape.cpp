#include "network_reshape.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace outpost::nnue_data {

namespace {

// A new neuron's start, in float units (x kQA in the file): the random initialisation of a
// fresh net (trainer.cpp), so new neurons begin the way every neuron of a fresh net does.
constexpr double kNewFeatureSpread = 0.04;
constexpr double kNewBias = 0.25;

}  // namespace

std::unique_ptr<nnue::Network> reshapeNetwork(const nnue::Network& net, int hidden, int buckets,
                                              std::uint64_t seed, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        return std::unique_ptr<nnue::Network>();
    };
    if (!nnue::validShape(hidden, buckets))
        return fail("the engine reads no net of " + std::to_string(hidden) + " hidden and " +
                    std::to_string(buckets) + " output buckets");
    if (hidden < net.hidden)
        return fail("cannot narrow a net of " + std::to_string(net.hidden) + " hidden to " +
                    std::to_string(hidden));
    if (buckets != net.outputBuckets && net.outputBuckets != 1)
        return fail("cannot turn a net of " + std::to_string(net.outputBuckets) +
                    " output buckets into one of " + std::to_string(buckets));

    auto out = std::make_unique<nnue::Network>(hidden, buckets);
    const std::size_t oldH = std::size_t(net.hidden), newH = std::size_t(hidden);
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> spread(0.0, kNewFeatureSpread * nnue::kQA);
    const auto randomWeight = [&](double centre) {
        return std::int16_t(std::clamp<long>(std::lround(centre + spread(rng)), -32767, 32767));
    };
    for (std::size_t input = 0; input < std::size_t(nnue::kInputs); ++input) {
        const std::int16_t* from = net.featureWeights.data() + input * oldH;
        std::int16_t* to = out->featureWeights.data() + input * newH;
        std::copy(from, from + oldH, to);
        for (std::size_t i = oldH; i < newH; ++i) to[i] = randomWeight(0);
    }
    std::copy(net.featureBias.begin(), net.featureBias.end(), out->featureBias.begin());
    for (std::size_t i = oldH; i < newH; ++i)
        out->featureBias[i] = randomWeight(kNewBias * nnue::kQA);
    // Output weights: each half (side to move, other side) of each bucket keeps its old
    // neurons' weights; the new neurons' stay zero.
    for (int b = 0; b < buckets; ++b) {
        const int source = net.outputBuckets == 1 ? 0 : b;
        const std::int16_t* from = net.bucketWeights(source);
        std::int16_t* to = out->outputWeights.data() + std::size_t(b) * 2 * newH;
        for (std::size_t half = 0; half < 2; ++half)
            std::copy(from + half * oldH, from + (half + 1) * oldH, to + half * newH);
        out->outputBias[std::size_t(b)] = net.outputBias[std::size_t(source)];
    }
    return out;
}

}  // namespace outpost::nnue_data
