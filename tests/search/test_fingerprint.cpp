// The engine's fingerprint (search/fingerprint.h): stable for one engine, different when the
// search or the evaluation differs (here through a switch, as a code or network change would).
#include <catch2/catch.hpp>
#include <string>

#include "core/fnv.h"
#include "search/fingerprint.h"

using namespace outpost;

// The published FNV-1a 64 test vectors.
static_assert(fnv1a("") == 0xcbf29ce484222325ULL);
static_assert(fnv1a("a") == 0xaf63dc4c8601ec8cULL);
static_assert(fnv1a("bar", fnv1a("foo")) == fnv1a("foobar"));

TEST_CASE("fingerprint: sixteen hex digits, the same on every call and for the default engine",
          "[search][fingerprint]") {
    const std::string& first = engineFingerprint();
    REQUIRE(first.size() == 16);
    CHECK(first.find_first_not_of("0123456789abcdef") == std::string::npos);
    CHECK(engineFingerprint() == first);
    CHECK(&engineFingerprint() == &first);  // computed once
    CHECK(computeEngineFingerprint(SearchConfig{}) == first);
}

TEST_CASE("fingerprint: changes when the search or the evaluation changes",
          "[search][fingerprint]") {
    const std::string base = engineFingerprint();
    SearchConfig noNullMove;
    noNullMove.nullMove = false;
    CHECK(computeEngineFingerprint(noNullMove) != base);
    SearchConfig handCrafted;
    handCrafted.network = false;
    CHECK(computeEngineFingerprint(handCrafted) != base);
    SearchConfig noReductions;
    noReductions.lateMoveReductions = false;
    CHECK(computeEngineFingerprint(noReductions) != base);
}
