// Which backend a server process runs with, from its settings.
#include "store/store_selection.h"

#include <catch2/catch.hpp>
#include <fstream>

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
}

TEST_CASE("Store selection: missing folders are created, unusable paths are clear errors",
          "[deploy][selection]") {
    outpost::test::TempDir dir;
    const auto nested = dir.path() / "data" / "outpost" / "games.db";
    StoreSelection created = selectGameStores({"", nested.string(), kKeepFinishedForever});
    CHECK(created.description == "sqlite:" + nested.string());
    CHECK(std::filesystem::exists(nested));

    // A regular file where a folder should be, and a folder where the file should be.
    const auto blocker = dir.path() / "blocker";
    std::ofstream(blocker) << "not a folder";
    for (const auto& path : {blocker / "games.db", dir.path()}) {
        INFO(path);
        try {
            selectGameStores({"", path.string(), kKeepFinishedForever});
            FAIL("an unusable SQLite path was accepted");
        } catch (const std::runtime_error& error) {
            const std::string message = error.what();
            CHECK(message.find(path.string()) != std::string::npos);    // names the file
            CHECK(message.find("--sqlite-path") != std::string::npos);  // and what to change
        }
    }
}

TEST_CASE("Store selection: the server's default configuration is the SQLite file",
          "[deploy][selection]") {
    const ServerConfig defaults;
    const StoreSettings settings = storeSettingsFor(defaults);
    CHECK(settings.redisUrl.empty());
    CHECK(settings.dbPath == "outpost-games.db");  // in the working directory
    CHECK(settings.finishedRetention == kKeepFinishedForever);

    ServerConfig memory;
    memory.store = "memory";
    CHECK(selectGameStores(storeSettingsFor(memory)).description == "memory");
    ServerConfig redis;
    redis.store = "redis";
    redis.retentionDays = 2;
    CHECK(storeSettingsFor(redis).redisUrl == redis.redisUrl);
    CHECK(storeSettingsFor(redis).finishedRetention == std::chrono::hours(48));

    // Opened from the working directory, as the server does with no store flags at all.
    outpost::test::TempDir dir;
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    StoreSelection selection = selectGameStores(settings);
    const bool fileCreated = std::filesystem::exists(dir.path() / "outpost-games.db");
    std::filesystem::current_path(previous);
    CHECK(selection.description == "sqlite:outpost-games.db");
    CHECK(fileCreated);
    CHECK(selection.store->create(outpost::test::sampleGame("default")) == StoreStatus::Ok);
}
