#include "uci/cli.h"

#include <charconv>
#include <iostream>
#include <string>
#include <vector>

#include "uci/bench.h"
#include "uci/position_tools.h"
#include "uci/uci_loop.h"

namespace outpost::uci {

namespace {

int perftCommand(const std::vector<std::string>& args) {
    int depth = 0;
    if (args.empty() ||
        std::from_chars(args[0].data(), args[0].data() + args[0].size(), depth).ec != std::errc() ||
        depth < 0) {
        std::cerr << "usage: outpost perft N [FEN]\n";
        return 2;
    }
    std::string fen;
    for (std::size_t i = 1; i < args.size(); ++i) fen += (fen.empty() ? "" : " ") + args[i];
    if (const std::string error = validatePosition(fen, {}); !error.empty()) {
        std::cerr << "perft: " << error << '\n';
        return 2;
    }
    std::cout << perftReport(fen, {}, depth) << std::endl;
    return 0;
}

}  // namespace

int runCommandLine(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty()) {
        const std::string command = args.front();
        args.erase(args.begin());
        if (command == "bench") return benchCommand(args, std::cout, std::cerr);
        if (command == "perft") return perftCommand(args);
        std::cerr << "usage: outpost [bench [depth] [switch=bool ...] | perft N [FEN]]\n";
        return 2;
    }
    UciLoop loop(std::cin, std::cout);
    loop.run();
    return 0;
}

}  // namespace outpost::uci
