// The SSE2 kernel: 8 neurons a step. Every x86-64 CPU has SSE2; the target attribute keeps the
// file correct whatever the build's flags.
#include "eval/nnue_kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

namespace outpost::nnue::kernels {

namespace {

constexpr int kLanes16 = 8;

template <int Hidden>
struct Sse2Ops {
    __attribute__((target("sse2"))) static void combine(const std::int16_t* base,
                                                        const RowChanges& rows, std::int16_t* out) {
        for (int i = 0; i < Hidden; i += kLanes16) {
            __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(base + i));
            for (int k = 0; k < rows.adds; ++k)
                v = _mm_add_epi16(
                    v, _mm_load_si128(reinterpret_cast<const __m128i*>(rows.add[k] + i)));
            for (int k = 0; k < rows.subs; ++k)
                v = _mm_sub_epi16(
                    v, _mm_load_si128(reinterpret_cast<const __m128i*>(rows.sub[k] + i)));
            _mm_store_si128(reinterpret_cast<__m128i*>(out + i), v);
        }
    }

    __attribute__((target("sse2"))) static std::int64_t outputSum(const std::int16_t* us,
                                                                  const std::int16_t* them,
                                                                  const std::int16_t* weights) {
        const __m128i zero = _mm_setzero_si128();
        const __m128i ceiling = _mm_set1_epi16(kQA);
        __m128i sum = _mm_setzero_si128();
        const std::int16_t* sides[2] = {us, them};
        for (int s = 0; s < 2; ++s) {
            const std::int16_t* a = sides[s];
            const std::int16_t* w = weights + s * Hidden;
            for (int i = 0; i < Hidden; i += kLanes16) {
                __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(a + i));
                v = _mm_min_epi16(_mm_max_epi16(v, zero), ceiling);
                const __m128i wv = _mm_load_si128(reinterpret_cast<const __m128i*>(w + i));
                sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_mullo_epi16(v, wv), v));
            }
        }
        alignas(16) std::int32_t lanes[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), sum);
        std::int64_t total = 0;
        for (const std::int32_t lane : lanes) total += lane;
        return total;
    }
};

}  // namespace

const KernelTable kSse2 = kernelTable<Sse2Ops>();

}  // namespace outpost::nnue::kernels

#else

#include "eval/nnue_kernel_scalar.h"

namespace outpost::nnue::kernels {
const KernelTable kSse2 = kernelTable<ScalarOps>();  // never chosen off x86
}  // namespace outpost::nnue::kernels

#endif
