// The embedded store: persistence, retention, and no acknowledged update lost when the process is
// killed with SIGKILL. Its compare-and-set and racing writers are the store contract
// (store_contract_test.cpp).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <stdexcept>

#include "store/sqlite_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using outpost::test::sampleGame;
using outpost::test::TempDir;

namespace {

SqliteStoreOptions optionsFor(const TempDir& dir) {
    SqliteStoreOptions options;
    options.path = (dir.path() / "games.db").string();
    return options;
}

// Appends a move with compare-and-set, retrying on conflicts; returns the version written.
// Called from several threads, so it throws instead of using Catch's (single-threaded) macros.
std::uint64_t appendMove(GameStore& store, const std::string& id, const std::string& move) {
    for (;;) {
        StoreReadResult read = store.get(id);
        if (read.status != StoreStatus::Ok) throw std::runtime_error("get failed");
        GameRecord game = *read.game;
        game.moves.push_back(move);
        const std::uint64_t expected = game.version;
        game.version = expected + 1;
        StoreStatus status = store.update(game, expected);
        if (status == StoreStatus::Ok) return game.version;
        if (status != StoreStatus::VersionConflict) throw std::runtime_error("update failed");
    }
}

}  // namespace

TEST_CASE("SQLite store: the database is in WAL mode and survives reopening", "[deploy][sqlite]") {
    TempDir dir;
    {
        SqliteGameStore store(optionsFor(dir));
        REQUIRE(store.create(sampleGame("kept")) == StoreStatus::Ok);
        appendMove(store, "kept", "e2e4");
    }
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir.path() / "games.db").c_str(), &db) == SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &statement, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
    CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))) == "wal");
    sqlite3_finalize(statement);
    sqlite3_close(db);

    SqliteGameStore reopened(optionsFor(dir));
    StoreReadResult read = reopened.get("kept");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(read.game->moves == std::vector<std::string>{"e2e4"});
    CHECK(read.game->version == 2);
}

TEST_CASE("SQLite store: finished games expire after the retention, ongoing ones stay",
          "[deploy][sqlite]") {
    TempDir dir;
    SqliteStoreOptions options = optionsFor(dir);
    options.finishedRetention = std::chrono::hours(1);
    SqliteGameStore store(options);
    // sampleGame() was last changed in 2023: long past any retention.
    GameRecord finished = sampleGame("old-finished");
    finished.status = "resigned";
    finished.result = "0-1";
    REQUIRE(store.create(finished) == StoreStatus::Ok);
    REQUIRE(store.create(sampleGame("old-ongoing")) == StoreStatus::Ok);
    GameRecord recent = sampleGame("recent-finished");
    recent.status = "checkmate";
    recent.updatedAtMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    REQUIRE(store.create(recent) == StoreStatus::Ok);

    REQUIRE(store.pruneFinished() == 1);
    CHECK(store.get("old-finished").status == StoreStatus::NotFound);
    CHECK(store.get("old-ongoing").status == StoreStatus::Ok);
    CHECK(store.get("recent-finished").status == StoreStatus::Ok);
}

GameRecord oldFinishedGame(const std::string& id) {
    GameRecord game = sampleGame(id);  // last changed in 2023: long past any retention
    game.status = "resigned";
    game.result = "0-1";
    game.winner = "black";
    return game;
}

TEST_CASE("SQLite store: by default finished games are kept forever", "[deploy][sqlite]") {
    TempDir dir;
    SqliteStoreOptions options = optionsFor(dir);
    REQUIRE(options.finishedRetention == kKeepFinishedForever);
    options.pruneInterval = std::chrono::milliseconds(0);  // would prune at every write
    SqliteGameStore store(options);
    REQUIRE(store.create(oldFinishedGame("kept")) == StoreStatus::Ok);
    REQUIRE(store.create(sampleGame("other")) == StoreStatus::Ok);
    CHECK(store.pruneFinished() == 0);
    CHECK(store.get("kept").status == StoreStatus::Ok);
}

