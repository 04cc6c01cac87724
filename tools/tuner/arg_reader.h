// Command-line reading shared by outpost-tuner and outpost-datagen: both take "--flag value"
// pairs, and a flag whose value is missing prints the tool's usage and exits with status 2.
#pragma once

#include <cstdlib>
#include <string>

namespace outpost::tools {

class ArgReader {
  public:
    using Usage = void (*)();

    ArgReader(int argc, char** argv, Usage usage) : argc_(argc), argv_(argv), usage_(usage) {}

    bool done() const { return index_ >= argc_; }

    // The next word of the command line (a flag or a positional argument).
    std::string take() { return argv_[index_++]; }

    // The value that follows the flag just taken; usage and exit when the command line ends.
    std::string value() {
        if (done()) {
            usage_();
            std::exit(kUsageExitCode);
        }
        return take();
    }

  private:
    static constexpr int kUsageExitCode = 2;

    int argc_;
    char** argv_;
    Usage usage_;
    int index_ = 1;  // argv[0] is the program
};

}  // namespace outpost::tools
