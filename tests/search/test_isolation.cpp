// What a search's result may depend on: its request, not what the engine searched before it
// (forgetSearches, seeded levels) — the engine side of the server's isolation between requests.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "engine.h"
#include "search/levels.h"

using namespace outpost;

namespace {

constexpr const char* kKiwipete =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

SearchRequest depthRequest(const std::string& fen, int depth) {
    SearchRequest request;
    request.fen = fen;
    request.limits.depth = depth;
    return request;
}

// Searches with other options and positions, to leave histories, killers and table entries.
void otherTraffic(Engine& engine) {
    SearchRequest odd = depthRequest(kKiwipete, 6);
    SearchConfig config;
    config.aggressiveFutility = true;
    config.twoSidedQuiescence = true;
    config.network = true;
    odd.config = config;
    engine.run(odd);
    engine.run(depthRequest("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 8));
}

}  // namespace

TEST_CASE("After forgetSearches a depth-limited search repeats a fresh engine's result",
          "[search][isolation]") {
    const SearchRequest request = depthRequest(kKiwipete, 6);
    Engine fresh;
    const SearchResult expected = fresh.run(request);

    Engine used;
    otherTraffic(used);
    // Without forgetting, the earlier searches' table and histories change the tree searched.
    const SearchResult influenced = used.run(request);
    CHECK(influenced.info.nodes != expected.info.nodes);

    otherTraffic(used);
    used.forgetSearches();
    const SearchResult again = used.run(request);
    REQUIRE(again.bestmove == expected.bestmove);
    REQUIRE(again.info.pv == expected.info.pv);
    REQUIRE(again.info.score.value == expected.info.score.value);
    REQUIRE(again.info.nodes == expected.info.nodes);
}

TEST_CASE("A seeded level choice depends on the seed, not on earlier level searches",
          "[search][isolation][levels]") {
    SearchRequest request;
    request.moves = {"e2e4", "e7e5"};
    request.level = 1;

    std::set<std::string> chosen;
    for (std::uint64_t game = 0; game < 16; ++game) {
        request.seed = search::levelSeed(std::to_string(game), request.moves.size());
        Engine fresh;
        const std::string move = fresh.run(request).bestmove;
        chosen.insert(move);

        // Another engine that already played level moves (its own sequence advanced) picks the
        // same move for the same seed.
        Engine used;
        SearchRequest unseeded = request;
        unseeded.seed.reset();
        for (int i = 0; i < 3; ++i) used.run(unseeded);
        used.forgetSearches();
        REQUIRE(used.run(request).bestmove == move);
    }
    // The seed does choose: different games do not all get the same move.
    REQUIRE(chosen.size() > 1);
}

TEST_CASE("Level seeds differ by game and by ply and repeat for the same pair",
          "[search][levels]") {
    REQUIRE(search::levelSeed("abc", 4) == search::levelSeed("abc", 4));
    REQUIRE(search::levelSeed("abc", 4) != search::levelSeed("abc", 5));
    REQUIRE(search::levelSeed("abc", 4) != search::levelSeed("abd", 4));
    REQUIRE(search::levelSeed("", 0) != search::levelSeed("", 1));
}

TEST_CASE("Switching the evaluation by setOptions empties the engine's own table",
          "[search][isolation]") {
    // A 1 MB table and depth 8, so the sampled entries (the table's first 1000) hold some of
    // this search with room to spare (about 70 per mille with net 13): at 16 MB and depth 6,
    // net 13's few thousand nodes left the sample empty.
    EngineOptions small;
    small.hashMb = 1;
    Engine engine(small);  // the network by default
    engine.run(depthRequest(kKiwipete, 8));
    REQUIRE(engine.hashfull() > 0);

    // The same evaluation again keeps what the table knows.
    EngineOptions same = engine.options();
    engine.setOptions(same);
    CHECK(engine.hashfull() > 0);

    // The other evaluation: the scores and static evals stored were the network's.
    EngineOptions other = engine.options();
    other.config.network = !other.config.network;
    engine.setOptions(other);
    CHECK(engine.hashfull() == 0);
}

TEST_CASE("A search with the other evaluation repeats a fresh engine's result",
          "[search][isolation]") {
    SearchConfig handCrafted;
    handCrafted.network = false;
    SearchRequest request = depthRequest(kKiwipete, 7);
    request.config = handCrafted;

    Engine fresh;
    const SearchResult expected = fresh.run(request);

    // An engine that searched the same position with the network first: without forgetting,
    // its table would answer the hand-crafted search with the network's scores.
    Engine used;
    used.run(depthRequest(kKiwipete, 7));
    const SearchResult got = used.run(request);
    CHECK(got.info.nodes == expected.info.nodes);
    CHECK(got.bestmove == expected.bestmove);
    CHECK(got.info.score.value == expected.info.score.value);

    // And back to the network, by setOptions this time.
    Engine fresh2;
    const SearchResult expectedNet = fresh2.run(depthRequest(kKiwipete, 7));
    EngineOptions hce = used.options();
    hce.config.network = false;
    used.setOptions(hce);
    used.run(depthRequest(kKiwipete, 7));
    EngineOptions net = used.options();
    net.config.network = true;
    used.setOptions(net);
    const SearchResult gotNet = used.run(depthRequest(kKiwipete, 7));
    CHECK(gotNet.info.nodes == expectedNet.info.nodes);
}