TEST_CASE("SQLite store: retention applies at open and on writes once the interval passed",
          "[deploy][sqlite]") {
    TempDir dir;
    {
        SqliteGameStore forever(optionsFor(dir));
        REQUIRE(forever.create(oldFinishedGame("pruned-at-open")) == StoreStatus::Ok);
    }
    SqliteStoreOptions options = optionsFor(dir);
    options.finishedRetention = std::chrono::hours(24);
    options.pruneInterval = std::chrono::milliseconds(0);
    SqliteGameStore store(options);
    CHECK(store.get("pruned-at-open").status == StoreStatus::NotFound);

    // A game finished long ago is removed by the next write, a create or an update.
    REQUIRE(store.create(oldFinishedGame("pruned-on-create")) == StoreStatus::Ok);
    REQUIRE(store.create(sampleGame("ongoing")) == StoreStatus::Ok);
    CHECK(store.get("pruned-on-create").status == StoreStatus::NotFound);
    REQUIRE(store.create(oldFinishedGame("pruned-on-update")) == StoreStatus::Ok);
    appendMove(store, "ongoing", "e2e4");
    CHECK(store.get("pruned-on-update").status == StoreStatus::NotFound);
    CHECK(store.get("ongoing").status == StoreStatus::Ok);  // ongoing games are never removed

    // With the default interval (an hour) a write does not prune again right away.
    SqliteStoreOptions hourly = options;
    hourly.pruneInterval = std::chrono::hours(1);
    SqliteGameStore later(hourly);
    REQUIRE(later.create(oldFinishedGame("until-next-hour")) == StoreStatus::Ok);
    REQUIRE(later.create(sampleGame("another")) == StoreStatus::Ok);
    CHECK(later.get("until-next-hour").status == StoreStatus::Ok);
    CHECK(later.pruneFinished() == 1);
}

TEST_CASE("SQLite store: kill -9 loses no acknowledged update", "[deploy][sqlite]") {
    TempDir dir;
    const SqliteStoreOptions options = optionsFor(dir);
    {
        SqliteGameStore store(options);
        REQUIRE(store.create(sampleGame("crash")) == StoreStatus::Ok);
    }
    int acks[2];
    REQUIRE(::pipe(acks) == 0);
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The "server": writes moves as fast as it can and acknowledges each one only after
        // update() returned, exactly as the server answers a client.
        ::close(acks[0]);
        try {
            SqliteGameStore store(options);
            for (std::uint32_t i = 0;; ++i) {
                std::uint64_t version = appendMove(store, "crash", std::to_string(i));
                if (::write(acks[1], &version, sizeof(version)) != sizeof(version)) ::_exit(1);
            }
        } catch (...) {
            ::_exit(2);
        }
    }
    ::close(acks[1]);
    constexpr std::uint64_t kAcksBeforeKill = 40;
    std::uint64_t lastAcked = 0;
    std::uint64_t version = 0;
    while (lastAcked < kAcksBeforeKill &&
           ::read(acks[0], &version, sizeof(version)) == sizeof(version)) {
        lastAcked = version;
    }
    ::kill(child, SIGKILL);
    // Acknowledgements already in the pipe were sent before the kill: they count too.
    while (::read(acks[0], &version, sizeof(version)) == sizeof(version)) lastAcked = version;
    ::close(acks[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(lastAcked >= kAcksBeforeKill);

    SqliteGameStore reopened(options);
    StoreReadResult read = reopened.get("crash");
    REQUIRE(read.status == StoreStatus::Ok);
    INFO("last acknowledged version " << lastAcked << ", stored " << read.game->version);
    REQUIRE(read.game->version >= lastAcked);
    REQUIRE(read.game->moves.size() == read.game->version - 1);
    // And the store still works after the crash.
    appendMove(reopened, "crash", "after");
}
