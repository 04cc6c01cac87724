#include "uci/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

namespace outpost::uci {

namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

bool parseSpin(std::string_view text, int min, int max, int& out) {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
        return false;
    }
    out = value;
    return true;
}

bool parseCheck(std::string_view text, bool& out) {
    if (equalsIgnoreCase(text, "true")) {
        out = true;
        return true;
    }
    if (equalsIgnoreCase(text, "false")) {
        out = false;
        return true;
    }
    return false;
}

std::string spin(std::string_view name, int value, int min, int max) {
    std::ostringstream line;
    line << "option name " << name << " type spin default " << value << " min " << min << " max "
         << max;
    return line.str();
}

std::string check(std::string_view name, bool value) {
    return "option name " + std::string(name) + " type check default " + (value ? "true" : "false");
}

}  // namespace

std::vector<std::string> optionLines(const UciSettings& settings) {
    const EngineOptions& engine = settings.engine;
    std::vector<std::string> lines = {
        spin("Hash", static_cast<int>(engine.hashMb), kMinHashMb, kMaxHashMb),
        spin("Threads", engine.threads, 1, kMaxThreads),
        spin("MultiPV", settings.multiPv, 1, kMaxMultiPv),
        spin("Move Overhead", engine.moveOverheadMs, 0, kMaxMoveOverheadMs),
        "option name Clear Hash type button",
        check("Ponder", settings.ponder),
        spin("Level", settings.level, 0, search::kMaxLevel),
        check("UCI_LimitStrength", settings.limitStrength),
        spin("UCI_Elo", settings.elo, search::kMinElo, search::kMaxElo),
    };
    for (const auto& [name, on] : engine.config.list()) lines.push_back(check(name, on));
    if constexpr (kTunableSearch) {
        for (const SearchParamSpec& p : kSearchParamSpecs)
            lines.push_back(spin(p.name, engine.config.params.*p.field, p.min, p.max));
    }
    return lines;
}

OptionResult applyOption(std::string_view name, std::string_view value, UciSettings& settings) {
    EngineOptions& engine = settings.engine;
    int number = 0;
    bool flag = false;
    if (equalsIgnoreCase(name, "Hash")) {
        if (!parseSpin(value, kMinHashMb, kMaxHashMb, number)) return OptionResult::BadValue;
        engine.hashMb = static_cast<std::size_t>(number);
        return OptionResult::Changed;
    }
    if (equalsIgnoreCase(name, "Threads")) {
        if (!parseSpin(value, 1, kMaxThreads, number)) return OptionResult::BadValue;
        engine.threads = number;
        return OptionResult::Changed;
    }
    if (equalsIgnoreCase(name, "MultiPV")) {
        if (!parseSpin(value, 1, kMaxMultiPv, number)) return OptionResult::BadValue;
        settings.multiPv = number;
        return OptionResult::Changed;
    }
    if (equalsIgnoreCase(name, "Move Overhead")) {
        if (!parseSpin(value, 0, kMaxMoveOverheadMs, number)) return OptionResult::BadValue;
        engine.moveOverheadMs = number;
        return OptionResult::Changed;
    }
    if (equalsIgnoreCase(name, "Clear Hash")) return OptionResult::ClearHash;
    if (equalsIgnoreCase(name, "Ponder")) {
        if (!parseCheck(value, flag)) return OptionResult::BadValue;
        settings.ponder = flag;
        return OptionResult::Changed;
    }
    if (equalsIgnoreCase(name, "Level")) {
        if (!parseSpin(value, 0, search::kMaxLevel, number)) return OptionResult::BadValue;
        settings.level = number;
        return OptionResult::Changed;
    }
    if (equalsIgnoreCase(name, "UCI_LimitStrength")) {
        if (!parseCheck(value, flag)) return OptionResult::BadValue;
        settings.limitStrength = flag;
        return OptionResult::Changed;
    }
    if (equalsIgnoreCase(name, "UCI_Elo")) {
        if (!parseSpin(value, search::kMinElo, search::kMaxElo, number))
            return OptionResult::BadValue;
        settings.elo = number;
        return OptionResult::Changed;
    }
    for (const auto& [switchName, on] : engine.config.list()) {
        if (!equalsIgnoreCase(name, switchName)) continue;
        if (!parseCheck(value, flag)) return OptionResult::BadValue;
        engine.config.set(switchName, flag);
        return OptionResult::Changed;
    }
    // A tunable build's margins (search/search_params.h); a release build does not know them.
    return applySearchParam(name, value, engine.config);
}

OptionResult applySearchParam(std::string_view name, std::string_view value, SearchConfig& config) {
    if constexpr (kTunableSearch) {
        for (const SearchParamSpec& p : kSearchParamSpecs) {
            if (!equalsIgnoreCase(name, p.name)) continue;
            int number = 0;
            if (!parseSpin(value, p.min, p.max, number)) return OptionResult::BadValue;
            config.params.*p.field = number;
            return OptionResult::Changed;
        }
    }
    (void)name, (void)value, (void)config;
    return OptionResult::UnknownName;
}

int effectiveLevel(const UciSettings& settings) {
    return settings.limitStrength ? search::levelForElo(settings.elo) : settings.level;
}

bool parseSetOption(std::string_view args, std::string& name, std::string& value) {
    std::istringstream stream{std::string(args)};
    std::string token;
    if (!(stream >> token) || token != "name") return false;
    name.clear();
    value.clear();
    bool inValue = false;
    while (stream >> token) {
        if (!inValue && token == "value") {
            inValue = true;
            continue;
        }
        std::string& target = inValue ? value : name;
        if (!target.empty()) target += ' ';
        target += token;
    }
    return !name.empty();
}

}  // namespace outpost::uci
