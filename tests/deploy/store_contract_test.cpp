// The GameStore contract (store/game_store.h), one set of cases run against every backend:
// the in-process store, a SQLite file and a private redis-server. Each case is a template
// instantiated once per backend, so a case that passes on one and fails on another names the
// backend that breaks the contract. What only one backend does (SQLite's file and its faults,
// Redis's expiry, TTLs and outages, corrupt records) stays in that backend's own tests.
//
// Where the backends legitimately differ, the case asserts what the contract allows:
// - a replayed write (the very create or update already applied) is Ok in Redis, whose scripts
//   are idempotent so a command lost on a broken connection can be retried
//   (store/redis_game_store.h); the others answer AlreadyExists / VersionConflict. Either way
//   nothing changes.
// - the store's clock: openSeeks' expiry is checked against the real time, since Redis expires a
//   seek's key on its own clock whatever nowMs says.
// - "a second handle" on the same store is the same object in memory, a second connection to
//   the file in SQLite and a second client of the same Redis (another replica). Presence in
//   the memory and SQLite stores lives in the process that wrote it (store/presence_table.h), so
//   the presence case reads it on the handle that wrote it.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "store/memory_game_store.h"
#include "store/redis_game_store.h"
#include "store/sqlite_game_store.h"
#include "test_support.h"

using namespace outpost::server;
using namespace std::chrono_literals;
using outpost::test::RedisServerProcess;
using outpost::test::sampleGame;
using outpost::test::seekDoc;
using outpost::test::TempDir;

namespace {

// The backends. Each gives the store under test, a second handle on the same stored data, and
// whether a replayed write is reported as applied.
class MemoryBackend {
  public:
    static constexpr bool kReplayIsApplied = false;
    // Updates each racing thread makes: enough that they interleave (a memory update takes
    // microseconds; a SQLite one waits for its fsync, a Redis one for a round trip).
    static constexpr std::size_t kRaceWins = 500;
    bool available() const { return true; }
    const char* missing() const { return ""; }
    bool start() { return true; }
    GameStore& store() { return *store_; }
    std::shared_ptr<GameStore> secondHandle() { return store_; }

  private:
    std::shared_ptr<MemoryGameStore> store_ = std::make_shared<MemoryGameStore>();
};

class SqliteBackend {
  public:
    static constexpr bool kReplayIsApplied = false;
    static constexpr std::size_t kRaceWins = 20;
    bool available() const { return true; }
    const char* missing() const { return ""; }
    bool start() {
        store_ = std::make_shared<SqliteGameStore>(options());
        return true;
    }
    GameStore& store() { return *store_; }
    std::shared_ptr<GameStore> secondHandle() {
        return std::make_shared<SqliteGameStore>(options());
    }

  private:
    SqliteStoreOptions options() const {
        SqliteStoreOptions options;
        options.path = (dir_.path() / "games.db").string();
        return options;
    }
    TempDir dir_;
    std::shared_ptr<SqliteGameStore> store_;
};

class RedisBackend {
  public:
    static constexpr bool kReplayIsApplied = true;
    static constexpr std::size_t kRaceWins = 50;
    bool available() const { return redis_.available(); }
    const char* missing() const {
        return "redis-server is not installed; the Redis store contract is not checked";
    }
    bool start() {
        if (!redis_.start()) return false;
        store_ = std::make_shared<RedisGameStore>(options());
        return store_->healthy();
    }
    GameStore& store() { return *store_; }
    std::shared_ptr<GameStore> secondHandle() {
        return std::make_shared<RedisGameStore>(options());
    }

