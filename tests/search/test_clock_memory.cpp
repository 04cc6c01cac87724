// The clock's unseen latency is remembered per game (search/clock_memory.h).
#include <catch2/catch.hpp>

#include "search/clock_memory.h"

using namespace outpost;
using namespace outpost::search;

namespace {
constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

ClockKey key(const std::string& game, std::size_t moves) {
    return ClockKey{game, kStart, moves, moves % 2 == 0 ? White : Black};
}
}  // namespace

TEST_CASE("Clock memory: the next move of the same game measures the lost time",
          "[search][clock]") {
    ClockMemory memory;
    REQUIRE(memory.unseenLatency(key("g1", 10), 60000, false) == 0);
    // 60 s on the clock, 1 s increment, 2 s searched: 59 s expected, 58.7 s read at the next move.
    memory.remember(key("g1", 10), true, 60000, 1000, 2000);
    REQUIRE(memory.unseenLatency(key("g1", 12), 58700, false) == 300);
    // Losses are capped, and a pondering search never continues.
    memory.remember(key("g1", 12), true, 58700, 1000, 0);
    REQUIRE(memory.unseenLatency(key("g1", 14), 10000, false) == ClockMemory::kMaxLatencyMs);
    memory.remember(key("g1", 14), true, 10000, 1000, 0);
    REQUIRE(memory.unseenLatency(key("g1", 16), 5000, true) == 0);
}

TEST_CASE("Clock memory: another game at the same FEN, move count and side is not a continuation",
          "[search][clock]") {
    ClockMemory memory;
    memory.remember(key("g1", 10), true, 60000, 1000, 2000);
    // Game g2 reached move 12 from the same start: g1's clock says nothing about it.
    REQUIRE(memory.unseenLatency(key("g2", 12), 50000, false) == 0);
    // ... and g1 is still remembered for its own next move.
    REQUIRE(memory.unseenLatency(key("g1", 12), 58700, false) == 300);
    // A move that gave no usable reading starts the game afresh.
    memory.remember(key("g1", 12), false, 0, 0, 0);
    REQUIRE(memory.unseenLatency(key("g1", 14), 50000, false) == 0);
}

TEST_CASE("Clock memory keeps a bounded number of games, forgetting the least recent",
          "[search][clock]") {
    ClockMemory memory;
    memory.remember(key("old", 10), true, 60000, 0, 0);
    for (std::size_t i = 0; i < ClockMemory::kMaxGames; ++i)
        memory.remember(key(std::to_string(i), 10), true, 60000, 0, 0);
    REQUIRE(memory.unseenLatency(key("old", 12), 59000, false) == 0);
    REQUIRE(memory.unseenLatency(key("5", 12), 59000, false) == 1000);
}

TEST_CASE("Clock memory: the last move's score is given back only to the game's next move",
          "[search][clock]") {
    ClockMemory memory;
    REQUIRE_FALSE(memory.lastScore(key("g1", 10)).has_value());
    memory.remember(key("g1", 10), true, 60000, 1000, 2000, 35);
    REQUIRE(memory.lastScore(key("g1", 12)) == 35);
    // Not to another game at the same point, not two moves later, not to the other side.
    REQUIRE_FALSE(memory.lastScore(key("g2", 12)).has_value());
    REQUIRE_FALSE(memory.lastScore(key("g1", 14)).has_value());
    REQUIRE_FALSE(memory.lastScore(ClockKey{"g1", kStart, 12, Black}).has_value());
    // A move without a usable reading forgets it; one remembered without a score has none.
    memory.remember(key("g1", 12), false, 0, 0, 0, 50);
    REQUIRE_FALSE(memory.lastScore(key("g1", 14)).has_value());
    memory.remember(key("g1", 14), true, 50000, 1000, 0);
    REQUIRE_FALSE(memory.lastScore(key("g1", 16)).has_value());
}
