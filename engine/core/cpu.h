// The processor the program runs on, and the code paths chosen for it once at start.
//
// One binary serves every x86-64 machine above its floor (the -march it was built for,
// OUTPOST_ARCH): the network's arithmetic (the evaluation kernel) and the slider attack index
// (PEXT or magic multiplication) are picked here from what the CPU has, not at compile time.
//
//   * The floor check runs before any other code of the program (a constructor of the highest
//     priority, compiled for plain x86-64): a CPU below the floor gets a message naming what it
//     lacks and exit code kExitCpuBelowFloor instead of dying on an illegal instruction.
//   * cpuChoice() picks once, thread-safely, and the choice never changes afterwards. The
//     environment may force a path for tests and measurement (OUTPOST_KERNEL=scalar|sse2|avx2|
//     avx512, OUTPOST_SLIDERS=magic|pext); one the CPU cannot run is refused with a message and
//     exit code kExitBadOverride.
//   * PEXT is avoided on AMD before Zen 3 (family 0x17 and below, and Hygon's Zen-based 0x18),
//     where it is microcoded and far slower than a magic multiplication.
//
// This header is included by the floor check's translation unit (built without the arch
// flags), so it declares only plain data and functions, no inline code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace outpost {

using CpuFeatures = std::uint64_t;

// Instruction-set features the floor check and the choice look at (the ones a compiler emits
// for the -march levels we build for).
namespace cpu_feature {
inline constexpr CpuFeatures kSse2 = 1ULL << 0;
inline constexpr CpuFeatures kSse3 = 1ULL << 1;
inline constexpr CpuFeatures kSsse3 = 1ULL << 2;
inline constexpr CpuFeatures kSse41 = 1ULL << 3;
inline constexpr CpuFeatures kSse42 = 1ULL << 4;
inline constexpr CpuFeatures kPopcnt = 1ULL << 5;
inline constexpr CpuFeatures kMovbe = 1ULL << 6;
inline constexpr CpuFeatures kAvx = 1ULL << 7;
inline constexpr CpuFeatures kAvx2 = 1ULL << 8;
inline constexpr CpuFeatures kBmi1 = 1ULL << 9;
inline constexpr CpuFeatures kBmi2 = 1ULL << 10;
inline constexpr CpuFeatures kFma = 1ULL << 11;
inline constexpr CpuFeatures kF16c = 1ULL << 12;
inline constexpr CpuFeatures kLzcnt = 1ULL << 13;
inline constexpr CpuFeatures kAvx512F = 1ULL << 14;
inline constexpr CpuFeatures kAvx512Bw = 1ULL << 15;
inline constexpr CpuFeatures kAvx512Dq = 1ULL << 16;
inline constexpr CpuFeatures kAvx512Vl = 1ULL << 17;
inline constexpr CpuFeatures kAvx512Cd = 1ULL << 18;
inline constexpr CpuFeatures kAvx512Vbmi = 1ULL << 19;
inline constexpr CpuFeatures kAvx512Vbmi2 = 1ULL << 20;
inline constexpr CpuFeatures kAvx512Vnni = 1ULL << 21;
inline constexpr CpuFeatures kAvx512Bitalg = 1ULL << 22;
inline constexpr CpuFeatures kAvx512Vpopcntdq = 1ULL << 23;
inline constexpr CpuFeatures kAvx512Ifma = 1ULL << 24;
inline constexpr CpuFeatures kGfni = 1ULL << 25;
inline constexpr CpuFeatures kVaes = 1ULL << 26;
inline constexpr CpuFeatures kVpclmulqdq = 1ULL << 27;
inline constexpr CpuFeatures kPclmul = 1ULL << 28;
inline constexpr CpuFeatures kAes = 1ULL << 29;
inline constexpr int kCount = 30;
}  // namespace cpu_feature

// Exit codes of a refusal at start.
inline constexpr int kExitBadOverride = 2;
inline constexpr int kExitCpuBelowFloor = 3;

// A plain aggregate (no member initialisers, so no constructor code for the floor check to
// call): write CpuInfo{} for an empty one.
struct CpuInfo {
    CpuFeatures features;  // usable: the CPU has them and the OS saves their registers
    char vendor[13];       // "GenuineIntel", "AuthenticAMD", ... (NUL-terminated)
    int family;            // display family (base + extended)
    int model;
};

// What this CPU has (cpuid and xgetbv; nothing on other architectures).
CpuInfo detectCpu();
// What this build's compiler flags let the code assume (the floor), and the -march it names.
CpuFeatures buildFloor();
const char* buildArch();
// The name of one feature bit ("AVX2"), "" for a bit not in the list.
const char* cpuFeatureName(CpuFeatures bit);

// The network's arithmetic: the portable loops or one SIMD width (all give identical numbers).
enum class Kernel { Scalar, Sse2, Avx2, Avx512 };
inline constexpr int kKernelCount = 4;
// How a slider's attack table is indexed.
enum class Sliders { Magic, Pext };

struct CpuChoice {
    Kernel kernel = Kernel::Scalar;
    Sliders sliders = Sliders::Magic;
};

const char* kernelName(Kernel kernel);     // "scalar", "sse2", "avx2", "avx512"
const char* slidersName(Sliders sliders);  // "magic", "pext"
bool kernelSupported(Kernel kernel, const CpuInfo& cpu);
bool pextSupported(const CpuInfo& cpu);  // BMI2 present (fast or not)
bool pextFast(const CpuInfo& cpu);       // present and not microcoded (AMD before Zen 3)

// The choice for cpu: the widest kernel that pays (AVX2 at most: AVX-512 only when forced, see
// cpu_choice.cpp) and PEXT where it is fast, unless an override
// (a name as in kernelName/slidersName; null or empty for none) forces one. nullopt, with the
// reason in error, for an unknown name or a path this CPU cannot run.
std::optional<CpuChoice> chooseCpuPaths(const CpuInfo& cpu, const char* kernelOverride,
                                        const char* slidersOverride, std::string* error);

// The process's choice: detectCpu() and the environment (OUTPOST_KERNEL, OUTPOST_SLIDERS),
// made on first use and never changed. A refused override ends the process (kExitBadOverride)
// with the reason on stderr.
const CpuChoice& cpuChoice();
// The choice in words: "kernel avx2, sliders pext".
std::string describeCpuChoice(const CpuChoice& choice);

}  // namespace outpost
