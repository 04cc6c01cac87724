// Parsing of the UCI `go` command into typed search limits, kept apart from the loop so it can be
// tested on its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine.h"

namespace outpost::uci {

struct GoCommand {
    SearchLimits limits;
    std::optional<int> perftDepth;  // `go perft N`: count leaf nodes instead of searching
};

// `args` is everything after "go". Returns nullopt and sets `error` for a malformed command.
std::optional<GoCommand> parseGo(std::string_view args, std::string& error);

}  // namespace outpost::uci
