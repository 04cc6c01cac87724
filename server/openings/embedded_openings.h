// The opening tables of server/openings/data, embedded at build time (embed_openings.cmake), so the
// server needs no data files beside it.
#pragma once

#include <span>

#include "openings/opening_table.h"

namespace outpost::server {

// a.tsv .. e.tsv, in that order, as they are in the repository.
std::span<const OpeningTsv> embeddedOpeningTables();

}  // namespace outpost::server
