// The network evaluation (NNUE: an efficiently updatable neural network). docs/nnue.md has the
// whole story: architecture, file format, quantisation, training.
//
// Architecture: 768 inputs per perspective (6 piece types x 2 colours x 64 squares, seen from
// that side: its own pieces first, the board flipped vertically for Black) -> `hidden` neurons
// per perspective (the accumulator; the file says how many: a multiple of kHiddenStep up to
// kMaxHidden) -> squared clipped ReLU of [side to move, other side] -> one output in
// centipawns, from the output bucket the position's material picks (eval/nnue_buckets.h).
//
// Quantisation (integers only at inference):
//   feature weights and biases   int16, float x kQA          (kQA = 255: 1.0 saturates the ReLU)
//   output weights               int16, float x kQB          (kQB = 64, |w| <= 127/64 in training)
//   output bias                  int32, float x kQA x kQB
//   eval(cp) = (sum_i clamp(a_i, 0, kQA)^2 * w_i / kQA + bias) * kScale / (kQA x kQB)
// clamp(a)*w fits int16 (255 x 127), so SIMD multiplies in 16 bits and pairs into 32-bit lanes
// (each lane stays far from overflow); the total is summed in 64 bits, so the portable scalar
// code and the SIMD code give the same number bit for bit.
//
// Accumulators are updated from the move that changed the board (a piece removed, added or
// moved), never rebuilt unless no earlier accumulator is at hand. Network objects are immutable
// after loading; one is shared read-only by every evaluator of every engine.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/aligned_allocator.h"
#include "core/cpu.h"
#include "core/types.h"
#include "eval/nnue_buckets.h"

namespace outpost {

class Position;
struct StateInfo;

namespace nnue {

namespace kernels {
struct KernelOps;  // eval/nnue_kernels.h
}

inline constexpr int kInputs = 768;
inline constexpr int kDefaultHidden = 256;  // the width of the committed nets up to net 13
inline constexpr int kMaxHidden = 512;      // accumulators are sized for the widest net
inline constexpr int kHiddenStep = 64;      // hidden sizes are multiples of this
inline constexpr int kQA = 255;
inline constexpr int kQB = 64;
inline constexpr int kScale = 400;  // network output 1.0 = 400 cp
inline constexpr int kMaxOutputWeight = 127;

// File, version 1: "OPNN", u32 version = 1, u32 inputs, u32 hidden, then little-endian int16
// feature weights [input][hidden], int16 feature bias [hidden], int16 output weights
// [2 x hidden] (side to move first), int32 output bias: one output bucket.
// Version 2 adds u32 outputBuckets after hidden, and then holds outputBuckets output layers:
// int16 output weights [bucket][2 x hidden], int32 output biases [bucket].
// A net of one bucket is written as version 1, so older readers keep reading it.
inline constexpr std::uint32_t kFormatVersion1 = 1;
inline constexpr std::uint32_t kFormatVersion2 = 2;
inline constexpr std::size_t kHeaderBytesV1 = 16;
inline constexpr std::size_t kHeaderBytesV2 = 20;
constexpr std::uint32_t formatVersion(int outputBuckets) {
    return outputBuckets > 1 ? kFormatVersion2 : kFormatVersion1;
}
constexpr std::size_t fileBytes(int hidden, int outputBuckets) {
    const std::size_t h = std::size_t(hidden), b = std::size_t(outputBuckets);
    return (outputBuckets > 1 ? kHeaderBytesV2 : kHeaderBytesV1) +
           2 * (std::size_t(kInputs) * h + h + b * 2 * h) + 4 * b;
}
constexpr bool validShape(int hidden, int outputBuckets) {
    return hidden >= kHiddenStep && hidden <= kMaxHidden && hidden % kHiddenStep == 0 &&
           outputBuckets >= 1 && outputBuckets <= kMaxOutputBuckets;
}

struct Network {
    // All weights zero; the shape must be valid (validShape).
    explicit Network(int hiddenSize = kDefaultHidden, int buckets = 1)
        : hidden(hiddenSize),
          outputBuckets(buckets),
          featureWeights(std::size_t(kInputs) * std::size_t(hiddenSize)),
          featureBias(std::size_t(hiddenSize)),
          outputWeights(std::size_t(buckets) * 2 * std::size_t(hiddenSize)),
          outputBias(std::size_t(buckets)) {}

