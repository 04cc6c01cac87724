// `outpost bench [depth] [switch=true|false ...] [Param=N ...]`: a fixed-depth search of fixed
// positions with one thread and a 16 MB table (Param=N: a tunable build's margins, by their UCI
// names). The total node count is the engine's signature: any change to the
// search or evaluation that changes it shows up, and commits quote it as `Bench: N`.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine.h"

namespace outpost::uci {

inline constexpr int kDefaultBenchDepth = 12;
inline constexpr std::size_t kBenchHashMb = 16;

struct BenchPosition {
    const char* fen;    // empty: the start position
    const char* moves;  // UCI moves from fen, space separated
};

const std::vector<BenchPosition>& benchPositions();

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t timeMs = 0;
    std::vector<std::pair<std::string, std::uint64_t>> counters;  // summed over positions
};

// Runs the bench with `config`, printing one line per position and the totals to `out`.
BenchResult runBench(int depth, const SearchConfig& config, std::ostream& out);

// Command line entry: args are what follows "bench". Returns the process exit code.
int benchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace outpost::uci
