// FNV-1a, 64 bits: a small, stable hash of bytes (a game's name for the levels' seeds, the
// engine's fingerprint). Not for hash tables an adversary fills, and not the positions' keys
// (core/zobrist.h).
#pragma once

#include <cstdint>
#include <string_view>

namespace outpost {

inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
inline constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

// `hash` continued over `bytes` (start from kFnvOffset).
constexpr std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnvOffset) {
    for (const char byte : bytes) {
        hash ^= static_cast<unsigned char>(byte);
        hash *= kFnvPrime;
    }
    return hash;
}

}  // namespace outpost
