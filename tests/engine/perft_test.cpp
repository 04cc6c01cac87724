#include "core/perft.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <fstream>
#include <sstream>

#include "test_util.h"

using namespace outpost;
using outpost::test::fen;
using outpost::test::kStandardFens;

namespace {

struct SuiteEntry {
    std::string fen;
    std::vector<std::uint64_t> counts;  // counts[d - 1] = perft(d)
};

std::vector<SuiteEntry> loadSuite() {
    std::ifstream in(std::string(OUTPOST_ENGINE_TEST_DATA) + "/perft_suite.epd");
    REQUIRE(in.good());
    std::vector<SuiteEntry> suite;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        SuiteEntry e;
        std::getline(fields, e.fen, ';');
        std::string part;
        while (std::getline(fields, part, ';')) {
            std::istringstream p(part);
            std::string depthTag;
            std::uint64_t nodes = 0;
            p >> depthTag >> nodes;
            e.counts.push_back(nodes);
        }
        suite.push_back(e);
    }
    return suite;
}

// Node budget per position in the default run: cheap even under sanitizers.
constexpr std::uint64_t kFastSuiteNodes = 250'000;

}  // namespace

TEST_CASE("perft of the standard positions at fast depths", "[perft]") {
    // {position index, depth, count}
    const struct {
        int position;
        int depth;
        std::uint64_t nodes;
    } cases[] = {
        {0, 1, 20},    {0, 2, 400}, {0, 3, 8902}, {0, 4, 197281}, {1, 1, 48},    {1, 2, 2039},
        {1, 3, 97862}, {2, 1, 14},  {2, 2, 191},  {2, 3, 2812},   {2, 4, 43238}, {2, 5, 674624},
        {3, 1, 6},     {3, 2, 264}, {3, 3, 9467}, {3, 4, 422333}, {4, 1, 44},    {4, 2, 1486},
        {4, 3, 62379}, {5, 1, 46},  {5, 2, 2079}, {5, 3, 89890},
    };
    for (const auto& c : cases) {
        Position pos = fen(kStandardFens[c.position]);
        INFO(kStandardFens[c.position] << " depth " << c.depth);
        CHECK(perft(pos, c.depth) == c.nodes);
        CHECK(pos.toFen() == fen(kStandardFens[c.position]).toFen());
    }
}

TEST_CASE("perft of the standard positions at full depth", "[.slow][perft]") {
    const std::uint64_t expected[] = {119060324, 193690690, 178633661,
                                      706045033, 89941194,  164075551};
    const int depths[] = {6, 5, 7, 6, 5, 5};
    for (int i = 0; i < 6; ++i) {
        Position pos = fen(kStandardFens[i]);
        CHECK(perft(pos, depths[i]) == expected[i]);
    }
}

TEST_CASE("perft divide sums to perft", "[perft]") {
    Position pos = fen(kStandardFens[1]);
    std::uint64_t sum = 0;
    for (const auto& [move, nodes] : perftDivide(pos, 3)) sum += nodes;
    CHECK(sum == 97862);
    CHECK(perftDivide(pos, 1).size() == 48);
}

TEST_CASE("perft suite against Stockfish's counts", "[perft][suite]") {
    const auto suite = loadSuite();
    REQUIRE(suite.size() >= 100);
    for (const SuiteEntry& e : suite) {
        Position pos = fen(e.fen);
        for (std::size_t d = 1; d <= e.counts.size(); ++d) {
            if (d > 1 && e.counts[d - 1] > kFastSuiteNodes) break;
            INFO(e.fen << " depth " << d);
            CHECK(perft(pos, int(d)) == e.counts[d - 1]);
        }
    }
}

TEST_CASE("perft suite against Stockfish's counts, all depths", "[.slow][perft][suite]") {
    for (const SuiteEntry& e : loadSuite()) {
        Position pos = fen(e.fen);
        for (std::size_t d = 1; d <= e.counts.size(); ++d) {
            INFO(e.fen << " depth " << d);
            CHECK(perft(pos, int(d)) == e.counts[d - 1]);
        }
    }
}

namespace {

// The same position with colors swapped and the board mirrored top to bottom.
std::string mirrorFen(const std::string& text) {
    std::istringstream in(text);
    std::string board, side, castling, ep, half = "0", full = "1";
    in >> board >> side >> castling >> ep >> half >> full;
    std::vector<std::string> ranks;
    std::istringstream rs(board);
    for (std::string r; std::getline(rs, r, '/');) ranks.push_back(r);
    std::string mirrored;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
        if (!mirrored.empty()) mirrored += '/';
        for (char c : *it)
            mirrored += std::isalpha(static_cast<unsigned char>(c))
                            ? char(std::islower(static_cast<unsigned char>(c)) ? std::toupper(c)
                                                                               : std::tolower(c))
                            : c;
    }
    std::string rights;
    for (const char c : std::string("KQkq")) {
        const char swapped = std::islower(static_cast<unsigned char>(c)) ? char(std::toupper(c))
                                                                         : char(std::tolower(c));
        if (castling.find(swapped) != std::string::npos) rights += c;
    }
    if (rights.empty()) rights.push_back('-');
    if (ep != "-") ep[1] = char('1' + ('8' - ep[1]));
    // Appending piece by piece (GCC 12 warns falsely on long operator+ chains).
    std::string out = mirrored;
    out += side == "w" ? " b " : " w ";
    for (const std::string* part : {&rights, &ep, &half}) {
        out += *part;
        out += ' ';
    }
    out += full;
    return out;
}

}  // namespace

TEST_CASE("perft is color symmetric on the suite", "[perft][suite]") {
    CHECK(mirrorFen(test::kStandardFens[0]) ==
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    for (const SuiteEntry& e : loadSuite()) {
        Position pos = fen(mirrorFen(e.fen));
        for (std::size_t d = 1; d <= e.counts.size(); ++d) {
            if (d > 1 && e.counts[d - 1] > kFastSuiteNodes) break;
            INFO(e.fen << " mirrored, depth " << d);
            CHECK(perft(pos, int(d)) == e.counts[d - 1]);
        }
    }
}
