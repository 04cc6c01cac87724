// Which backend a server process runs with, from its settings.
#include "store/store_selection.h"

#include <catch2/catch.hpp>

#include "test_support.h"

using namespace outpost::server;

TEST_CASE("Store selection: SQLite file by default, memory on request, Redis by URL",
          "[deploy][selection]") {
    outpost::test::TempDir dir;
    const std::string path = (dir.path() / "games.db").string();
    StoreSelection sqlite = selectGameStores({"", path, std::chrono::hours(1)});
    CHECK(sqlite.description == "sqlite:" + path);
    REQUIRE(sqlite.store->create(outpost::test::sampleGame("a")) == StoreStatus::Ok);
    CHECK(std::filesystem::exists(path));

    StoreSelection memory = selectGameStores({"", ":memory:", std::chrono::hours(1)});
    CHECK(memory.description == "memory");

    // Redis need not be up for the selection: operations report Unavailable until it is.
    StoreSelection redis = selectGameStores(
        {"redis://:secret@127.0.0.1:" + std::to_string(outpost::test::freeLoopbackPort()), "",
         std::chrono::hours(1)});
    CHECK(redis.description.rfind("redis:127.0.0.1:", 0) == 0);
    CHECK(redis.description.find("secret") == std::string::npos);
    CHECK(redis.store->get("a").status == StoreStatus::Unavailable);

    CHECK_THROWS(selectGameStores({"mysql://nope", "", std::chrono::hours(1)}));
    CHECK_THROWS(
        selectGameStores({"", (dir.path() / "missing" / "x.db").string(), std::chrono::hours(1)}));
}