    int hidden;
    int outputBuckets;
    AlignedVector<std::int16_t> featureWeights;  // [input][hidden]
    AlignedVector<std::int16_t> featureBias;     // [hidden]
    AlignedVector<std::int16_t> outputWeights;   // [bucket][2 x hidden], side to move's first
    std::vector<std::int32_t> outputBias;        // [bucket]

    const std::int16_t* bucketWeights(int bucket) const {
        return outputWeights.data() + std::size_t(bucket) * 2 * std::size_t(hidden);
    }
};

// Reads a network file's bytes; nullptr (with the reason in error) if they are not one.
std::unique_ptr<Network> loadNetwork(std::span<const unsigned char> bytes,
                                     std::string* error = nullptr);
// The file's bytes for a network (the trainer writes nets with this).
std::string serializeNetwork(const Network& net);
// The network built into the program (engine/eval/net/), loaded on first use; nullptr only if
// the embedded file is broken, which the tests rule out.
const Network* embeddedNetwork();

// Input index of piece pc on square sq, seen from perspective.
constexpr int featureIndex(Color perspective, Piece pc, Square sq) {
    const int side = colorOf(pc) == perspective ? 0 : 1;
    const int square = perspective == White ? int(sq) : int(sq) ^ 56;
    return (side * 6 + (typeOf(pc) - 1)) * 64 + square;
}

// Sized for the widest net; a net of `hidden` neurons uses the first `hidden` of each half.
struct alignas(64) Accumulator {
    std::array<std::array<std::int16_t, kMaxHidden>, ColorCount> values;  // [perspective]
};

// The output bucket that scores pos under net (eval/nnue_buckets.h).
int outputBucket(const Network& net, const Position& pos);

// Which code does the arithmetic (core/cpu.h): the portable loops, SSE2, AVX2 or AVX-512. All
// give identical results (tests compare them); the default is the one cpuChoice() picked for
// this CPU at start. Naming a kernel the CPU lacks (kernelSupported) is the caller's error.
using outpost::Kernel;
Kernel activeKernel();
bool kernelSupported(Kernel kernel);

// The accumulator of pos from scratch.
void refresh(const Network& net, const Position& pos, Accumulator& acc,
             Kernel kernel = activeKernel());
// The accumulator after the move recorded in st (StateInfo::move, moved, captured), from the one
// before it. Null moves copy.
void update(const Network& net, const StateInfo& st, const Accumulator& before, Accumulator& after,
            Kernel kernel = activeKernel());
// Centipawns for the side to move, from the output layer of bucket (outputBucket()).
int output(const Network& net, const Accumulator& acc, Color sideToMove, int bucket,
           Kernel kernel = activeKernel());

// One-off evaluation from scratch (tests, tools, UCI `eval`).
int evaluate(const Network& net, const Position& pos, Kernel kernel = activeKernel());

// The accumulators of the positions along a Position's move history, indexed by history length,
// each tagged with the key of the position it belongs to. evaluate() finds the nearest earlier
// position whose accumulator is still there (the parent, usually) and replays the moves since
// (StateInfo says what each changed), refreshing from scratch only when none is within
// kMaxReplayPlies. The search walks the tree with make/unmake on one Position, so siblings
// share their parent's accumulator and nothing is done for positions that are never evaluated.
// Belongs to one thread (an Evaluator); the network is shared.
class AccumulatorStack {
  public:
    static constexpr int kMaxReplayPlies = 8;  // beyond this a refresh is about as cheap

    // The kernel is fixed for the stack's life (the search's stacks take the active one).
    explicit AccumulatorStack(const Network& net, Kernel kernel = activeKernel());
    int evaluate(const Position& pos);
    // The accumulator of pos, brought up to date (tests compare it with refresh()).
    const Accumulator& accumulator(const Position& pos);
    void clear();

  private:
    struct Entry {
        Accumulator acc;
        Key key = 0;
        bool valid = false;
    };
    const Network* net_;
    const kernels::KernelOps* ops_;  // the kernel's arithmetic for the net's width
    std::vector<Entry> entries_;
};

}  // namespace nnue
}  // namespace outpost
