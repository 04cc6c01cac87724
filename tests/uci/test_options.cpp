#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "search/levels.h"
#include "search/search_params.h"
#include "uci/options.h"

using namespace outpost::uci;
using outpost::kDefaultSearchParams;
using outpost::kTunableSearch;

TEST_CASE("uci announces the standard options and one check per technique", "[uci][options]") {
    UciSettings settings;
    const auto lines = optionLines(settings);
    const auto has = [&](const std::string& text) {
        return std::find(lines.begin(), lines.end(), text) != lines.end();
    };
    CHECK(has("option name Hash type spin default 16 min 1 max 32768"));
    CHECK(has("option name Threads type spin default 1 min 1 max 256"));
    CHECK(has("option name MultiPV type spin default 1 min 1 max 256"));
    CHECK(has("option name Clear Hash type button"));
    CHECK(has("option name Ponder type check default false"));
    CHECK(has("option name Level type spin default 0 min 0 max 8"));
    CHECK(has("option name UCI_LimitStrength type check default false"));
    CHECK(has("option name UCI_Elo type spin default " + std::to_string(outpost::search::kMinElo) +
              " min " + std::to_string(outpost::search::kMinElo) + " max " +
              std::to_string(outpost::search::kMaxElo)));
    for (const auto& [name, on] : settings.engine.config.list()) {
        CHECK(has("option name " + name + " type check default " + (on ? "true" : "false")));
    }
}

TEST_CASE("setoption changes typed settings", "[uci][options]") {
    UciSettings settings;
    std::string name, value;
    REQUIRE(parseSetOption("name Move Overhead value 75", name, value));
    CHECK(name == "Move Overhead");
    CHECK(value == "75");
    CHECK(applyOption(name, value, settings) == OptionResult::Changed);
    CHECK(settings.engine.moveOverheadMs == 75);

    CHECK(applyOption("hash", "64", settings) == OptionResult::Changed);
    CHECK(settings.engine.hashMb == 64);
    CHECK(applyOption("Hash", "0", settings) == OptionResult::BadValue);
    CHECK(applyOption("Threads", "x", settings) == OptionResult::BadValue);
    CHECK(applyOption("Level", "3", settings) == OptionResult::Changed);
    CHECK(settings.level == 3);
    CHECK(applyOption("Level", "9", settings) == OptionResult::BadValue);
    CHECK(applyOption("Clear Hash", "", settings) == OptionResult::ClearHash);
    CHECK(applyOption("No Such Thing", "1", settings) == OptionResult::UnknownName);

    CHECK(applyOption("nullMove", "false", settings) == OptionResult::Changed);
    CHECK(settings.engine.config.nullMove == false);
    CHECK(applyOption("NULLMOVE", "true", settings) == OptionResult::Changed);
    CHECK(settings.engine.config.nullMove == true);
    CHECK(applyOption("nullMove", "maybe", settings) == OptionResult::BadValue);
}

TEST_CASE("UCI_LimitStrength with UCI_Elo picks a playing level", "[uci][options]") {
    UciSettings settings;
    CHECK(effectiveLevel(settings) == 0);  // off by default: full strength
    using outpost::search::kMaxElo;
    using outpost::search::kMinElo;
    using outpost::search::levelElo;
    CHECK(applyOption("UCI_Elo", std::to_string(kMinElo - 1), settings) == OptionResult::BadValue);
    CHECK(applyOption("UCI_Elo", std::to_string(kMaxElo + 1), settings) == OptionResult::BadValue);
    CHECK(applyOption("UCI_LimitStrength", "yes", settings) == OptionResult::BadValue);
    const int nearLevel2 = levelElo(2) - 10;  // nearer level 2's rating than level 1's
    CHECK(applyOption("UCI_Elo", std::to_string(nearLevel2), settings) == OptionResult::Changed);
    CHECK(settings.elo == nearLevel2);
    CHECK(effectiveLevel(settings) == 0);  // an Elo alone does not limit anything

    CHECK(applyOption("uci_limitstrength", "true", settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 2);
    CHECK(applyOption("Level", "7", settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 2);  // the Elo takes precedence while it is on
    CHECK(applyOption("UCI_Elo", std::to_string(kMinElo), settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 1);
    CHECK(applyOption("UCI_Elo", std::to_string(kMaxElo), settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 8);
    CHECK(applyOption("UCI_LimitStrength", "false", settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 7);  // back to the Level option
}

TEST_CASE("Every level is reachable through UCI_Elo, in order", "[uci][options]") {
    using namespace outpost::search;
    int previous = 0;
    for (int elo = kMinElo; elo <= kMaxElo; elo += 10) {
        const int level = levelForElo(elo);
        CHECK(level >= previous);  // a higher Elo never gives a weaker level
        previous = level;
    }
    for (int level = kMinLevel; level <= kMaxLevel; ++level) {
        INFO("level " << level);
        CHECK(levelForElo(levelElo(level)) == level);
        if (level > kMinLevel) CHECK(levelElo(level) > levelElo(level - 1));
    }
    for (int level = kMinLevel; level < kMaxLevel; ++level) {
        INFO("between levels " << level << " and " << level + 1);
        const int low = levelElo(level), high = levelElo(level + 1);
        // Halfway (rounded down) goes to the weaker level, one above it to the stronger.
        CHECK(levelForElo((low + high) / 2) == level);
        CHECK(levelForElo((low + high) / 2 + 1) == level + 1);
    }
    CHECK(levelForElo(kMinElo - 500) == kMinLevel);
    CHECK(levelForElo(kMaxElo + 500) == kMaxLevel);
}

// A tunable build (-DOUTPOST_TUNABLE=ON) announces the search's margins; a release build does not.
TEST_CASE("Search parameters are UCI options only in a tunable build", "[search][params]") {
    UciSettings settings;
    const auto lines = optionLines(settings);
    const bool listed = std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.starts_with("option name FutilityMargin type spin default 300 min 100 max 500");
    });
    CHECK(listed == kTunableSearch);
    const auto result = applyOption("FutilityMargin", "250", settings);
    if constexpr (kTunableSearch) {
        CHECK(result == OptionResult::Changed);
        CHECK(settings.engine.config.params.futilityMargin == 250);
        CHECK(applyOption("FutilityMargin", "99", settings) == OptionResult::BadValue);
    } else {
        CHECK(result == OptionResult::UnknownName);
        CHECK(settings.engine.config.params == kDefaultSearchParams);
    }
}
