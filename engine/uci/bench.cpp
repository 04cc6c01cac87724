#include "uci/bench.h"

#include <charconv>
#include <chrono>
#include <iomanip>
#include <map>
#include <sstream>

#include "core/cpu.h"
#include "uci/options.h"

namespace outpost::uci {

namespace {

std::vector<std::string> splitMoves(const char* text) {
    std::istringstream stream{std::string(text)};
    std::vector<std::string> moves;
    for (std::string move; stream >> move;) moves.push_back(move);
    return moves;
}

}  // namespace

BenchResult runBench(int depth, const SearchConfig& config, std::ostream& out) {
    EngineOptions options;
    options.hashMb = kBenchHashMb;
    options.threads = 1;
    options.config = config;
    Engine engine(options);

    BenchResult total;
    std::map<std::string, std::uint64_t> counters;
    std::vector<std::string> counterOrder;
    const auto& positions = benchPositions();
    // Which code ran (core/cpu.h); first, so the node count stays the last line CI reads.
    out << "CPU paths: " << describeCpuChoice(cpuChoice()) << '\n';
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        // Each position starts from an empty table, so its count does not depend on the others.
        engine.clearHash();
        SearchRequest request;
        request.fen = positions[i].fen;
        request.moves = splitMoves(positions[i].moves);
        request.limits.depth = depth;
        const SearchResult result = engine.run(request);
        total.nodes += result.info.nodes;
        for (const auto& [name, count] : result.stats.counters) {
            if (!counters.count(name)) counterOrder.push_back(name);
            counters[name] += count;
        }
        out << "Position " << std::setw(2) << (i + 1) << '/' << positions.size() << ": bestmove "
            << result.bestmove << " nodes " << result.info.nodes << '\n';
    }
    total.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    for (const std::string& name : counterOrder) total.counters.emplace_back(name, counters[name]);

    const std::int64_t elapsed = total.timeMs > 0 ? total.timeMs : 1;
    out << "===========================\n";
    for (const auto& [name, count] : total.counters) {
        out << "Counter " << std::left << std::setw(28) << name << std::right << ": " << count
            << '\n';
    }
    out << "Total time (ms) : " << total.timeMs << '\n';
    out << "Nodes searched  : " << total.nodes << '\n';
    out << "Nodes/second    : " << total.nodes * 1000 / static_cast<std::uint64_t>(elapsed) << '\n';
    out.flush();
    return total;
}

int benchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    int depth = kDefaultBenchDepth;
    SearchConfig config;
    for (const std::string& arg : args) {
        const std::size_t equals = arg.find('=');
        if (equals != std::string::npos) {
            const std::string name = arg.substr(0, equals);
            const std::string value = arg.substr(equals + 1);
            // A tunable build's margins by name, so a change of one shows in nodes before a match.
            if (applySearchParam(name, value, config) == OptionResult::Changed) continue;
            if ((value != "true" && value != "false") || !config.set(name, value == "true")) {
                err << "bench: unknown switch or value '" << arg << "'\n";
                return 2;
            }
            continue;
        }
        auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), depth);
        if (ec != std::errc() || end != arg.data() + arg.size() || depth < 1) {
            err << "usage: outpost bench [depth] [switch=true|false ...]\n";
            return 2;
        }
    }
    runBench(depth, config, out);
    return 0;
}

}  // namespace outpost::uci
