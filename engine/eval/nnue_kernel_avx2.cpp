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
        // The two shapes of almost every update with their counts fixed: a move (one row in,
        // one out) and a capture (one in, two out). The row pointers then stay in registers
        // instead of being read again for every block of neurons.
        if (rows.adds == 1 && rows.subs == 1) return combineFixed<1, 1>(base, rows, out);
        if (rows.adds == 1 && rows.subs == 2) return combineFixed<1, 2>(base, rows, out);
        for (int i = 0; i < Hidden; i += kLanes16) {
            __m256i v = load(base + i);
            for (int k = 0; k < rows.adds; ++k) v = _mm256_add_epi16(v, load(rows.add[k] + i));
            for (int k = 0; k < rows.subs; ++k) v = _mm256_sub_epi16(v, load(rows.sub[k] + i));
            _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), v);
        }
    }

    // The general loop above for Adds rows in and Subs out, known at compile time: the same
    // sums in the same order.
    template <int Adds, int Subs>
    __attribute__((target("avx2"))) static void combineFixed(const std::int16_t* base,
                                                             const RowChanges& rows,
                                                             std::int16_t* out) {
        const std::array<const std::int16_t*, Adds> in = headOf<Adds>(rows.add);
        const std::array<const std::int16_t*, Subs> gone = headOf<Subs>(rows.sub);
        for (int i = 0; i < Hidden; i += kLanes16) {
            __m256i v = load(base + i);
            for (const std::int16_t* row : in) v = _mm256_add_epi16(v, load(row + i));
            for (const std::int16_t* row : gone) v = _mm256_sub_epi16(v, load(row + i));
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
                __m256i v = load(a + i);
                v = _mm256_min_epi16(_mm256_max_epi16(v, zero), ceiling);
                const __m256i wv = load(w + i);
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
