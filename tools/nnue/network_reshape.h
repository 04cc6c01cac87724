// Growing a trained network into a larger shape without changing a single evaluation: the
// start of a run that trains a wider net or one with output buckets from the current one
// (outpost-nnue-train --init with --hidden / --output-buckets, docs/nnue.md).
//
//   * Wider: the old neurons keep their feature weights, biases and output weights; each new
//     neuron gets small random feature weights, a bias inside the activation's range (so it
//     learns from the first step), and output weight zero in every bucket, so it adds exactly 0
//     to the output until training moves that weight.
//   * Output buckets: a one-bucket net's output layer (weights and bias) is copied into every
//     bucket. A net that already has buckets keeps its count.
// The integer inference of the result equals the original's on every position (tested).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "eval/nnue.h"

namespace outpost::nnue_data {

// nullptr, with the reason in error, when the shape is not one the engine reads or not a
// growth of net's (fewer neurons, or another bucket count from a net that already has buckets).
std::unique_ptr<nnue::Network> reshapeNetwork(const nnue::Network& net, int hidden, int buckets,
                                              std::uint64_t seed, std::string* error = nullptr);

}  // namespace outpost::nnue_data
