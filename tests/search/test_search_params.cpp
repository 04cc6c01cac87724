// The search's tunable margins (search/search_params.h): every parameter has one spec with a
// unique name and a range around its default (tests/uci/test_options.cpp: the UCI options).
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "search/search_params.h"

using namespace outpost;

TEST_CASE("Every search parameter has a unique name and a range around its default",
          "[search][params]") {
    std::set<std::string_view> names;
    for (const SearchParamSpec& p : kSearchParamSpecs) {
        INFO(p.name);
        CHECK(names.insert(p.name).second);
        CHECK(std::count_if(kSearchParamSpecs.begin(), kSearchParamSpecs.end(),
                            [&](const SearchParamSpec& q) { return q.field == p.field; }) == 1);
        CHECK(p.min < p.max);
        CHECK(p.min <= kDefaultSearchParams.*p.field);
        CHECK(kDefaultSearchParams.*p.field <= p.max);
    }
}