  private:
    RedisStoreOptions options() const {
        RedisStoreOptions options;
        options.url = redis_.url();
        options.timeout = 1000ms;
        return options;
    }
    RedisServerProcess redis_;
    std::shared_ptr<RedisGameStore> store_;
};

// Declares `backend` of the case's type, started; skips the case when the backend's server is
// not installed.
#define START_BACKEND(backend)     \
    TestType backend;              \
    if (!(backend).available()) {  \
        WARN((backend).missing()); \
        return;                    \
    }                              \
    REQUIRE((backend).start())

std::int64_t epochMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A game with every stored field set to something other than its default.
GameRecord fullGame(const std::string& id) {
    GameRecord game = sampleGame(id);
    game.blackTokenHash = "black-hash-" + id;
    game.moves = {"e2e4", "e7e5"};
    game.engine.limits = LimitsSpec{4, 100, std::nullopt};
    game.clock = ClockState{60000, 1000, 59000, 60000, 1'700'000'001'234, true};
    game.moveClocksMs = {59000, 60000};
    game.drawOffer = "white";
    game.takebackOffer = "black";
    return game;
}

// `game` as its next version, one move longer.
GameRecord nextVersion(GameRecord game, const std::string& move) {
    game.moves.push_back(move);
    ++game.version;
    return game;
}

std::vector<std::string> idsOf(const std::vector<GameRecord>& games) {
    std::vector<std::string> ids;
    for (const GameRecord& game : games) ids.push_back(game.id);
    return ids;
}

std::vector<std::string> idsOf(const SeekListResult& listed) {
    std::vector<std::string> ids;
    for (const SeekDoc& seek : listed.seeks) ids.push_back(seek.id);
    return ids;
}

// Entries compared without their age (which the store sets on reading).
bool sameReport(PresenceEntry a, const PresenceEntry& b) {
    a.ageMs = b.ageMs;
    return a == b;
}

std::optional<PresenceEntry> entryOf(const PresenceReadResult& read, const std::string& replica) {
    for (const PresenceEntry& entry : read.entries)
        if (entry.replica == replica) return entry;
    return std::nullopt;
}

// A game whose clock runs: `toMoveMs` left for the side to move since turnStartedAtMs.
GameRecord clockGame(const std::string& id, std::int64_t startedAtMs, std::int64_t toMoveMs,
                     bool whiteToMove) {
    GameRecord game = sampleGame(id);
    game.engine.side = "none";
    game.engine.level.reset();
    if (!whiteToMove) game.moves = {"e2e4"};
    game.clock =
        ClockState{60000,       0,   whiteToMove ? toMoveMs : 60000, whiteToMove ? 60000 : toMoveMs,
                   startedAtMs, true};
    return game;
}

// Runs body(t) for t in [0, count) on threads released together once all have started, so they
// race rather than run one after another, and joins them.
template <typename Body>
void raceOnThreads(int count, Body body) {
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < count; ++t) {
        threads.emplace_back([&, t] {
            ++ready;
            while (ready.load() < count) std::this_thread::yield();
            body(t);
        });
    }
    for (auto& thread : threads) thread.join();
}

}  // namespace

#define STORE_BACKENDS MemoryBackend, SqliteBackend, RedisBackend

TEMPLATE_TEST_CASE("Store contract: create, get, AlreadyExists", "[deploy][store-contract]",
                   STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    CHECK(store.healthy());
    CHECK(store.get("g1").status == StoreStatus::NotFound);

    // Every field is stored and read back as written.
    GameRecord game = fullGame("g1");
    REQUIRE(store.create(game) == StoreStatus::Ok);
    StoreReadResult read = store.get("g1");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(*read.game == game);
    // Another handle on the same store sees it.
    CHECK(backend.secondHandle()->get("g1").game == game);

    // An id that is taken: AlreadyExists, and the stored game is untouched.
    GameRecord other = sampleGame("g1");
    other.whiteTokenHash = "someone else";
    CHECK(store.create(other) == StoreStatus::AlreadyExists);
    CHECK(backend.secondHandle()->create(other) == StoreStatus::AlreadyExists);
    CHECK(store.get("g1").game == game);
    // The very same create again: applied already (Redis) or taken (the others); nothing changes.
    CHECK(store.create(game) ==
          (TestType::kReplayIsApplied ? StoreStatus::Ok : StoreStatus::AlreadyExists));
    CHECK(store.get("g1").game == game);

    // The version is stored as given.
    GameRecord imported = sampleGame("imported");
    imported.version = 5;
    REQUIRE(store.create(imported) == StoreStatus::Ok);
    CHECK(store.get("imported").game->version == 5);

    // Presence is read beside a game, never stored with it.
    GameRecord withPresence = sampleGame("with-presence");
    withPresence.presence = GamePresence{};
    withPresence.presence->white = true;
    REQUIRE(store.create(withPresence) == StoreStatus::Ok);
    read = store.get("with-presence");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK_FALSE(read.game->presence);
}

