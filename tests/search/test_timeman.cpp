#include <catch2/catch.hpp>

#include "search/timeman.h"

using namespace outpost;
using namespace outpost::search;

TEST_CASE("No clock means no time bounds", "[time]") {
    SearchLimits l;
    l.depth = 5;
    REQUIRE_FALSE(computeTimeBounds(l, true, 10).has_value());
}

TEST_CASE("movetime is used as both bounds", "[time]") {
    SearchLimits l;
    l.movetimeMs = 500;
    const auto b = computeTimeBounds(l, false, 10);
    REQUIRE(b);
    REQUIRE(b->softMs == 500);
    REQUIRE(b->hardMs == 500);
}

TEST_CASE("Clock bounds: soft <= hard, both well inside the clock minus overhead", "[time]") {
    for (std::int64_t clock : {10LL, 50LL, 200LL, 1000LL, 10000LL, 60000LL, 3600000LL}) {
        for (std::int64_t inc : {0LL, 10LL, 100LL, 1000LL}) {
            for (int overhead : {0, 10, 50}) {
                SearchLimits l;
                l.wtimeMs = clock;
                l.wincMs = inc;
                l.btimeMs = 1;  // not ours
                const auto b = computeTimeBounds(l, true, overhead);
                REQUIRE(b);
                INFO("clock " << clock << " inc " << inc << " overhead " << overhead);
                REQUIRE(b->softMs >= 1);
                REQUIRE(b->softMs <= b->hardMs);
                if (clock > overhead + 2) {
                    REQUIRE(b->hardMs <= (clock - overhead) / 2);
                }
            }
        }
    }
}

TEST_CASE("1+0.01 gives a small but useful budget", "[time]") {
    SearchLimits l;
    l.btimeMs = 1000;
    l.bincMs = 10;
    const auto b = computeTimeBounds(l, false, 10);
    REQUIRE(b);
    REQUIRE(b->softMs >= 20);
    // The plan: a share of the clock (kDefaultMovesToGo) and most of the increment, at most a
    // tenth of the clock on one move's soft bound.
    REQUIRE(b->softMs <= (1000 - 10) / kDefaultMovesToGo + 10);
    REQUIRE(b->softMs <= 100);
    REQUIRE(b->hardMs <= 400);
}

TEST_CASE("movestogo spreads the clock over the remaining moves", "[time]") {
    SearchLimits l;
    l.wtimeMs = 60000;
    l.movestogo = 10;
    const auto b = computeTimeBounds(l, true, 0);
    REQUIRE(b);
    REQUIRE(b->softMs == 6000);
    l.movestogo = 1;
    const auto last = computeTimeBounds(l, true, 0);
    REQUIRE(last->hardMs > 40000);
    REQUIRE(last->hardMs < 60000);
}

TEST_CASE("Stability scaling stays within the hard bound", "[time]") {
    const TimeBounds b{100, 300};
    REQUIRE(scaledSoftBound(b, 0, 0) == 100);
    REQUIRE(scaledSoftBound(b, 5, 0) < 100);
    REQUIRE(scaledSoftBound(b, 0, 4) == 200);
    REQUIRE(scaledSoftBound(TimeBounds{100, 150}, 0, 4) == 150);
}

TEST_CASE("Seen latency comes off the clock and out of the increment", "[time]") {
    SearchLimits l;
    l.wtimeMs = 1000;
    l.wincMs = 10;
    const auto plain = computeTimeBounds(l, true, 10);
    const auto slow = computeTimeBounds(l, true, 10, 10);
    REQUIRE(slow->softMs < plain->softMs);
    REQUIRE(slow->softMs ==
            (1000 - 10 - 10) / kDefaultMovesToGo);  // the increment is spent on the latency
    const auto huge = computeTimeBounds(l, true, 10, 5000);
    REQUIRE(huge->softMs >= 1);
    REQUIRE(huge->hardMs >= huge->softMs);
}

TEST_CASE("maxTimeMs alone is a deadline: both bounds, no plan", "[time]") {
    SearchLimits l;
    l.depth = 64;
    l.maxTimeMs = 250;
    const auto b = computeTimeBounds(l, true, 10);
    REQUIRE(b);
    REQUIRE(b->softMs == 250);
    REQUIRE(b->hardMs == 250);
    REQUIRE(b->plan == TimeBounds::Plan::Deadline);
}

TEST_CASE("maxTimeMs caps movetime and the clock's bounds, and changes nothing below it",
          "[time]") {
    SearchLimits movetime;
    movetime.movetimeMs = 5000;
    movetime.maxTimeMs = 300;
    auto b = computeTimeBounds(movetime, true, 0);
    REQUIRE(b);
    REQUIRE(b->hardMs == 300);
    REQUIRE(b->softMs == 300);
    REQUIRE(b->plan == TimeBounds::Plan::Exact);

    SearchLimits clock;
    clock.wtimeMs = 3'600'000;
    clock.btimeMs = 3'600'000;
    const auto uncapped = computeTimeBounds(clock, true, 10);
    REQUIRE(uncapped);
    REQUIRE(uncapped->hardMs > 1000);
    clock.maxTimeMs = 1000;
    b = computeTimeBounds(clock, true, 10);
    REQUIRE(b);
    REQUIRE(b->hardMs == 1000);
    REQUIRE(b->softMs <= 1000);
    REQUIRE(b->plan == TimeBounds::Plan::Clock);

    clock.maxTimeMs = uncapped->hardMs + 1;  // above the plan: the plan stands
    b = computeTimeBounds(clock, true, 10);
    REQUIRE(b->hardMs == uncapped->hardMs);
    REQUIRE(b->softMs == uncapped->softMs);
}

TEST_CASE("Falling eval: a held score changes nothing, a fall earns time, a rise saves some",
          "[time]") {
    REQUIRE(fallingEvalFactor(0, 0) == Approx(1.0));
    REQUIRE(fallingEvalFactor(std::nullopt, 0) == Approx(1.0));
    REQUIRE(fallingEvalFactor(50, 0) > 1.0);
    REQUIRE(fallingEvalFactor(0, 50) > 1.0);
    REQUIRE(fallingEvalFactor(-50, 0) < 1.0);
    // The fall since the last move weighs more than the same fall over the iterations.
    REQUIRE(fallingEvalFactor(50, 0) > fallingEvalFactor(0, 50));
    // Without a last move only the iterations count.
    REQUIRE(fallingEvalFactor(std::nullopt, 40) == Approx(fallingEvalFactor(0, 40)));
    // Monotone in each drop, and bounded: a mate score lost is a large fall, not a huge factor.
    double previous = fallingEvalFactor(-1000, -1000);
    for (int drop = -1000; drop <= 1000; drop += 10) {
        const double f = fallingEvalFactor(drop, drop);
        REQUIRE(f >= previous);
        REQUIRE(f >= 0.8);
        REQUIRE(f <= 1.6);
        previous = f;
    }
    REQUIRE(fallingEvalFactor(30000, 30000) == Approx(1.6));
    REQUIRE(fallingEvalFactor(-30000, -30000) == Approx(0.8));
}
