// The network's arithmetic kernels (internal to engine/eval). Each SIMD width lives in its own
// file, its functions compiled for their instruction set by a target attribute while the rest
// of the program keeps the build's floor; nnue.cpp calls the one cpuChoice() picked (or one a
// caller names) through this table. Every kernel gives the same numbers bit for bit (nnue.h).
#pragma once

#include <array>
#include <cstdint>

#include "core/cpu.h"
#include "core/types.h"
#include "eval/nnue.h"

namespace outpost::nnue::kernels {

// Feature rows changed for one perspective: a refresh adds every piece's row, a move adds at
// most two and removes at most two.
struct RowChanges {
    std::array<const std::int16_t*, SquareCount> add{};
    std::array<const std::int16_t*, 4> sub{};
    int adds = 0, subs = 0;
};

struct KernelOps {
    // out = base + sum(add rows) - sum(sub rows), kHidden lanes, 16-bit wrapping.
    void (*combine)(const std::int16_t* base, const RowChanges& rows, std::int16_t* out);
    // sum over both halves of clamp(a, 0, kQA)^2 x w: us with weights[0, kHidden), them with
    // weights[kHidden, 2 kHidden).
    std::int64_t (*outputSum)(const std::int16_t* us, const std::int16_t* them,
                              const std::int16_t* weights);
};

extern const KernelOps kScalar;
extern const KernelOps kSse2;
extern const KernelOps kAvx2;
extern const KernelOps kAvx512;

// The portable loops (the SIMD files fall back to them off x86).
void combineScalar(const std::int16_t* base, const RowChanges& rows, std::int16_t* out);
std::int64_t outputSumScalar(const std::int16_t* us, const std::int16_t* them,
                             const std::int16_t* weights);

// The output layer's 32-bit lanes each sum at most this many products of clamp(a)^2 x w (the
// SSE2 kernel's four lanes sum the most); they must not overflow before the 64-bit total.
inline constexpr std::int64_t kMaxProductsPerLane = 2 * kHidden / 4;
static_assert(kMaxProductsPerLane * kQA * kQA * kMaxOutputWeight < (std::int64_t(1) << 31),
              "the output layer's 32-bit lanes could overflow");
static_assert(std::int32_t(kQA) * kMaxOutputWeight <= 32767,
              "clamp(a) x w must fit 16 bits for the SIMD multiply");
static_assert(kHidden % 32 == 0, "the widest kernel works in blocks of 32 neurons");

}  // namespace outpost::nnue::kernels