TEMPLATE_TEST_CASE("Store contract: update is a compare-and-set on the version",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    const GameRecord game = fullGame("g1");
    REQUIRE(store.create(game) == StoreStatus::Ok);

    // The right version: written.
    const GameRecord next = nextVersion(game, "g1f3");
    REQUIRE(store.update(next, 1) == StoreStatus::Ok);
    CHECK(store.get("g1").game == next);
    // A second writer that read version 1 loses, on this handle or another.
    const GameRecord stale = nextVersion(game, "d2d4");
    CHECK(store.update(stale, 1) == StoreStatus::VersionConflict);
    CHECK(backend.secondHandle()->update(stale, 1) == StoreStatus::VersionConflict);
    // So does one that claims a version the store has not reached.
    GameRecord ahead = nextVersion(nextVersion(next, "b8c6"), "f1b5");
    CHECK(store.update(ahead, 3) == StoreStatus::VersionConflict);
    CHECK(store.get("g1").game == next);
    // The very same update again: applied already (Redis) or stale (the others).
    CHECK(store.update(next, 1) ==
          (TestType::kReplayIsApplied ? StoreStatus::Ok : StoreStatus::VersionConflict));
    CHECK(store.get("g1").game == next);

    // The next version from the other handle, then this one's stale copy loses.
    const GameRecord third = nextVersion(next, "b8c6");
    REQUIRE(backend.secondHandle()->update(third, 2) == StoreStatus::Ok);
    CHECK(store.get("g1").game == third);
    CHECK(store.update(nextVersion(next, "a7a6"), 2) == StoreStatus::VersionConflict);

    // An unknown game: NotFound, and no game is made.
    GameRecord missing = sampleGame("missing");
    missing.version = 2;
    CHECK(store.update(missing, 1) == StoreStatus::NotFound);
    CHECK(store.get("missing").status == StoreStatus::NotFound);
}

TEMPLATE_TEST_CASE("Store contract: concurrent updates, exactly one wins per version",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    const GameRecord game = sampleGame("race");
    REQUIRE(backend.store().create(game) == StoreStatus::Ok);
    std::shared_ptr<GameStore> other = backend.secondHandle();

    // Threads on two handles append moves by compare-and-set, each until it won kWins times.
    // They record each win (the version it replaced); Catch's macros stay on this thread.
    constexpr int kThreads = 4;
    constexpr std::size_t kWins = TestType::kRaceWins;
    struct Win {
        std::uint64_t replaced;
        std::string move;
    };
    std::vector<std::vector<Win>> wins(kThreads);
    std::atomic<int> failures{0};
    raceOnThreads(kThreads, [&](int t) {
        GameStore& store = t % 2 == 0 ? backend.store() : *other;
        while (wins[t].size() < kWins) {
            const StoreReadResult read = store.get("race");
            if (read.status != StoreStatus::Ok) {
                ++failures;
                return;
            }
            const std::string move = std::to_string(t) + ":" + std::to_string(wins[t].size());
            const std::uint64_t expected = read.game->version;
            const StoreStatus status = store.update(nextVersion(*read.game, move), expected);
            if (status == StoreStatus::Ok) {
                wins[t].push_back({expected, move});
            } else if (status != StoreStatus::VersionConflict) {
                ++failures;
                return;
            }
        }
    });
    REQUIRE(failures == 0);

    // Each version was replaced by exactly one writer, and the moves are the winners', in order.
    std::vector<Win> all;
    for (const auto& won : wins) all.insert(all.end(), won.begin(), won.end());
    std::sort(all.begin(), all.end(),
              [](const Win& a, const Win& b) { return a.replaced < b.replaced; });
    REQUIRE(all.size() == kThreads * kWins);
    std::vector<std::string> expectedMoves;
    std::size_t misplaced = 0;  // wins whose version was also replaced by another, or skipped
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].replaced != i + 1 && misplaced++ == 0)
            UNSCOPED_INFO("win " << i << " (" << all[i].move << ") replaced version "
                                 << all[i].replaced);
        expectedMoves.push_back(all[i].move);
    }
    CHECK(misplaced == 0);
    const GameRecord final = *backend.store().get("race").game;
    CHECK(final.version == 1 + kThreads * kWins);
    CHECK(final.moves == expectedMoves);

    // Acceptors racing on one open seek, on both handles: one takes it, the others lose.
    const std::int64_t now = epochMs();
    REQUIRE(backend.store().createSeek(seekDoc("s", 1, true, now, now + 3'600'000)) ==
            StoreStatus::Ok);
    std::atomic<int> taken{0};
    std::atomic<int> lost{0};
    raceOnThreads(kThreads, [&](int t) {
        GameStore& store = t % 2 == 0 ? backend.store() : *other;
        SeekDoc accepted = seekDoc("s", 2, false, now, now + 3'600'000);
        accepted.doc = "accepted by " + std::to_string(t);  // each write differs
        const StoreStatus status = store.updateSeek(accepted, 1);
        if (status == StoreStatus::Ok) ++taken;
        if (status == StoreStatus::VersionConflict) ++lost;
    });
    CHECK(taken == 1);
    CHECK(lost == kThreads - 1);
    CHECK(backend.store().getSeek("s").seek->version == 2);
}

