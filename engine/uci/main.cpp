// The outpost program: a UCI engine, plus the bench and perft commands.
#include "uci/cli.h"

int main(int argc, char** argv) {
    return outpost::uci::runCommandLine(argc, argv);
}
