// Parsing of the UCI `go` command into typed search limits, kept apart from the loop so it can be
// tested on its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine.h"

namespace outpost::uci {

struct GoCommand {
    SearchLimits limits;
    std::optional<int> perftDepth;  // `go perft N`: count leaf nodes instead of searching
};

// `args` is everything after "go". A GUI waits for a bestmove after every `go`, so nothing makes
// the command fail: an unknown token is ignored (as the UCI protocol asks), and so is a
// parameter whose value is missing, not a number or negative; `warnings` says what was ignored.
GoCommand parseGo(std::string_view args, std::vector<std::string>& warnings);

}  // namespace outpost::uci