TEMPLATE_TEST_CASE("Store contract: getMany lists the games found in the order asked",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    for (const char* id : {"alpha", "beta", "gamma"}) {
        REQUIRE(store.create(sampleGame(id)) == StoreStatus::Ok);
    }
    const GameRecord moved = nextVersion(sampleGame("beta"), "e2e4");
    REQUIRE(store.update(moved, 1) == StoreStatus::Ok);

    // Found games in the order of the ids, unknown ids absent, each game's latest version.
    StoreManyResult listed = store.getMany({"gamma", "nobody", "beta", "alpha"});
    REQUIRE(listed.status == StoreStatus::Ok);
    REQUIRE(idsOf(listed.games) == std::vector<std::string>{"gamma", "beta", "alpha"});
    CHECK(listed.games[0] == sampleGame("gamma"));
    CHECK(listed.games[1] == moved);
    CHECK(listed.games[2] == sampleGame("alpha"));
    CHECK(idsOf(backend.secondHandle()->getMany({"alpha", "gamma"}).games) ==
          std::vector<std::string>{"alpha", "gamma"});

    // Nothing asked, nothing found; nothing known, nothing found.
    StoreManyResult nothing = store.getMany({});
    CHECK(nothing.status == StoreStatus::Ok);
    CHECK(nothing.games.empty());
    StoreManyResult unknown = store.getMany({"x", "y"});
    CHECK(unknown.status == StoreStatus::Ok);
    CHECK(unknown.games.empty());
}

TEMPLATE_TEST_CASE("Store contract: count counts the games created", "[deploy][store-contract]",
                   STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    CHECK(store.count() == 0);
    for (const char* id : {"a", "b", "c"}) REQUIRE(store.create(sampleGame(id)) == StoreStatus::Ok);
    CHECK(store.count() == 3);
    // A create refused and an update do not count.
    GameRecord taken = sampleGame("a");
    taken.whiteTokenHash = "someone else";
    REQUIRE(store.create(taken) == StoreStatus::AlreadyExists);
    REQUIRE(store.update(nextVersion(sampleGame("b"), "e2e4"), 1) == StoreStatus::Ok);
    CHECK(store.count() == 3);
    CHECK(backend.secondHandle()->count() == 3);
}

TEMPLATE_TEST_CASE("Store contract: running clocks by deadline, soonest first",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    constexpr std::int64_t kT = 1'000'000;
    REQUIRE(store.create(sampleGame("no-clock")) == StoreStatus::Ok);
    REQUIRE(store.create(clockGame("later", kT, 9000, false)) == StoreStatus::Ok);  // kT + 9 s
    REQUIRE(store.create(clockGame("sooner", kT, 5000, true)) == StoreStatus::Ok);  // kT + 5 s
    // Black starts from this position: Black's 3 s count.
    GameRecord blackStarts = clockGame("black-starts", kT, 3000, true);
    blackStarts.initialFen = "4k3/8/8/8/8/8/8/4K2R b K - 0 1";
    blackStarts.clock->whiteMs = 60000;
    blackStarts.clock->blackMs = 3000;
    REQUIRE(store.create(blackStarts) == StoreStatus::Ok);
    // Between people before the clocks start: the first move is owed by kT + 7 s.
    GameRecord firstMove = clockGame("first-move", kT, 60000, true);
    firstMove.clock->running = false;
    firstMove.firstMoveMs = 7000;
    REQUIRE(store.create(firstMove) == StoreStatus::Ok);
    // A clock that does not run, and a game over: no deadline.
    GameRecord stopped = clockGame("stopped", kT, 1000, true);
    stopped.clock->running = false;
    REQUIRE(store.create(stopped) == StoreStatus::Ok);
    GameRecord over = clockGame("over", kT, 1000, true);
    over.status = "resigned";
    over.result = "0-1";
    REQUIRE(store.create(over) == StoreStatus::Ok);

    auto due = [&](std::int64_t untilMs, std::size_t limit) {
        StoreManyResult result = store.runningClocks(untilMs, limit);
        CHECK(result.status == StoreStatus::Ok);
        return idsOf(result.games);
    };
    using Ids = std::vector<std::string>;
    CHECK(due(kT + 60000, 10) == Ids{"black-starts", "sooner", "first-move", "later"});
    // Up to untilMs, that one included; at most `limit`.
    CHECK(due(kT + 5000, 10) == Ids{"black-starts", "sooner"});
    CHECK(due(kT + 4999, 10) == Ids{"black-starts"});
    CHECK(due(kT + 2999, 10).empty());
    CHECK(due(kT + 60000, 2) == Ids{"black-starts", "sooner"});
    CHECK(due(kT + 60000, 0).empty());
    // The games listed are the stored ones.
    StoreManyResult listed = backend.secondHandle()->runningClocks(kT + 60000, 10);
    REQUIRE(listed.games.size() == 4);
    for (const GameRecord& game : listed.games) CHECK(store.get(game.id).game == game);

    // A move moves the deadline: White to move in "later" now, 60 s from kT + 2 s.
    GameRecord moved = nextVersion(clockGame("later", kT, 9000, false), "e7e5");
    moved.clock->turnStartedAtMs = kT + 2000;
    REQUIRE(store.update(moved, 1) == StoreStatus::Ok);
    CHECK(due(kT + 60000, 10) == Ids{"black-starts", "sooner", "first-move"});
    CHECK(due(kT + 62000, 10) == Ids{"black-starts", "sooner", "first-move", "later"});

    // A game that ends, and a clock that stops, leave the index.
    GameRecord resigned = clockGame("sooner", kT, 5000, true);
    resigned.status = "resigned";
    resigned.result = "0-1";
    resigned.clock->running = false;
    resigned.version = 2;
    REQUIRE(store.update(resigned, 1) == StoreStatus::Ok);
    GameRecord aborted = firstMove;
    aborted.status = "aborted";
    aborted.version = 2;
    REQUIRE(store.update(aborted, 1) == StoreStatus::Ok);
    GameRecord paused = blackStarts;
    paused.clock->running = false;
    paused.version = 2;
    REQUIRE(store.update(paused, 1) == StoreStatus::Ok);
    CHECK(due(kT + 100000, 10) == Ids{"later"});
}

