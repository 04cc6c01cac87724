// The `outpost` program's command line: no arguments runs the UCI loop on stdin/stdout;
// `outpost bench [depth] [switch=bool ...]` and `outpost perft N [FEN]` run once and exit.
#pragma once

namespace outpost::uci {

int runCommandLine(int argc, char** argv);

}  // namespace outpost::uci
