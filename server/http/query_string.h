// The query of a request target (`?a=1&b=x%20y`), decoded: one parser for every route that
// takes query parameters, so they agree on escapes, '+' and empty parameters.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace outpost::server {

// Undoes %XX escapes and '+' (a space in a query); nullopt when an escape is malformed.
std::optional<std::string> queryDecode(std::string_view text);

// The parameters of `target`'s query in order, names and values decoded (a parameter without
// '=' has an empty value; empty parameters, as in "a=1&&b=2", are skipped; a '#' fragment is
// ignored). nullopt when an escape is malformed.
using QueryParameters = std::vector<std::pair<std::string, std::string>>;
std::optional<QueryParameters> queryParameters(std::string_view target);

// `_`, the cache buster that browsers' libraries (jQuery's `cache: false`, and others) add to a
// GET (`?_=1700000000000`): every GET and HEAD of the API takes it, any number of times, and
// ignores it.
inline bool isCacheBuster(std::string_view name) {
    return name == "_";
}

}  // namespace outpost::server
