#include "search/fingerprint.h"

#include <array>
#include <cstdint>
#include <cstdio>

#include "core/fnv.h"
#include "engine.h"
#include "eval/nnue.h"

namespace outpost {

namespace {

// Deep enough that the pruning, reductions, extensions and evaluation all shape the tree; shallow
// enough to cost a few milliseconds.
constexpr int kFingerprintDepth = 7;
constexpr std::size_t kFingerprintHashMb = 1;

// An opening, a middlegame full of tactics, and an ending with passed pawns.
constexpr std::array<const char*, 3> kFingerprintPositions = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
};

}  // namespace

std::string computeEngineFingerprint(const SearchConfig& config) {
    std::uint64_t hash = kFnvOffset;
    if (const nnue::Network* net = nnue::embeddedNetwork())
        hash = fnv1a(nnue::serializeNetwork(*net), hash);
    hash = fnv1a(kEngineVersion, hash);

    EngineOptions options;
    options.hashMb = kFingerprintHashMb;
    options.threads = 1;
    options.config = config;
    Engine engine(options);
    for (const char* fen : kFingerprintPositions) {
        engine.clearHash();  // each search from an empty table: deterministic
        SearchRequest request;
        request.fen = fen;
        request.limits.depth = kFingerprintDepth;
        const SearchResult result = engine.run(request);
        hash = fnv1a(result.bestmove, hash);
        hash =
            fnv1a(std::to_string(static_cast<int>(result.info.score.kind)) + ' ' +
                      std::to_string(result.info.score.value) + ' ' +
                      std::to_string(result.info.depth) + ' ' + std::to_string(result.info.nodes),
                  hash);
    }
    std::array<char, 17> text{};
    std::snprintf(text.data(), text.size(), "%016llx", static_cast<unsigned long long>(hash));
    return std::string(text.data());
}

const std::string& engineFingerprint() {
    static const std::string fingerprint = computeEngineFingerprint(SearchConfig{});
    return fingerprint;
}

}  // namespace outpost