TEMPLATE_TEST_CASE("Store contract: presence entries per replica, aged on the store's clock",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    REQUIRE(store.create(sampleGame("g")) == StoreStatus::Ok);
    // None yet is no error.
    PresenceReadResult read = store.getPresence("g");
    CHECK(read.status == StoreStatus::Ok);
    CHECK(read.entries.empty());

    const PresenceEntry first{"replica-a", true, false, 0, kNeverSeen};
    REQUIRE(store.putPresence("g", first) == StoreStatus::Ok);
    // Written at least this long after the first: the ages differ by as much.
    constexpr auto kApart = 60ms;
    std::this_thread::sleep_for(kApart);
    const PresenceEntry second{"replica-b", false, true, kNeverSeen, 2000};
    REQUIRE(store.putPresence("g", second) == StoreStatus::Ok);
    read = store.getPresence("g");
    REQUIRE(read.status == StoreStatus::Ok);
    REQUIRE(read.entries.size() == 2);
    const auto a = entryOf(read, "replica-a");
    const auto b = entryOf(read, "replica-b");
    REQUIRE(a);
    REQUIRE(b);
    CHECK(sameReport(*a, first));
    CHECK(sameReport(*b, second));
    CHECK(b->ageMs >= 0);
    // (Redis stamps whole milliseconds: a rounding of 1 ms each.)
    CHECK(a->ageMs - b->ageMs >= kApart.count() - 2);

    // A replica's next report replaces its last one, and its age starts again.
    const PresenceEntry left{"replica-a", false, false, 3000, kNeverSeen};
    REQUIRE(store.putPresence("g", left) == StoreStatus::Ok);
    read = store.getPresence("g");
    REQUIRE(read.entries.size() == 2);
    CHECK(sameReport(*entryOf(read, "replica-a"), left));
    CHECK(entryOf(read, "replica-a")->ageMs <= entryOf(read, "replica-b")->ageMs);

    // Presence is beside the game: its version is untouched.
    CHECK(store.get("g").game->version == 1);
    // Entries are per game, and a game's go at once when it ends.
    CHECK(store.getPresence("other").entries.empty());
    REQUIRE(store.putPresence("other", first) == StoreStatus::Ok);
    REQUIRE(store.removePresence("other") == StoreStatus::Ok);
    CHECK(store.getPresence("other").status == StoreStatus::Ok);
    CHECK(store.getPresence("other").entries.empty());
    CHECK(store.getPresence("g").entries.size() == 2);
    CHECK(store.removePresence("never-reported") == StoreStatus::Ok);
}

