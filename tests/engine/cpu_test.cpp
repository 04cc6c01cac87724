// The code paths picked for the CPU (core/cpu.h): the choice's rules on made-up CPUs, the floor
// on this one, and PEXT against magic slider attacks.
#include "core/cpu.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "core/bitboard.h"

using namespace outpost;

namespace {

namespace f = cpu_feature;

constexpr CpuFeatures kV2 = f::kSse2 | f::kSse3 | f::kSsse3 | f::kSse41 | f::kSse42 | f::kPopcnt;
constexpr CpuFeatures kV3 = kV2 | f::kAvx | f::kAvx2 | f::kBmi1 | f::kBmi2 | f::kFma | f::kLzcnt;
constexpr CpuFeatures kV4 = kV3 | f::kAvx512F | f::kAvx512Bw | f::kAvx512Dq | f::kAvx512Vl;

CpuInfo makeCpu(const char* vendor, int family, CpuFeatures features) {
    CpuInfo cpu{};
    const std::size_t length = std::min(std::strlen(vendor), sizeof(cpu.vendor) - 1);
    std::memcpy(cpu.vendor, vendor, length);  // the rest stays NUL
    cpu.family = family;
    cpu.features = features;
    return cpu;
}

CpuChoice choose(const CpuInfo& cpu, const char* kernel = nullptr, const char* sliders = nullptr) {
    std::string error;
    const auto choice = chooseCpuPaths(cpu, kernel, sliders, &error);
    INFO(error);
    REQUIRE(choice);
    return *choice;
}

std::string refusal(const CpuInfo& cpu, const char* kernel, const char* sliders) {
    std::string error;
    CHECK_FALSE(chooseCpuPaths(cpu, kernel, sliders, &error));
    return error;
}

// Slider attacks by walking the rays, the definition both table methods must meet.
Bitboard walkRays(bool rook, Square s, Bitboard occupied) {
    constexpr int kRook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    constexpr int kBishop[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    Bitboard attacks = 0;
    for (const auto& d : rook ? kRook : kBishop) {
        for (int file = fileOf(s) + d[0], rank = rankOf(s) + d[1];
             file >= 0 && file < 8 && rank >= 0 && rank < 8; file += d[0], rank += d[1]) {
            attacks |= squareBB(makeSquare(file, rank));
            if (occupied & squareBB(makeSquare(file, rank))) break;
        }
    }
    return attacks;
}

}  // namespace

TEST_CASE("the widest kernel the CPU runs is picked, AVX-512 only when forced", "[cpu]") {
    CHECK(choose(makeCpu("GenuineIntel", 6, 0)).kernel == Kernel::Scalar);
    CHECK(choose(makeCpu("GenuineIntel", 6, f::kSse2)).kernel == Kernel::Sse2);
    CHECK(choose(makeCpu("GenuineIntel", 6, kV2)).kernel == Kernel::Sse2);
    CHECK(choose(makeCpu("GenuineIntel", 6, kV3)).kernel == Kernel::Avx2);
    // AVX-512 did not pay where measured (cpu_choice.cpp): picked only by the override.
    CHECK(choose(makeCpu("AuthenticAMD", 0x19, kV4)).kernel == Kernel::Avx2);
    CHECK(choose(makeCpu("GenuineIntel", 6, kV4)).kernel == Kernel::Avx2);
    CHECK(choose(makeCpu("AuthenticAMD", 0x19, kV4), "avx512").kernel == Kernel::Avx512);
    // AVX512F alone (Knights Landing) lacks the 16-bit operations the kernel needs.
    CHECK(refusal(makeCpu("GenuineIntel", 6, kV3 | f::kAvx512F), "avx512", nullptr)
              .find("cannot run it") != std::string::npos);
}

TEST_CASE("PEXT is used where it is fast, never on AMD before Zen 3", "[cpu]") {
    CHECK(choose(makeCpu("GenuineIntel", 6, kV3)).sliders == Sliders::Pext);
    CHECK(choose(makeCpu("AuthenticAMD", 0x19, kV3)).sliders == Sliders::Pext);   // Zen 3, Zen 4
    CHECK(choose(makeCpu("AuthenticAMD", 0x1A, kV3)).sliders == Sliders::Pext);   // Zen 5
    CHECK(choose(makeCpu("AuthenticAMD", 0x17, kV3)).sliders == Sliders::Magic);  // Zen 1, Zen 2
    CHECK(choose(makeCpu("AuthenticAMD", 0x15, kV3)).sliders == Sliders::Magic);  // Excavator
    CHECK(choose(makeCpu("HygonGenuine", 0x18, kV3)).sliders == Sliders::Magic);
    CHECK(choose(makeCpu("GenuineIntel", 6, kV2)).sliders == Sliders::Magic);  // no BMI2
    // Forced: slow PEXT is still PEXT (for measurement), no PEXT is refused.
    CHECK(choose(makeCpu("AuthenticAMD", 0x17, kV3), nullptr, "pext").sliders == Sliders::Pext);
    CHECK(choose(makeCpu("GenuineIntel", 6, kV3), nullptr, "magic").sliders == Sliders::Magic);
    CHECK(refusal(makeCpu("GenuineIntel", 6, kV2), nullptr, "pext").find("no PEXT") !=
          std::string::npos);
}

TEST_CASE("an override forces a kernel the CPU runs and refuses one it does not", "[cpu]") {
    const CpuInfo v3 = makeCpu("GenuineIntel", 6, kV3);
    CHECK(choose(v3, "scalar").kernel == Kernel::Scalar);
    CHECK(choose(v3, "sse2").kernel == Kernel::Sse2);
    CHECK(choose(v3, "avx2").kernel == Kernel::Avx2);
    CHECK(choose(v3, "").kernel == Kernel::Avx2);  // empty: no override
    const std::string error = refusal(v3, "avx512", nullptr);
    CHECK(error.find("OUTPOST_KERNEL=avx512") != std::string::npos);
    CHECK(error.find("scalar, sse2, avx2") != std::string::npos);  // what it runs instead
    CHECK(refusal(v3, "avx3", nullptr).find("unknown kernel") != std::string::npos);
    CHECK(refusal(v3, nullptr, "fancy").find("unknown") != std::string::npos);
}

TEST_CASE("the choice is described in words", "[cpu]") {
    CHECK(describeCpuChoice({Kernel::Avx2, Sliders::Pext}) == "kernel avx2, sliders pext");
    CHECK(describeCpuChoice({Kernel::Scalar, Sliders::Magic}) == "kernel scalar, sliders magic");
}

TEST_CASE("this CPU meets the build's floor and runs the process's choice", "[cpu]") {
    const CpuInfo cpu = detectCpu();
    INFO("vendor " << cpu.vendor << ", family " << cpu.family << ", build -march=" << buildArch()
                   << ", " << describeCpuChoice(cpuChoice()));
    // The floor check let the process start, so the floor must be within what the CPU has.
    CHECK((buildFloor() & ~cpu.features) == 0);
#if defined(__x86_64__)
    CHECK((cpu.features & f::kSse2) != 0);
    CHECK((buildFloor() & f::kSse2) != 0);
#endif
#if defined(__AVX2__)
    CHECK((buildFloor() & f::kAvx2) != 0);  // the floor follows the compiler's flags
#endif
    CHECK(kernelSupported(cpuChoice().kernel, cpu));
    if (cpuChoice().sliders == Sliders::Pext) CHECK(pextSupported(cpu));
    CHECK(std::string(cpuFeatureName(f::kSse42)) == "SSE4.2");
    CHECK(std::string(cpuFeatureName(f::kAvx512Bw)) == "AVX512BW");
}

TEST_CASE("PEXT and magic slider attacks agree with the rays on random occupancies", "[cpu]") {
    // Heap: each table set is about 1 MB.
    const auto magic = std::make_unique<detail::AttackTables>(Sliders::Magic);
    const bool havePext = pextSupported(detectCpu());
    const auto pext = havePext ? std::make_unique<detail::AttackTables>(Sliders::Pext) : nullptr;
    INFO("PEXT on this CPU: " << havePext);
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 20000; ++trial) {
        // Sparse and dense boards both.
        const Bitboard occupied = trial % 2 ? rng() & rng() : rng() | rng();
        for (int sq = 0; sq < SquareCount; ++sq) {
            const Square s = Square(sq);
            const Bitboard rook = walkRays(true, s, occupied);
            const Bitboard bishop = walkRays(false, s, occupied);
            REQUIRE(magic->rookAttacks(s, occupied) == rook);
            REQUIRE(magic->bishopAttacks(s, occupied) == bishop);
            REQUIRE(rookAttacks(s, occupied) == rook);  // the process's own tables
            REQUIRE(bishopAttacks(s, occupied) == bishop);
            if (pext) {
                REQUIRE(pext->rookAttacks(s, occupied) == rook);
                REQUIRE(pext->bishopAttacks(s, occupied) == bishop);
            }
        }
    }
}
