// What the CPU has, and the floor check. Built for plain x86-64 (engine/CMakeLists.txt), since
// it runs before we know whether the build's -march is safe here; for the same reason it calls
// only C library functions and its own internal ones (an inline function of a header could be
// merged with a copy compiled for a higher -march).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define OUTPOST_X86 1
#else
#define OUTPOST_X86 0
#endif

namespace outpost {

namespace cpu_build {
extern const CpuFeatures kBuildFloorFeatures;
extern const char kBuildArchName[];
}  // namespace cpu_build

namespace {

namespace f = cpu_feature;

// Indexed by bit number, as in cpu_feature.
constexpr const char* kFeatureNames[f::kCount] = {
    "SSE2",       "SSE3",       "SSSE3",       "SSE4.1",     "SSE4.2",       "POPCNT",
    "MOVBE",      "AVX",        "AVX2",        "BMI1",       "BMI2",         "FMA",
    "F16C",       "LZCNT",      "AVX512F",     "AVX512BW",   "AVX512DQ",     "AVX512VL",
    "AVX512CD",   "AVX512VBMI", "AVX512VBMI2", "AVX512VNNI", "AVX512BITALG", "AVX512VPOPCNTDQ",
    "AVX512IFMA", "GFNI",       "VAES",        "VPCLMULQDQ", "PCLMUL",       "AES"};

#if OUTPOST_X86
struct Regs {
    unsigned a, b, c, d;
};

Regs cpuid(unsigned leaf, unsigned subleaf) {
    Regs r{0, 0, 0, 0};
    __cpuid_count(leaf, subleaf, r.a, r.b, r.c, r.d);
    return r;
}

bool bit(unsigned reg, int n) {
    return ((reg >> n) & 1U) != 0;
}

// The register state the OS saves on a context switch (XCR0); only valid with OSXSAVE.
std::uint64_t xcr0() {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (std::uint64_t(hi) << 32) | lo;
}

constexpr std::uint64_t kXcr0SseAvx = 0x6;     // XMM and YMM state
constexpr std::uint64_t kXcr0Avx512 = 0xE0;    // opmask, ZMM_Hi256, Hi16_ZMM state
constexpr unsigned kExtendedFamilyBase = 0xF;  // display family adds the extended family
#endif

// What -march=x86-64-v2 lets the compiler use, of the features we track.
constexpr CpuFeatures kX8664V2 =
    f::kSse2 | f::kSse3 | f::kSsse3 | f::kSse41 | f::kSse42 | f::kPopcnt;

}  // namespace

CpuInfo detectCpu() {
    CpuInfo info{};
#if OUTPOST_X86
    const Regs leaf0 = cpuid(0, 0);
    std::memcpy(info.vendor + 0, &leaf0.b, 4);
    std::memcpy(info.vendor + 4, &leaf0.d, 4);
    std::memcpy(info.vendor + 8, &leaf0.c, 4);
    info.vendor[12] = '\0';
    const unsigned maxLeaf = leaf0.a;
    if (maxLeaf < 1) return info;

    const Regs l1 = cpuid(1, 0);
    const unsigned baseFamily = (l1.a >> 8) & 0xF;
    const unsigned baseModel = (l1.a >> 4) & 0xF;
    info.family = int(baseFamily);
    info.model = int(baseModel);
    if (baseFamily == kExtendedFamilyBase) info.family += int((l1.a >> 20) & 0xFF);
    if (baseFamily == kExtendedFamilyBase || baseFamily == 6)
        info.model += int(((l1.a >> 16) & 0xF) << 4);

    CpuFeatures has = 0;
    auto set = [&has](bool present, CpuFeatures feature) {
        if (present) has |= feature;
    };
    set(bit(l1.d, 26), f::kSse2);
    set(bit(l1.c, 0), f::kSse3);
    set(bit(l1.c, 1), f::kPclmul);
    set(bit(l1.c, 9), f::kSsse3);
    set(bit(l1.c, 19), f::kSse41);
    set(bit(l1.c, 20), f::kSse42);
    set(bit(l1.c, 22), f::kMovbe);
    set(bit(l1.c, 23), f::kPopcnt);
    set(bit(l1.c, 25), f::kAes);

    const bool osxsave = bit(l1.c, 27);
    const std::uint64_t xcr = osxsave ? xcr0() : 0;
    const bool avxState = (xcr & kXcr0SseAvx) == kXcr0SseAvx;
    const bool avx512State = avxState && (xcr & kXcr0Avx512) == kXcr0Avx512;
    set(avxState && bit(l1.c, 28), f::kAvx);
    set(avxState && bit(l1.c, 12), f::kFma);
    set(avxState && bit(l1.c, 29), f::kF16c);

    if (maxLeaf >= 7) {
        const Regs l7 = cpuid(7, 0);
        set(bit(l7.b, 3), f::kBmi1);
        set(bit(l7.b, 8), f::kBmi2);
        set(avxState && bit(l7.b, 5), f::kAvx2);
        set(avx512State && bit(l7.b, 16), f::kAvx512F);
        set(avx512State && bit(l7.b, 17), f::kAvx512Dq);
        set(avx512State && bit(l7.b, 21), f::kAvx512Ifma);
        set(avx512State && bit(l7.b, 28), f::kAvx512Cd);
        set(avx512State && bit(l7.b, 30), f::kAvx512Bw);
        set(avx512State && bit(l7.b, 31), f::kAvx512Vl);
        set(avx512State && bit(l7.c, 1), f::kAvx512Vbmi);
        set(avx512State && bit(l7.c, 6), f::kAvx512Vbmi2);
        set(bit(l7.c, 8), f::kGfni);
        set(avxState && bit(l7.c, 9), f::kVaes);
        set(avxState && bit(l7.c, 10), f::kVpclmulqdq);
        set(avx512State && bit(l7.c, 11), f::kAvx512Vnni);
        set(avx512State && bit(l7.c, 12), f::kAvx512Bitalg);
        set(avx512State && bit(l7.c, 14), f::kAvx512Vpopcntdq);
    }
    const Regs ext0 = cpuid(0x80000000U, 0);
    if (ext0.a >= 0x80000001U) set(bit(cpuid(0x80000001U, 0).c, 5), f::kLzcnt);
    info.features = has;
#endif
    return info;
}

CpuFeatures buildFloor() {
    return cpu_build::kBuildFloorFeatures;
}

const char* buildArch() {
    return cpu_build::kBuildArchName;
}

const char* cpuFeatureName(CpuFeatures bit) {
    for (int i = 0; i < f::kCount; ++i)
        if (bit == (CpuFeatures(1) << i)) return kFeatureNames[i];
    return "";
}

namespace {

// Before every other initialiser of the program (the attack tables come at 102): a CPU below
// the build's floor would otherwise die on the first instruction it lacks, with no word why.
__attribute__((constructor(101))) void checkCpuFloor() {
    const CpuFeatures has = detectCpu().features;
    const CpuFeatures missing = cpu_build::kBuildFloorFeatures & ~has;
    if (missing == 0) return;
    std::fputs("outpost: this CPU lacks", stderr);
    const char* separator = " ";
    for (int i = 0; i < f::kCount; ++i) {
        if ((missing >> i) & 1U) {
            std::fputs(separator, stderr);
            std::fputs(kFeatureNames[i], stderr);
            separator = ", ";
        }
    }
    // The lowest floor that still has the SSE4.2 and POPCNT the bitboards like, where it can.
    const char* floor = (has & kX8664V2) == kX8664V2 ? "x86-64-v2" : "x86-64";
    std::fprintf(stderr,
                 ", which this build (-march=%s) needs. Use a build for this CPU's floor "
                 "(cmake -DOUTPOST_ARCH=%s): it still picks the fastest code this CPU runs at "
                 "start.\n",
                 cpu_build::kBuildArchName, floor);
    std::fflush(stderr);
    std::_Exit(kExitCpuBelowFloor);
}

}  // namespace

}  // namespace outpost