TEMPLATE_TEST_CASE("Store contract: seeks by compare-and-set, the open ones listed oldest first",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    // Redis expires a seek on its own clock: the times are the real ones.
    const std::int64_t now = epochMs();
    const std::int64_t later = now + 3'600'000;
    CHECK(store.openSeeks(now, 10).status == StoreStatus::Ok);
    CHECK(store.openSeeks(now, 10).seeks.empty());
    REQUIRE(store.createSeek(seekDoc("b", 1, true, now + 2, later)) == StoreStatus::Ok);
    REQUIRE(store.createSeek(seekDoc("a", 1, true, now + 1, later)) == StoreStatus::Ok);
    REQUIRE(store.createSeek(seekDoc("c", 1, true, now + 3, later)) == StoreStatus::Ok);
    // Taken: AlreadyExists; the very same create again: applied already (Redis), or taken.
    CHECK(store.createSeek(seekDoc("a", 1, true, now + 5, later)) == StoreStatus::AlreadyExists);
    CHECK(store.createSeek(seekDoc("a", 1, true, now + 1, later)) ==
          (TestType::kReplayIsApplied ? StoreStatus::Ok : StoreStatus::AlreadyExists));
    // Oldest first, at most `limit`; reads give id, version and doc.
    using Ids = std::vector<std::string>;
    CHECK(idsOf(store.openSeeks(now, 10)) == Ids{"a", "b", "c"});
    CHECK(idsOf(store.openSeeks(now, 2)) == Ids{"a", "b"});
    const SeekListResult listed = backend.secondHandle()->openSeeks(now, 1);
    REQUIRE(listed.seeks.size() == 1);
    CHECK(listed.seeks[0].version == 1);
    CHECK(listed.seeks[0].doc == seekDoc("a", 1, true, now + 1, later).doc);
    SeekReadResult read = store.getSeek("a");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(read.seek->id == "a");
    CHECK(read.seek->version == 1);
    CHECK(read.seek->doc == seekDoc("a", 1, true, now + 1, later).doc);
    CHECK(store.getSeek("zzz").status == StoreStatus::NotFound);

    // Compare-and-set: of two writers that read version 1, one wins; a closed seek is unlisted.
    REQUIRE(store.updateSeek(seekDoc("a", 2, false, now + 1, later), 1) == StoreStatus::Ok);
    CHECK(store.updateSeek(seekDoc("a", 2, true, now + 1, later), 1) ==
          StoreStatus::VersionConflict);
    CHECK(backend.secondHandle()->updateSeek(seekDoc("a", 2, true, now + 1, later), 1) ==
          StoreStatus::VersionConflict);
    CHECK(store.updateSeek(seekDoc("zzz", 2, true, now, later), 1) == StoreStatus::NotFound);
    CHECK(store.getSeek("zzz").status == StoreStatus::NotFound);
    read = store.getSeek("a");
    CHECK(read.seek->version == 2);
    CHECK(read.seek->doc == seekDoc("a", 2, false, now + 1, later).doc);
    CHECK(idsOf(store.openSeeks(now, 10)) == Ids{"b", "c"});
    // Opened again: listed again, in its place.
    REQUIRE(store.updateSeek(seekDoc("a", 3, true, now + 1, later), 2) == StoreStatus::Ok);
    CHECK(idsOf(store.openSeeks(now, 10)) == Ids{"a", "b", "c"});

    // Past its expiry a seek is not listed, nor one made closed.
    REQUIRE(store.createSeek(seekDoc("expired", 1, true, now - 10'000, now - 1000)) ==
            StoreStatus::Ok);
    REQUIRE(store.createSeek(seekDoc("closed", 1, false, now, later)) == StoreStatus::Ok);
    CHECK(store.getSeek("closed").status == StoreStatus::Ok);
    CHECK(idsOf(store.openSeeks(epochMs(), 10)) == Ids{"a", "b", "c"});
}

TEMPLATE_TEST_CASE("Store contract: a client's open seeks are counted and bounded in one step",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    const std::int64_t now = epochMs();
    const std::int64_t later = now + 3'600'000;
    auto mine = [&](const std::string& id, bool open, std::int64_t liveUntil) {
        SeekDoc seek = seekDoc(id, 1, open, now, later);
        seek.clientKey = "me";
        seek.liveUntilMs = liveUntil;
        return seek;
    };
    const SeekQuota quota{2, now};
    // A seek whose seeker is gone (live-until past) and a closed one do not count.
    REQUIRE(store.createSeek(mine("gone", true, now - 1), SeekQuota{}) == StoreStatus::Ok);
    REQUIRE(store.createSeek(mine("closed", false, 0), SeekQuota{}) == StoreStatus::Ok);
    SeekDoc other = seekDoc("other", 1, true, now, later);
    other.clientKey = "someone else";
    other.liveUntilMs = later;
    REQUIRE(store.createSeek(other, quota) == StoreStatus::Ok);
    REQUIRE(store.createSeek(mine("one", true, later), quota) == StoreStatus::Ok);
    REQUIRE(backend.secondHandle()->createSeek(mine("two", true, later), quota) == StoreStatus::Ok);
    CHECK(store.createSeek(mine("three", true, later), quota) == StoreStatus::LimitReached);
    CHECK(store.getSeek("three").status == StoreStatus::NotFound);
    CHECK(store.createSeek(mine("one", true, later), SeekQuota{5, now}) ==
          (TestType::kReplayIsApplied ? StoreStatus::Ok : StoreStatus::AlreadyExists));
    // One closed (accepted, cancelled): room again; a beat that keeps one open keeps it counted.
    SeekDoc closed = mine("one", false, 0);
    closed.version = 2;
    REQUIRE(store.updateSeek(closed, 1) == StoreStatus::Ok);
    SeekDoc seen = mine("two", true, later + 1);
    seen.version = 2;
    REQUIRE(store.updateSeek(seen, 1) == StoreStatus::Ok);
    REQUIRE(store.createSeek(mine("three", true, later), quota) == StoreStatus::Ok);
    CHECK(store.createSeek(mine("four", true, later), quota) == StoreStatus::LimitReached);
    // Racing creations (a handle's several connections) never pass the bound: "two" and
    // "three" are live, one more fits.
    std::vector<std::future<StoreStatus>> racing;
    for (int i = 0; i < 8; ++i) {
        racing.push_back(std::async(std::launch::async, [&store, i, &mine, now] {
            return store.createSeek(mine("race" + std::to_string(i), true, now + 3'600'000),
                                    SeekQuota{3, now});
        }));
    }
    int made = 0;
    for (auto& status : racing) made += status.get() == StoreStatus::Ok ? 1 : 0;
    CHECK(made == 1);
    // Past their live-until they no longer count (the seeker's streams are gone).
    CHECK(store.createSeek(mine("four", true, later), SeekQuota{2, later + 2}) == StoreStatus::Ok);
}

TEMPLATE_TEST_CASE("Store contract: chat keeps the last lines of each game, oldest first",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    REQUIRE(store.create(sampleGame("g")) == StoreStatus::Ok);
    ChatReadResult read = store.chatLines("g");
    CHECK(read.status == StoreStatus::Ok);
    CHECK(read.lines.empty());

    for (int i = 0; i < 7; ++i)
        REQUIRE(store.appendChat("g", "line " + std::to_string(i), 5) == StoreStatus::Ok);
    // Lines are opaque: kept byte for byte.
    const std::string json = R"({"text":"gl, \"hf\"\n","side":"white","é":1})";
    REQUIRE(store.appendChat("h", json, 5) == StoreStatus::Ok);
    read = store.chatLines("g");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(read.lines == std::vector<std::string>{"line 2", "line 3", "line 4", "line 5", "line 6"});
    CHECK(backend.secondHandle()->chatLines("h").lines == std::vector<std::string>{json});
    // A line never changes the game's version.
    CHECK(store.get("g").game->version == 1);

    // Keeping one keeps the newest; keeping none keeps none.
    REQUIRE(store.appendChat("g", "line 7", 1) == StoreStatus::Ok);
    CHECK(store.chatLines("g").lines == std::vector<std::string>{"line 7"});
    REQUIRE(store.appendChat("g", "line 8", 0) == StoreStatus::Ok);
    CHECK(store.chatLines("g").lines.empty());
    CHECK(store.chatLines("h").lines.size() == 1);
}

