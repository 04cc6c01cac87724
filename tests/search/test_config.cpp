#include <catch2/catch.hpp>

#include "engine.h"

using outpost::SearchConfig;

TEST_CASE("SearchConfig switches are set and read by name", "[config]") {
    SearchConfig c;
    REQUIRE(c.get("nullMove") == std::optional<bool>(true));
    REQUIRE(c.set("nullMove", false));
    REQUIRE_FALSE(c.nullMove);
    REQUIRE(c.get("nullMove") == std::optional<bool>(false));
    REQUIRE_FALSE(c.set("noSuchSwitch", true));
    REQUIRE_FALSE(c.get("noSuchSwitch").has_value());
}

TEST_CASE("SearchConfig lists every switch once, in declaration order", "[config]") {
    SearchConfig c;
    const auto all = c.list();
    REQUIRE(all.size() == 49);
    REQUIRE(all.front().first == "aspiration");
    REQUIRE(all.back().first == "network");
    for (const auto& [name, on] : all) {
        REQUIRE(c.get(name) == std::optional<bool>(on));
        SearchConfig flipped = c;
        REQUIRE(flipped.set(name, !on));
        REQUIRE(flipped.get(name) == std::optional<bool>(!on));
    }
}
