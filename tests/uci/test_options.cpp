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
