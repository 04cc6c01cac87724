// The portable kernel's loops (internal to engine/eval): the scalar kernel, and what the SIMD
// files fall back to off x86. Plain loops; the compiler may vectorise them for the build's floor.
#pragma once

#include <algorithm>

#include "eval/nnue_kernels.h"

namespace outpost::nnue::kernels {

template <int Hidden>
struct ScalarOps {
    static void combine(const std::int16_t* base, const RowChanges& rows, std::int16_t* out) {
        for (int i = 0; i < Hidden; ++i) {
            int v = base[i];
            for (int k = 0; k < rows.adds; ++k) v += rows.add[k][i];
            for (int k = 0; k < rows.subs; ++k) v -= rows.sub[k][i];
            out[i] = static_cast<std::int16_t>(v);  // wraps like the SIMD adds (never in practice)
        }
    }

    static std::int64_t outputSum(const std::int16_t* us, const std::int16_t* them,
                                  const std::int16_t* weights) {
        std::int64_t sum = 0;
        const std::int16_t* sides[2] = {us, them};
        for (int s = 0; s < 2; ++s) {
            const std::int16_t* a = sides[s];
            const std::int16_t* w = weights + s * Hidden;
            for (int i = 0; i < Hidden; ++i) {
                const std::int32_t v = std::clamp<std::int32_t>(a[i], 0, kQA);
                sum += std::int64_t(v * w[i]) * v;
            }
        }
        return sum;
    }
};

}  // namespace outpost::nnue::kernels
