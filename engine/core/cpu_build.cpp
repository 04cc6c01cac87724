// What this build's compiler flags (-march=OUTPOST_ARCH) let the compiler assume: the floor the
// CPU must reach. Compiled with the build's flags, like the rest of the engine, so the
// predefined macros say what every other file may use; it holds only constant data, which the
// floor check (built for plain x86-64) reads before anything else runs.
#include "core/cpu.h"

#ifndef OUTPOST_BUILD_ARCH
#define OUTPOST_BUILD_ARCH "the compiler's default"
#endif

namespace outpost::cpu_build {

namespace f = cpu_feature;

// One term per feature: its bit when the compiler may emit it.
constexpr CpuFeatures kFloor = 0
#ifdef __SSE2__
                               | f::kSse2
#endif
#ifdef __SSE3__
                               | f::kSse3
#endif
#ifdef __SSSE3__
                               | f::kSsse3
#endif
#ifdef __SSE4_1__
                               | f::kSse41
#endif
#ifdef __SSE4_2__
                               | f::kSse42
#endif
#ifdef __POPCNT__
                               | f::kPopcnt
#endif
#ifdef __MOVBE__
                               | f::kMovbe
#endif
#ifdef __AVX__
                               | f::kAvx
#endif
#ifdef __AVX2__
                               | f::kAvx2
#endif
#ifdef __BMI__
                               | f::kBmi1
#endif
#ifdef __BMI2__
                               | f::kBmi2
#endif
#ifdef __FMA__
                               | f::kFma
#endif
#ifdef __F16C__
                               | f::kF16c
#endif
#ifdef __LZCNT__
                               | f::kLzcnt
#endif
#ifdef __AVX512F__
                               | f::kAvx512F
#endif
#ifdef __AVX512BW__
                               | f::kAvx512Bw
#endif
#ifdef __AVX512DQ__
                               | f::kAvx512Dq
#endif
#ifdef __AVX512VL__
                               | f::kAvx512Vl
#endif
#ifdef __AVX512CD__
                               | f::kAvx512Cd
#endif
#ifdef __AVX512VBMI__
                               | f::kAvx512Vbmi
#endif
#ifdef __AVX512VBMI2__
                               | f::kAvx512Vbmi2
#endif
#ifdef __AVX512VNNI__
                               | f::kAvx512Vnni
#endif
#ifdef __AVX512BITALG__
                               | f::kAvx512Bitalg
#endif
#ifdef __AVX512VPOPCNTDQ__
                               | f::kAvx512Vpopcntdq
#endif
#ifdef __AVX512IFMA__
                               | f::kAvx512Ifma
#endif
#ifdef __GFNI__
                               | f::kGfni
#endif
#ifdef __VAES__
                               | f::kVaes
#endif
#ifdef __VPCLMULQDQ__
                               | f::kVpclmulqdq
#endif
#ifdef __PCLMUL__
                               | f::kPclmul
#endif
#ifdef __AES__
                               | f::kAes
#endif
    ;

// Data, not code: read by the floor check before it knows whether this file's code could run.
extern const CpuFeatures kBuildFloorFeatures;
extern const char kBuildArchName[];
constinit const CpuFeatures kBuildFloorFeatures = kFloor;
constinit const char kBuildArchName[] = OUTPOST_BUILD_ARCH;

}  // namespace outpost::cpu_build
