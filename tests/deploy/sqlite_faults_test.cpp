// Issue 14, faults: the SQLite file's disk fills up, another process holds its write lock, its
// folder is read-only at start. Each gives a clear error (503 store_unavailable per request, or
// a message at start), leaves the file intact (PRAGMA integrity_check) with only what was
// acknowledged, and the server is ready again by itself once the cause is gone. The tests that
// need a file system of their own (tmpfs, as root) skip with a message where mount is refused.
#include <sqlite3.h>
#include <sys/mount.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "fake_searcher.h"
#include "server.h"
#include "store/sqlite_game_store.h"
#include "store/store_selection.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using namespace std::chrono_literals;
using Verb = boost::beast::http::verb;
using outpost::test::eventually;
using outpost::test::TempDir;

namespace {

// A writer waiting for another's lock gives up after this long (the default is 5 s).
constexpr auto kBusyTimeout = 200ms;
// The size of the small file system that the disk-full test fills.
constexpr const char* kSmallFsOptions = "size=2m";
constexpr std::size_t kFillerChunk = 64 * 1024;

// A tmpfs of its own mounted on a folder (needs root, or CAP_SYS_ADMIN); unmounted at the end.
class SmallFileSystem {
  public:
    SmallFileSystem() : folder_(dir_.path() / "fs") {
        std::filesystem::create_directory(folder_);
        mounted_ = ::mount("tmpfs", folder_.c_str(), "tmpfs", 0, kSmallFsOptions) == 0;
        if (!mounted_) why_ = std::strerror(errno);
    }
    ~SmallFileSystem() {
        if (mounted_) ::umount2(folder_.c_str(), MNT_DETACH);
    }
    SmallFileSystem(const SmallFileSystem&) = delete;
    SmallFileSystem& operator=(const SmallFileSystem&) = delete;

    bool mounted() const { return mounted_; }
    const std::string& why() const { return why_; }
    const std::filesystem::path& folder() const { return folder_; }
    bool remount(bool readOnly) {
        const unsigned long flags = MS_REMOUNT | (readOnly ? MS_RDONLY : 0);
        return ::mount(nullptr, folder_.c_str(), nullptr, flags, kSmallFsOptions) == 0;
    }

  private:
    TempDir dir_;
    std::filesystem::path folder_;
    bool mounted_ = false;
    std::string why_;
};

// "ok" when SQLite finds the file sound.
std::string integrityOf(const std::string& path) {
    sqlite3* db = nullptr;
    std::string verdict = "cannot open";
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* check = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &check, nullptr);
        verdict = sqlite3_step(check) == SQLITE_ROW
                      ? reinterpret_cast<const char*>(sqlite3_column_text(check, 0))
                      : sqlite3_errmsg(db);
        sqlite3_finalize(check);
    }
    sqlite3_close(db);
    return verdict;
}

struct Replica {
    std::unique_ptr<Server> server;
    std::string id;
    std::string white;
    std::string black;

    unsigned short port() const { return server->port(); }
    std::string moves() const { return "/api/v1/games/" + id + "/moves"; }
};

// A server on the file at `path`, with one game between people in which White played e2e4.
Replica startWithGame(const std::string& path) {
    SqliteStoreOptions options;
    options.path = path;
    options.busyTimeout = kBusyTimeout;
    ServerConfig config = outpost::test::liveReplicaConfig();
    ServerParts parts;
    parts.store = std::make_shared<SqliteGameStore>(options);
    parts.searchers = fakeSearchers(std::make_shared<FakeControl>());
    Replica replica;
    replica.server = std::make_unique<Server>(config, std::move(parts));
    replica.server->start();
    HttpClient client(replica.port());
    auto created = client.request(Verb::post, "/api/v1/games", R"({"engine":{"side":"none"}})");
    REQUIRE(created.status == 201);
    replica.id = created.json()["id"];
    replica.white = created.json()["playerToken"];
    replica.black = created.json()["inviteToken"];
    auto moved = client.request(Verb::post, replica.moves(), R"({"move":"e2e4"})",
                                {{"Authorization", "Bearer " + replica.white}});
    REQUIRE(moved.status == 200);
    return replica;
}

HttpResult blackPlays(const Replica& replica, const std::string& move) {
    HttpClient client(replica.port());
    return client.request(Verb::post, replica.moves(), R"({"move":")" + move + R"("})",
                          {{"Authorization", "Bearer " + replica.black}});
}

unsigned readyz(const Replica& replica) {
    HttpClient client(replica.port());
    return client.request(Verb::get, "/readyz").status;
}

std::size_t storedMoves(const Replica& replica) {
    HttpClient client(replica.port());
    auto game = client.request(Verb::get, "/api/v1/games/" + replica.id);
    return game.status == 200 ? game.json()["moves"].size() : 0;
}

}  // namespace

