// The network evaluation (NNUE: an efficiently updatable neural network). docs/nnue.md has the
// whole story: architecture, file format, quantisation, training.
//
// Architecture: 768 inputs per perspective (6 piece types x 2 colours x 64 squares, seen from
// that side: its own pieces first, the board flipped vertically for Black) -> kHidden neurons
// per perspective (the accumulator) -> squared clipped ReLU of [side to move, other side]
// -> one output in centipawns.
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

#include "core/cpu.h"
#include "core/types.h"

namespace outpost {

class Position;
struct StateInfo;

namespace nnue {

inline constexpr int kInputs = 768;
inline constexpr int kHidden = 256;
inline constexpr int kQA = 255;
inline constexpr int kQB = 64;
inline constexpr int kScale = 400;  // network output 1.0 = 400 cp
inline constexpr int kMaxOutputWeight = 127;

// File: "OPNN", u32 version, u32 inputs, u32 hidden, then little-endian int16 feature weights
// [input][hidden], int16 feature bias [hidden], int16 output weights [2 x hidden] (side to move
// first), int32 output bias.
inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::size_t kHeaderBytes = 16;
inline constexpr std::size_t kFileBytes =
    kHeaderBytes + 2 * (std::size_t(kInputs) * kHidden + kHidden + 2 * kHidden) + 4;

struct Network {
    alignas(64) std::array<std::int16_t, std::size_t(kInputs) * kHidden> featureWeights;
    alignas(64) std::array<std::int16_t, kHidden> featureBias;
    alignas(64) std::array<std::int16_t, 2 * kHidden> outputWeights;
    std::int32_t outputBias;
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

struct alignas(64) Accumulator {
    std::array<std::array<std::int16_t, kHidden>, ColorCount> values;  // [perspective]
};

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
// Centipawns for the side to move.
int output(const Network& net, const Accumulator& acc, Color sideToMove,
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
    explicit AccumulatorStack(const Network& net, Kernel kernel = activeKernel())
        : net_(&net), kernel_(kernel) {}
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
    Kernel kernel_;
    std::vector<Entry> entries_;
};

}  // namespace nnue
}  // namespace outpost
