#include "openings/openings.h"

#include "openings/embedded_openings.h"

namespace outpost::server {

const OpeningTable& standardOpenings() {
    // A constant derived from build-time data: initialised once (thread-safe), read-only after.
    static const OpeningTable table = OpeningTable::fromTsv(embeddedOpeningTables());
    return table;
}

nlohmann::json openingJson(const Opening& opening) {
    return {{"eco", opening.eco}, {"name", opening.name}};
}

std::optional<Opening> openingOf(std::string_view initialFen, const std::vector<std::string>& moves,
                                 const OpeningTable& table) {
    return table.classify(initialFen, moves);
}

void addOpening(nlohmann::json& out, std::string_view initialFen,
                const std::vector<std::string>& moves, const OpeningTable& table) {
    if (std::optional<Opening> opening = table.classify(initialFen, moves)) {
        out["opening"] = openingJson(*opening);
    }
}

namespace {

// A PGN tag value: quotes and backslashes escaped.
std::string pgnTagValue(std::string_view text) {
    std::string value;
    for (char c : text) {
        if (c == '"' || c == '\\') value += '\\';
        value += c;
    }
    return value;
}

}  // namespace

std::string pgnOpeningTags(std::string_view initialFen, const std::vector<std::string>& moves,
                           const OpeningTable& table) {
    const std::optional<Opening> opening = table.classify(initialFen, moves);
    if (!opening) return {};
    return "[ECO \"" + pgnTagValue(opening->eco) + "\"]\n[Opening \"" + pgnTagValue(opening->name) +
           "\"]\n";
}

}  // namespace outpost::server
