#include <algorithm>
#include <catch2/catch.hpp>

#include "uci/options.h"

using namespace outpost::uci;

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
    CHECK(has("option name UCI_Elo type spin default 800 min 800 max 2800"));
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
    CHECK(applyOption("UCI_Elo", "799", settings) == OptionResult::BadValue);
    CHECK(applyOption("UCI_Elo", "2801", settings) == OptionResult::BadValue);
    CHECK(applyOption("UCI_LimitStrength", "yes", settings) == OptionResult::BadValue);
    CHECK(applyOption("UCI_Elo", "1000", settings) == OptionResult::Changed);
    CHECK(settings.elo == 1000);
    CHECK(effectiveLevel(settings) == 0);  // an Elo alone does not limit anything

    CHECK(applyOption("uci_limitstrength", "true", settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 2);  // 1000 is nearer level 2 (950) than level 1 (800)
    CHECK(applyOption("Level", "7", settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 2);  // the Elo takes precedence while it is on
    CHECK(applyOption("UCI_Elo", "800", settings) == OptionResult::Changed);
    CHECK(effectiveLevel(settings) == 1);
    CHECK(applyOption("UCI_Elo", "2800", settings) == OptionResult::Changed);
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
    CHECK(levelForElo(875) == 1);  // halfway between levels 1 and 2: the weaker one
    CHECK(levelForElo(876) == 2);
    CHECK(levelForElo(2605) == 7);
    CHECK(levelForElo(2606) == 8);
    CHECK(levelForElo(kMinElo - 500) == kMinLevel);
    CHECK(levelForElo(kMaxElo + 500) == kMaxLevel);
}