TEST_CASE("faults: SQLite locked by another process: 503, then ready again by itself",
          "[deploy][faults][sqlite]") {
    TempDir dir;
    const std::string path = (dir.path() / "games.db").string();
    Replica replica = startWithGame(path);

    // Another process (a second server mid-write, a backup, the sqlite3 shell) holds the lock.
    sqlite3* other = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
    REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
    auto refused = blackPlays(replica, "e7e5");
    CHECK(refused.status == 503);
    CHECK(refused.json()["error"]["code"] == "store_unavailable");
    CHECK(readyz(replica) == 503);
    REQUIRE(sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(other);

    // Ready again with no game request in between (a replica that is not ready gets none).
    CHECK(eventually([&] { return readyz(replica) == 200; }));
    CHECK(storedMoves(replica) == 1);  // the refused move left nothing behind
    CHECK(blackPlays(replica, "e7e5").status == 200);
    replica.server.reset();
    CHECK(integrityOf(path) == "ok");
}

TEST_CASE("faults: SQLite disk full: 503, nothing half-written, ready again once there is room",
          "[deploy][faults][sqlite]") {
    SmallFileSystem fs;
    if (!fs.mounted()) {
        WARN("cannot mount a small tmpfs (" << fs.why() << "); disk-full test skipped");
        return;
    }
    const std::string path = (fs.folder() / "games.db").string();
    Replica replica = startWithGame(path);

    // Fill the file system to the last byte.
    const auto filler = fs.folder() / "filler";
    {
        std::FILE* file = std::fopen(filler.c_str(), "wb");
        REQUIRE(file);
        std::setvbuf(file, nullptr, _IONBF, 0);
        const std::vector<char> chunk(kFillerChunk, 'x');
        std::size_t size = chunk.size();
        while (size > 0) {
            if (std::fwrite(chunk.data(), 1, size, file) < size) size /= 2;
        }
        std::fclose(file);
    }
    auto refused = blackPlays(replica, "e7e5");
    CHECK(refused.status == 503);
    CHECK(refused.json()["error"]["code"] == "store_unavailable");
    CHECK(readyz(replica) == 503);
    CHECK(storedMoves(replica) == 1);  // reads still work, and see only the acknowledged move
    CHECK(readyz(replica) == 503);     // a read that works does not make writes work
    CHECK(integrityOf(path) == "ok");

    std::filesystem::remove(filler);
    CHECK(eventually([&] { return readyz(replica) == 200; }));
    CHECK(blackPlays(replica, "e7e5").status == 200);
    CHECK(storedMoves(replica) == 2);
    replica.server.reset();
    CHECK(integrityOf(path) == "ok");
}

TEST_CASE("faults: SQLite folder read-only at start: a clear error, and a start once it is not",
          "[deploy][faults][sqlite]") {
    SmallFileSystem fs;
    if (!fs.mounted()) {
        WARN("cannot mount a small tmpfs (" << fs.why() << "); read-only test skipped");
        return;
    }
    StoreSettings existing;
    existing.dbPath = (fs.folder() / "games.db").string();
    selectGameStores(existing).store->create(outpost::test::sampleGame("kept"));
    REQUIRE(fs.remount(true));

    auto startError = [](const StoreSettings& settings) {
        try {
            selectGameStores(settings);
        } catch (const std::exception& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    const std::string onExisting = startError(existing);
    CHECK_THAT(onExisting, Catch::Contains(existing.dbPath) && Catch::Contains("read-only"));
    StoreSettings fresh;
    fresh.dbPath = (fs.folder() / "new" / "games.db").string();
    CHECK_THAT(startError(fresh), Catch::Contains(fs.folder().string()));

    REQUIRE(fs.remount(false));
    CHECK(integrityOf(existing.dbPath) == "ok");
    StoreSelection reopened = selectGameStores(existing);
    CHECK(reopened.store->get("kept").status == StoreStatus::Ok);
}

TEST_CASE("faults: SQLite file of an earlier version locked at start: a clear error, then a start",
          "[deploy][faults][sqlite]") {
    TempDir dir;
    const std::string path = (dir.path() / "games.db").string();
    sqlite3* other = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
    // A file as earlier versions left it, which this one must extend (a write) when it opens it,
    // while another process holds the write lock.
    REQUIRE(sqlite3_exec(other,
                         "PRAGMA journal_mode=WAL; CREATE TABLE games (id TEXT PRIMARY KEY, "
                         "version INTEGER NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT "
                         "NULL, updated_at INTEGER NOT NULL, doc TEXT NOT NULL); BEGIN IMMEDIATE",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    SqliteStoreOptions options;
    options.path = path;
    options.busyTimeout = kBusyTimeout;
    std::string message;
    try {
        SqliteGameStore store(options);
    } catch (const std::runtime_error& error) {
        message = error.what();
    }
    CHECK_THAT(message, Catch::Contains(path) && Catch::Contains("locked"));
    REQUIRE(sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(other);
    SqliteGameStore store(options);  // the lock is gone: it opens
    CHECK(store.create(outpost::test::sampleGame("after")) == StoreStatus::Ok);
    CHECK(integrityOf(path) == "ok");
}
