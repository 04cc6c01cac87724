// Zobrist keys, generated at compile time from a fixed seed (so keys, and anything derived from
// them such as opening-book or test expectations, are identical across builds).
#pragma once

#include <array>

#include "core/types.h"

namespace outpost::zobrist {

struct Keys {
    Key psq[PieceCount][SquareCount];
    Key castling[CastlingRightsCount];
    Key epFile[8];
    Key side;
};

constexpr Keys makeKeys() {
    Keys k{};
    std::uint64_t state = 0x2545F4914F6CDD1DULL;
    auto next = [&state]() {  // splitmix64
        state += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    for (auto& row : k.psq)
        for (auto& key : row) key = next();
    // Castling keys are the XOR of one key per right, so losing rights can XOR them out freely.
    Key single[4] = {next(), next(), next(), next()};
    for (int r = 0; r < CastlingRightsCount; ++r) {
        k.castling[r] = 0;
        for (int i = 0; i < 4; ++i)
            if (r & (1 << i)) k.castling[r] ^= single[i];
    }
    for (auto& key : k.epFile) key = next();
    k.side = next();
    return k;
}

inline constexpr Keys kKeys = makeKeys();

}  // namespace outpost::zobrist
