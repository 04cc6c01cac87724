// The engine's fingerprint: a short text that changes when what a search answers can change.
//
// It hashes the embedded network's weights and the results (best move, score, depth and node
// count) of fixed-depth, one-thread searches of a few positions from an empty table, which are
// deterministic. So a new network, or any change to the search or the evaluation that changes a
// node count (what `outpost bench` signs), gives another fingerprint. A cache of search results
// keyed by it (the server's analysis cache) never answers with an older engine's work.
#pragma once

#include <string>

#include "engine.h"

namespace outpost {

// The fingerprint of an engine searching with `config` (the engine's is the default one).
std::string computeEngineFingerprint(const SearchConfig& config);

// Sixteen hex digits. Computed on the first call (a few milliseconds of search) and kept;
// any thread may call it.
const std::string& engineFingerprint();

}  // namespace outpost
