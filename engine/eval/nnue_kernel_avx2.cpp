// The AVX2 kernel: 16 neurons a step. Compiled for AVX2 by its target attributes, so a build
// for an older floor (x86-64-v2) still runs it on a CPU that has AVX2.
#include "eval/nnue_kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

namespace outpost::nnue::kernels {

namespace {

constexpr int kLanes16 = 16;

__attribute__((target("avx2"))) inline __m256i load(const std::int16_t* p) {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
}

template <int Hidden>
struct Avx2Ops {
    __attribute__((target("avx2"))) static void combine(const std::int16_t* base,
                                                        const RowChanges& rows, std::int16_t* out) {
        // The two shapes of almost every update, unrolled: a move (one row in, one out) and a
        // capture (one in, two out). The row pointers stay in registers instead of being read
        // again for every block of neurons; the sums are the general loop's, in its order.
        if (rows.adds == 1 && rows.subs == 1) {
            const std::int16_t* in = rows.add[0];
            const std::int16_t* gone = rows.sub[0];
            for (int i = 0; i < Hidden; i += kLanes16) {
                const __m256i v = _mm256_sub_epi16(_mm256_add_epi16(load(base + i), load(in + i)),
                                                   load(gone + i));
                _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), v);
            }
            return;
        }
        if (rows.adds == 1 && rows.subs == 2) {
            const std::int16_t* in = rows.add[0];
            const std::int16_t* gone = rows.sub[0];
            const std::int16_t* taken = rows.sub[1];
            for (int i = 0; i < Hidden; i += kLanes16) {
                const __m256i v = _mm256_sub_epi16(
                    _mm256_sub_epi16(_mm256_add_epi16(load(base + i), load(in + i)),
                                     load(gone + i)),
                    load(taken + i));
                _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), v);
            }
            return;
        }
        for (int i = 0; i < Hidden; i += kLanes16) {
            __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(base + i));
            for (int k = 0; k < rows.adds; ++k)
                v = _mm256_add_epi16(
                    v, _mm256_load_si256(reinterpret_cast<const __m256i*>(rows.add[k] + i)));
            for (int k = 0; k < rows.subs; ++k)
                v = _mm256_sub_epi16(
                    v, _mm256_load_si256(reinterpret_cast<const __m256i*>(rows.sub[k] + i)));
            _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), v);
        }
    }

    __attribute__((target("avx2"))) static std::int64_t outputSum(const std::int16_t* us,
                                                                  const std::int16_t* them,
                                                                  const std::int16_t* weights) {
        const __m256i zero = _mm256_setzero_si256();
        const __m256i ceiling = _mm256_set1_epi16(kQA);
        __m256i sum = _mm256_setzero_si256();
        const std::int16_t* sides[2] = {us, them};
        for (int s = 0; s < 2; ++s) {
            const std::int16_t* a = sides[s];
            const std::int16_t* w = weights + s * Hidden;
            for (int i = 0; i < Hidden; i += kLanes16) {
                __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + i));
                v = _mm256_min_epi16(_mm256_max_epi16(v, zero), ceiling);
                const __m256i wv = _mm256_load_si256(reinterpret_cast<const __m256i*>(w + i));
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, wv), v));
            }
        }
        alignas(32) std::int32_t lanes[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), sum);
        std::int64_t total = 0;
        for (const std::int32_t lane : lanes) total += lane;
        return total;
    }
};

}  // namespace

const KernelTable kAvx2 = kernelTable<Avx2Ops>();

}  // namespace outpost::nnue::kernels

#else

#include "eval/nnue_kernel_scalar.h"

namespace outpost::nnue::kernels {
const KernelTable kAvx2 = kernelTable<ScalarOps>();  // never chosen off x86
}  // namespace outpost::nnue::kernels

#endif
