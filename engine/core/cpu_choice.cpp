// The code paths chosen for this CPU (core/cpu.h): made once, read-only afterwards.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/cpu.h"

namespace outpost {

namespace {

namespace f = cpu_feature;

constexpr const char* kKernelNames[kKernelCount] = {"scalar", "sse2", "avx2", "avx512"};
constexpr Kernel kKernels[kKernelCount] = {Kernel::Scalar, Kernel::Sse2, Kernel::Avx2,
                                           Kernel::Avx512};

// What each kernel's code uses (its functions carry these as target attributes).
constexpr CpuFeatures kKernelNeeds[kKernelCount] = {0, f::kSse2, f::kAvx2,
                                                    f::kAvx512F | f::kAvx512Bw};

// AVX-512 is never picked by itself: it was no clear gain where it was measured
// (docs/performance.md: on Zen 4, which runs a 512-bit operation as two 256-bit halves, AVX2 and
// AVX-512 bench within the noise of each other), the kernel is a small part of the time, and on
// Intel before Ice Lake 512-bit instructions lower the clock of the whole core, search included.
// It stays one OUTPOST_KERNEL=avx512 away, tested like the others; widen this where a measurement
// says so.
constexpr Kernel kWidestPicked = Kernel::Avx2;

// AMD's and Hygon's families before Zen 3 (0x19) run PEXT in microcode: tens of cycles, and
// more the more bits the mask has.
constexpr int kFirstFastPextAmdFamily = 0x19;

bool slowPextVendor(const CpuInfo& cpu) {
    return std::strcmp(cpu.vendor, "AuthenticAMD") == 0 ||
           std::strcmp(cpu.vendor, "HygonGenuine") == 0;
}

bool empty(const char* text) {
    return text == nullptr || *text == '\0';
}

std::string supportedKernels(const CpuInfo& cpu) {
    std::string list;
    for (const Kernel k : kKernels)
        if (kernelSupported(k, cpu))
            list += (list.empty() ? "" : ", ") + std::string(kernelName(k));
    return list;
}

}  // namespace

const char* kernelName(Kernel kernel) {
    return kKernelNames[int(kernel)];
}

const char* slidersName(Sliders sliders) {
    return sliders == Sliders::Pext ? "pext" : "magic";
}

bool kernelSupported(Kernel kernel, const CpuInfo& cpu) {
#if defined(__x86_64__) || defined(__i386__)
    const CpuFeatures needs = kKernelNeeds[int(kernel)];
    return (cpu.features & needs) == needs;
#else
    return kernel == Kernel::Scalar;
#endif
}

bool pextSupported(const CpuInfo& cpu) {
#if defined(__x86_64__)
    return (cpu.features & f::kBmi2) != 0;
#else
    return false;
#endif
}

bool pextFast(const CpuInfo& cpu) {
    return pextSupported(cpu) && !(slowPextVendor(cpu) && cpu.family < kFirstFastPextAmdFamily);
}

std::optional<CpuChoice> chooseCpuPaths(const CpuInfo& cpu, const char* kernelOverride,
                                        const char* slidersOverride, std::string* error) {
    auto fail = [error](const std::string& why) {
        if (error) *error = why;
        return std::optional<CpuChoice>();
    };
    CpuChoice choice;
    if (empty(kernelOverride)) {
        for (const Kernel k : kKernels)
            if (kernelSupported(k, cpu) && int(k) <= int(kWidestPicked)) choice.kernel = k;
    } else {
        const std::string wanted = kernelOverride;
        bool known = false;
        for (const Kernel k : kKernels) {
            if (wanted != kernelName(k)) continue;
            known = true;
            if (!kernelSupported(k, cpu))
                return fail("OUTPOST_KERNEL=" + wanted + ": this CPU cannot run it (it runs " +
                            supportedKernels(cpu) + ")");
            choice.kernel = k;
        }
        if (!known)
            return fail("OUTPOST_KERNEL=" + wanted +
                        ": unknown kernel (one of scalar, sse2, avx2, avx512)");
    }
    if (empty(slidersOverride)) {
        choice.sliders = pextFast(cpu) ? Sliders::Pext : Sliders::Magic;
    } else {
        const std::string wanted = slidersOverride;
        if (wanted == "magic") {
            choice.sliders = Sliders::Magic;
        } else if (wanted == "pext") {
            if (!pextSupported(cpu))
                return fail("OUTPOST_SLIDERS=pext: this CPU has no PEXT (BMI2); use magic");
            choice.sliders = Sliders::Pext;
        } else {
            return fail("OUTPOST_SLIDERS=" + wanted + ": unknown (one of magic, pext)");
        }
    }
    return choice;
}

const CpuChoice& cpuChoice() {
    static const CpuChoice choice = [] {
        std::string error;
        const std::optional<CpuChoice> chosen = chooseCpuPaths(
            detectCpu(), std::getenv("OUTPOST_KERNEL"), std::getenv("OUTPOST_SLIDERS"), &error);
        if (!chosen) {
            std::fprintf(stderr, "outpost: %s\n", error.c_str());
            std::fflush(stderr);
            std::_Exit(kExitBadOverride);
        }
        return *chosen;
    }();
    return choice;
}

std::string describeCpuChoice(const CpuChoice& choice) {
    return std::string("kernel ") + kernelName(choice.kernel) + ", sliders " +
           slidersName(choice.sliders);
}

}  // namespace outpost
