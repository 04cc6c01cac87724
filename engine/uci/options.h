// The UCI options: what `uci` announces and how `setoption` changes the settings. Each search
// technique of SearchConfig is a check option named after its switch, so a tournament runner can
// turn any one off (`option.nullMove=false`) to measure what it is worth.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine.h"
#include "search/levels.h"

namespace outpost::uci {

inline constexpr int kMinHashMb = 1;
inline constexpr int kMaxHashMb = 32768;
inline constexpr int kMaxThreads = 256;
inline constexpr int kMaxMultiPv = 256;
inline constexpr int kMaxMoveOverheadMs = 5000;

// Everything setoption can change. The engine part is handed to Engine::setOptions before a search.
struct UciSettings {
    EngineOptions engine;
    int multiPv = 1;
    int level = 0;               // Level: 1..8 for people, 0 = full strength
    bool limitStrength = false;  // UCI_LimitStrength: play at UCI_Elo (through the levels)
    int elo = search::kMinElo;   // UCI_Elo
    bool ponder = false;
};

// The playing level a search gets: UCI_LimitStrength with UCI_Elo, when on, takes precedence over
// the Level option (0 = full strength).
int effectiveLevel(const UciSettings& settings);

enum class OptionResult {
    Changed,    // a setting changed (engine options may need applying)
    ClearHash,  // the Clear Hash button
    UnknownName,
    BadValue,
};

// The `option name ...` lines for the `uci` answer, with defaults from `settings`.
std::vector<std::string> optionLines(const UciSettings& settings);

// Applies one setoption. Names are matched case-insensitively, as the protocol asks.
OptionResult applyOption(std::string_view name, std::string_view value, UciSettings& settings);

// Sets one of a tunable build's search margins (search/search_params.h) by its UCI name, matched
// case-insensitively: Changed, BadValue (out of its range) or UnknownName (also for every name in
// a release build, which has none). Used by applyOption and by `outpost bench NAME=N`.
OptionResult applySearchParam(std::string_view name, std::string_view value, SearchConfig& config);

// Splits the text after "setoption" into name and value ("name Move Overhead value 30").
bool parseSetOption(std::string_view args, std::string& name, std::string& value);

}  // namespace outpost::uci
