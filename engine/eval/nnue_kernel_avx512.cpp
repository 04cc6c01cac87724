// The AVX-512 kernel (AVX512F and AVX512BW): 32 neurons a step, compiled for it by its target
// attributes.
#include "eval/nnue_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

namespace outpost::nnue::kernels {

namespace {

constexpr int kLanes16 = 32;

template <int Hidden>
struct Avx512Ops {
    __attribute__((target("avx512f,avx512bw"))) static void combine(const std::int16_t* base,
                                                                    const RowChanges& rows,
                                                                    std::int16_t* out) {
        // A move's and a capture's counts fixed, as in the AVX2 kernel.
        if (rows.adds == 1 && rows.subs == 1) return combineFixed<1, 1>(base, rows, out);
        if (rows.adds == 1 && rows.subs == 2) return combineFixed<1, 2>(base, rows, out);
        for (int i = 0; i < Hidden; i += kLanes16) {
            __m512i v = _mm512_load_si512(base + i);
            for (int k = 0; k < rows.adds; ++k)
                v = _mm512_add_epi16(v, _mm512_load_si512(rows.add[k] + i));
            for (int k = 0; k < rows.subs; ++k)
                v = _mm512_sub_epi16(v, _mm512_load_si512(rows.sub[k] + i));
            _mm512_store_si512(out + i, v);
        }
    }

    template <int Adds, int Subs>
    __attribute__((target("avx512f,avx512bw"))) static void combineFixed(const std::int16_t* base,
                                                                         const RowChanges& rows,
                                                                         std::int16_t* out) {
        const std::array<const std::int16_t*, Adds> in = headOf<Adds>(rows.add);
        const std::array<const std::int16_t*, Subs> gone = headOf<Subs>(rows.sub);
        for (int i = 0; i < Hidden; i += kLanes16) {
            __m512i v = _mm512_load_si512(base + i);
            for (const std::int16_t* row : in) v = _mm512_add_epi16(v, _mm512_load_si512(row + i));
            for (const std::int16_t* row : gone)
                v = _mm512_sub_epi16(v, _mm512_load_si512(row + i));
            _mm512_store_si512(out + i, v);
        }
    }

    __attribute__((target("avx512f,avx512bw"))) static std::int64_t outputSum(
        const std::int16_t* us, const std::int16_t* them, const std::int16_t* weights) {
        const __m512i zero = _mm512_setzero_si512();
        const __m512i ceiling = _mm512_set1_epi16(kQA);
        __m512i sum = _mm512_setzero_si512();
        const std::int16_t* sides[2] = {us, them};
        for (int s = 0; s < 2; ++s) {
            const std::int16_t* a = sides[s];
            const std::int16_t* w = weights + s * Hidden;
            for (int i = 0; i < Hidden; i += kLanes16) {
                __m512i v = _mm512_load_si512(a + i);
                v = _mm512_min_epi16(_mm512_max_epi16(v, zero), ceiling);
                const __m512i wv = _mm512_load_si512(w + i);
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(_mm512_mullo_epi16(v, wv), v));
            }
        }
        alignas(64) std::int32_t lanes[16];
        _mm512_store_si512(lanes, sum);
        std::int64_t total = 0;
        for (const std::int32_t lane : lanes) total += lane;
        return total;
    }
};

}  // namespace

const KernelTable kAvx512 = kernelTable<Avx512Ops>();

}  // namespace outpost::nnue::kernels

#else

#include "eval/nnue_kernel_scalar.h"

namespace outpost::nnue::kernels {
const KernelTable kAvx512 = kernelTable<ScalarOps>();  // never chosen off x86-64
}  // namespace outpost::nnue::kernels

#endif