TEMPLATE_TEST_CASE(
    "Store contract: a side's chat lines in a window are counted and bounded in one step",
    "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    REQUIRE(store.create(sampleGame("g")) == StoreStatus::Ok);
    auto line = [](const std::string& side, std::int64_t at) {
        return nlohmann::json{{"type", "chatLine"}, {"side", side}, {"text", "hi"}, {"at", at}}
            .dump();
    };
    const std::int64_t now = 1'700'000'000'000;  // epoch ms, beyond 2^32
    const ChatQuota white{"white", 2, now - 10'000};
    // An old line, the other side's and a line that is not JSON do not count.
    REQUIRE(store.appendChat("g", line("white", now - 10'000), 100, white) == StoreStatus::Ok);
    REQUIRE(store.appendChat("g", line("black", now), 100, white) == StoreStatus::Ok);
    REQUIRE(store.appendChat("g", "not json", 100, white) == StoreStatus::Ok);
    REQUIRE(store.appendChat("g", line("white", now - 9'999), 100, white) == StoreStatus::Ok);
    REQUIRE(backend.secondHandle()->appendChat("g", line("white", now), 100, white) ==
            StoreStatus::Ok);
    CHECK(store.appendChat("g", line("white", now + 1), 100, white) == StoreStatus::LimitReached);
    CHECK(store.chatLines("g").lines.size() == 5);
    CHECK(store.appendChat("g", line("black", now + 1), 100, ChatQuota{"black", 2, now - 10'000}) ==
          StoreStatus::Ok);
    // Once the window has moved past the older one, there is room again.
    CHECK(store.appendChat("g", line("white", now + 1), 100, ChatQuota{"white", 2, now - 9'999}) ==
          StoreStatus::Ok);

    // Posts racing on several handles (replicas) never pass the bound.
    std::vector<std::shared_ptr<GameStore>> handles;
    for (int i = 0; i < 6; ++i) handles.push_back(backend.secondHandle());
    std::atomic<int> appended{0};
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < handles.size(); ++i) {
        threads.emplace_back([&, i] {
            const StoreStatus status =
                handles[i]->appendChat("race", line("white", now + static_cast<std::int64_t>(i)),
                                       100, ChatQuota{"white", 3, now - 10'000});
            if (status == StoreStatus::Ok) ++appended;
        });
    }
    for (auto& thread : threads) thread.join();
    CHECK(appended == 3);
    CHECK(store.chatLines("race").lines.size() == 3);
}

TEMPLATE_TEST_CASE("Store contract: a game's review and a pasted game's review",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    REQUIRE(store.create(sampleGame("reviewed")) == StoreStatus::Ok);
    CHECK(store.getGameReview("reviewed").status == StoreStatus::NotFound);
    REQUIRE(store.putGameReview("reviewed", R"({"id":"reviewed.1"})") == StoreStatus::Ok);
    StoreDocResult read = store.getGameReview("reviewed");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(read.doc == R"({"id":"reviewed.1"})");
    // The next version's review replaces it.
    REQUIRE(store.putGameReview("reviewed", R"({"id":"reviewed.2"})") == StoreStatus::Ok);
    CHECK(backend.secondHandle()->getGameReview("reviewed").doc == R"({"id":"reviewed.2"})");
    // No review without its game.
    CHECK(store.putGameReview("no-such-game", "{}") == StoreStatus::NotFound);
    CHECK(store.getGameReview("no-such-game").status == StoreStatus::NotFound);
    CHECK(store.get("no-such-game").status == StoreStatus::NotFound);
    // A game update leaves its review alone, and a review leaves the game's version alone.
    REQUIRE(store.update(nextVersion(sampleGame("reviewed"), "e2e4"), 1) == StoreStatus::Ok);
    CHECK(store.getGameReview("reviewed").doc == R"({"id":"reviewed.2"})");
    CHECK(store.get("reviewed").game->version == 2);

    // Reviews of pasted games, by review id.
    REQUIRE(store.putReview("pasted1", R"({"id":"pasted1"})") == StoreStatus::Ok);
    read = store.getReview("pasted1");
    REQUIRE(read.status == StoreStatus::Ok);
    CHECK(read.doc == R"({"id":"pasted1"})");
    REQUIRE(store.putReview("pasted1", R"({"id":"pasted1","v":2})") == StoreStatus::Ok);
    CHECK(store.getReview("pasted1").doc == R"({"id":"pasted1","v":2})");
    CHECK(store.getReview("pasted2").status == StoreStatus::NotFound);
}

TEMPLATE_TEST_CASE("Store contract: an idempotency key is claimed once, by one of racing claims",
                   "[deploy][store-contract]", STORE_BACKENDS) {
    START_BACKEND(backend);
    GameStore& store = backend.store();
    const std::int64_t now = 1'700'000'000'000;  // Redis keeps the time on its own clock
    KeyClaimResult first = store.claimKey("k1", R"({"game":"a"})", kIdempotencyKeep, now);
    REQUIRE(first.status == StoreStatus::Ok);
    CHECK(first.claimed);
    CHECK(first.doc == R"({"game":"a"})");
    // Another request (on another replica) reads the first one's document.
    KeyClaimResult second =
        backend.secondHandle()->claimKey("k1", R"({"game":"b"})", kIdempotencyKeep, now);
    REQUIRE(second.status == StoreStatus::Ok);
    CHECK_FALSE(second.claimed);
    CHECK(second.doc == R"({"game":"a"})");
    CHECK(store.claimKey("k2", "other", kIdempotencyKeep, now).claimed);
    if constexpr (!std::is_same_v<TestType, RedisBackend>) {
        // Past its keeping time the key is free again (Redis expires it on its own clock).
        const std::int64_t later = now + 25LL * 3600 * 1000;
        KeyClaimResult again = store.claimKey("k1", R"({"game":"c"})", kIdempotencyKeep, later);
        CHECK(again.claimed);
        CHECK(again.doc == R"({"game":"c"})");
    }

    // Racing claims of one key: exactly one stores its own document, all read the same one.
    std::vector<std::shared_ptr<GameStore>> handles;
    for (int i = 0; i < 6; ++i) handles.push_back(backend.secondHandle());
    std::atomic<int> claimed{0};
    std::vector<std::string> docs(handles.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < handles.size(); ++i) {
        threads.emplace_back([&, i] {
            KeyClaimResult claim =
                handles[i]->claimKey("race", "doc " + std::to_string(i), kIdempotencyKeep, now);
            if (claim.status == StoreStatus::Ok && claim.claimed) ++claimed;
            docs[i] = claim.doc;
        });
    }
    for (auto& thread : threads) thread.join();
    CHECK(claimed == 1);
    for (const std::string& doc : docs) CHECK(doc == docs.front());
}
