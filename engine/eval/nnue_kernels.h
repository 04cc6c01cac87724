// The network's arithmetic kernels (internal to engine/eval). Each SIMD width lives in its own
// file, its functions compiled for their instruction set by a target attribute while the rest
// of the program keeps the build's floor; nnue.cpp calls the one cpuChoice() picked (or one a
// caller names) through this table. Every kernel gives the same numbers bit for bit (nnue.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/cpu.h"
#include "core/types.h"
#include "eval/nnue.h"

namespace outpost::nnue::kernels {

// Feature rows changed for one perspective: a refresh adds every piece's row, a move adds at
// most two and removes at most two.
struct RowChanges {
    // Only the first `adds` and `subs` are set and read (an update fills three or four of the
    // 68 slots, so they are not zeroed first).
    std::array<const std::int16_t*, SquareCount> add;
    std::array<const std::int16_t*, 4> sub;
    int adds = 0, subs = 0;
};

// The first N row pointers of a RowChanges list, for a kernel's loop whose row counts are fixed
// at compile time (the pointers then live in registers).
template <std::size_t N, std::size_t M>
constexpr std::array<const std::int16_t*, N> headOf(
    const std::array<const std::int16_t*, M>& rows) {
    static_assert(N <= M);
    std::array<const std::int16_t*, N> head{};
    for (std::size_t i = 0; i < N; ++i) head[i] = rows[i];
    return head;
}

// One kernel's arithmetic for nets of one width (its hidden size fixed at compile time, so the
// loops are as tight as for a single width).
struct KernelOps {
    // out = base + sum(add rows) - sum(sub rows), one lane a neuron, 16-bit wrapping.
    void (*combine)(const std::int16_t* base, const RowChanges& rows, std::int16_t* out);
    // sum over both halves of clamp(a, 0, kQA)^2 x w: us with weights[0, hidden), them with
    // weights[hidden, 2 hidden).
    std::int64_t (*outputSum)(const std::int16_t* us, const std::int16_t* them,
                              const std::int16_t* weights);
};

// A kernel's KernelOps for every width a net may have (kHiddenStep, 2 kHiddenStep, ...,
// kMaxHidden), indexed by widthIndex(hidden).
inline constexpr int kHiddenWidths = kMaxHidden / kHiddenStep;
using KernelTable = std::array<KernelOps, kHiddenWidths>;
constexpr int widthIndex(int hidden) {
    return hidden / kHiddenStep - 1;
}

// The table of a kernel written as a class template Ops<Hidden> with static combine and
// outputSum functions.
template <template <int> class Ops, std::size_t... I>
constexpr KernelTable makeKernelTable(std::index_sequence<I...>) {
    return {KernelOps{&Ops<int(I + 1) * kHiddenStep>::combine,
                      &Ops<int(I + 1) * kHiddenStep>::outputSum}...};
}
template <template <int> class Ops>
constexpr KernelTable kernelTable() {
    return makeKernelTable<Ops>(std::make_index_sequence<kHiddenWidths>());
}

extern const KernelTable kScalar;
extern const KernelTable kSse2;
extern const KernelTable kAvx2;
extern const KernelTable kAvx512;

// The output layer's 32-bit lanes each sum at most this many products of clamp(a)^2 x w (the
// SSE2 kernel's four lanes sum the most, for the widest net); they must not overflow before the
// 64-bit total.
inline constexpr std::int64_t kMaxProductsPerLane = 2 * kMaxHidden / 4;
static_assert(kMaxProductsPerLane * kQA * kQA * kMaxOutputWeight < (std::int64_t(1) << 31),
              "the output layer's 32-bit lanes could overflow");
static_assert(std::int32_t(kQA) * kMaxOutputWeight <= 32767,
              "clamp(a) x w must fit 16 bits for the SIMD multiply");
static_assert(kHiddenStep % 32 == 0, "the widest kernel works in blocks of 32 neurons");

}  // namespace outpost::nnue::kernels
