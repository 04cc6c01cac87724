#include "uci/go_command.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <sstream>
#include <vector>

namespace outpost::uci {

namespace {

bool isGoKeyword(const std::string& token) {
    static const char* const kKeywords[] = {
        "searchmoves", "ponder", "wtime", "btime",    "winc",     "binc",  "movestogo",
        "depth",       "nodes",  "mate",  "movetime", "infinite", "perft",
    };
    for (const char* keyword : kKeywords) {
        if (token == keyword) return true;
    }
    return false;
}

template <typename Int>
bool parseInt(const std::string& text, Int& value) {
    const char* first = text.data();
    const char* last = first + text.size();
    auto [end, ec] = std::from_chars(first, last, value);
    return ec == std::errc() && end == last;
}

// A time in milliseconds: an integer, or a decimal number that some GUIs and scripts send
// ("4881.52"), read to the millisecond below it. Far beyond any clock, it is held at kMaxMillis.
constexpr double kMaxMillis = 1e15;
bool parseMillis(const std::string& text, std::int64_t& value) {
    if (parseInt(text, value)) return true;
    double decimal = 0;
    const char* first = text.data();
    const char* last = first + text.size();
    auto [end, ec] = std::from_chars(first, last, decimal, std::chars_format::fixed);
    if (ec != std::errc() || end != last || !(decimal == decimal)) return false;  // not NaN
    value = static_cast<std::int64_t>(std::clamp(decimal, -kMaxMillis, kMaxMillis));
    return true;
}

// An unknown token is named in its warning by this many characters at most.
constexpr std::size_t kMaxShownToken = 40;

}  // namespace

GoCommand parseGo(std::string_view args, std::vector<std::string>& warnings) {
    std::istringstream stream{std::string(args)};
    std::vector<std::string> tokens;
    for (std::string token; stream >> token;) tokens.push_back(token);

    GoCommand command;
    SearchLimits& limits = command.limits;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& key = tokens[i];
        // The value after `key`, taken when it reads as a number; otherwise the parameter is
        // ignored (the token after it is read as the next parameter).
        // `parse` reads it (parseInt, or parseMillis for a time).
        auto next = [&](auto& value, auto parse) -> bool {
            if (i + 1 >= tokens.size() || !parse(tokens[i + 1], value)) {
                warnings.push_back("go " + key + " needs a number: ignored");
                return false;
            }
            ++i;
            return true;
        };
        std::int64_t number = 0;
        std::uint64_t count = 0;
        int small = 0;
        if (key == "infinite") {
            limits.infinite = true;
        } else if (key == "ponder") {
            limits.ponder = true;
        } else if (key == "searchmoves") {
            while (i + 1 < tokens.size() && !isGoKeyword(tokens[i + 1])) {
                limits.searchmoves.push_back(tokens[++i]);
            }
        } else if (key == "wtime" || key == "btime" || key == "winc" || key == "binc" ||
                   key == "movetime") {
            if (!next(number, parseMillis)) continue;
            // Some GUIs send negative clocks when the engine is already behind; treat as zero.
            if (number < 0) number = 0;
            if (key == "wtime") limits.wtimeMs = number;
            if (key == "btime") limits.btimeMs = number;
            if (key == "winc") limits.wincMs = number;
            if (key == "binc") limits.bincMs = number;
            if (key == "movetime") limits.movetimeMs = number;
        } else if (key == "movestogo" || key == "depth" || key == "mate" || key == "perft") {
            if (!next(small, parseInt<int>)) continue;
            if (small < 0) {
                warnings.push_back("go " + key + " must not be negative: ignored");
                continue;
            }
            // movestogo 0 (sent by some GUIs in sudden death; UCI sends it only above 0) is no
            // control ahead: read as 1 it made each move the last before a control, spending up
            // to 85 % of the clock on it.
            if (key == "movestogo" && small > 0) limits.movestogo = small;
            if (key == "depth") limits.depth = small;
            if (key == "mate") limits.mate = small;
            if (key == "perft") command.perftDepth = small;
        } else if (key == "nodes") {
            if (!next(count, parseInt<std::uint64_t>)) continue;
            limits.nodes = count;
        } else {
            warnings.push_back("unknown go parameter '" + key.substr(0, kMaxShownToken) +
                               "': ignored");
        }
    }
    return command;
}

}  // namespace outpost::uci
