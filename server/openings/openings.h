// The server's opening table and the `opening` field of the API's objects (games, analyses,
// reviews, the PGN's ECO and Opening tags).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "openings/opening_table.h"

namespace outpost::server {

// The embedded lichess-org/chess-openings tables, built on first use (the server context asks for
// it at start, so no request pays for it) and never changed after: shared read-only by every
// thread. Its contents are fixed at build time, like the OpenAPI document.
const OpeningTable& standardOpenings();

// {"eco": "C50", "name": "Italian Game"}
nlohmann::json openingJson(const Opening& opening);

// The opening a game from `initialFen` (empty: the standard start) through the UCI `moves`
// reached, by the table's rule (OpeningTable::classify).
std::optional<Opening> openingOf(std::string_view initialFen, const std::vector<std::string>& moves,
                                 const OpeningTable& table = standardOpenings());

// Sets out["opening"] to that opening; leaves the field absent when none is named.
void addOpening(nlohmann::json& out, std::string_view initialFen,
                const std::vector<std::string>& moves,
                const OpeningTable& table = standardOpenings());

// The PGN tags of that opening: "[ECO \"C50\"]\n[Opening \"Italian Game\"]\n", or nothing.
std::string pgnOpeningTags(std::string_view initialFen, const std::vector<std::string>& moves,
                           const OpeningTable& table = standardOpenings());

}  // namespace outpost::server
