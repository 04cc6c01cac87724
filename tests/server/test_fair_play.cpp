// Fair endings between people (issue 34): the clocks of a game between people start once both
// sides have moved, and a missed first move aborts the game (never loses it); presence is judged
// from evidence (every request of a side) on the store's clock, across replicas whose own clocks
// are off and replicas that cannot write presence; the engine's draw answers and its 40-ply rule
// count this game.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>

#include "delegating_store.h"
#include "games/game_clock.h"
#include "games/game_json.h"
#include "games/game_service.h"
#include "games/offers.h"
#include "games/presence.h"
#include "ops/cluster_clock.h"
#include "store/clock_deadline.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

// One replica: handlers without sockets over `store`, with its own wall clock (offset from the
// real one by `clockOffsetMs`, as a machine whose clock is off).
struct Replica {
    Replica(ServerConfig config, std::shared_ptr<GameStore> store, std::int64_t clockOffsetMs = 0)
        : Replica(std::move(config), std::move(store),
                  [clockOffsetMs] { return nowEpochMs() + clockOffsetMs; }) {}
    Replica(ServerConfig config, std::shared_ptr<GameStore> store, WallClock wall)
        : control(std::make_shared<FakeControl>()),
          bus(std::make_shared<CountingEventBus>()),
          context(
              config, std::move(store), bus,
              std::make_unique<SearchPool>(PoolOptions{config.effectiveSearchThreads(),
                                                       config.queueSize, config.perClientSearches},
                                           fakeSearchers(control)),
              nullptr, std::move(wall)) {
        context.measureClock();  // as Server::start() does
        context.ready = true;
    }
    ~Replica() { control->openGate(); }

    std::shared_ptr<RecordingSink> call(verb method, const std::string& target,
                                        const std::string& body = "", const Headers& headers = {},
                                        bool wait = true) {
        Request request{method, target, 11};
        request.body() = body;
        for (const auto& [name, value] : headers) request.set(name, value);
        request.prepare_payload();
        auto sink = std::make_shared<RecordingSink>();
        handleHttp(context, std::move(request), ClientInfo{"127.0.0.1"}, sink);
        if (wait) sink->wait();
        return sink;
    }

    std::shared_ptr<FakeControl> control;
    std::shared_ptr<CountingEventBus> bus;
    ServerContext context;
};

// A game between people, played on any replica.
struct People {
    std::string id;
    std::string white;
    std::string black;

    People(Replica& on, const nlohmann::json& body = nlohmann::json::object()) {
        auto created = on.call(verb::post, "/api/v1/games", body.dump())->json();
        id = created.at("id");
        white = created.at("playerToken");
        black = created.at("inviteToken");
    }
    std::shared_ptr<RecordingSink> post(Replica& on, const std::string& action,
                                        const std::string& token, const std::string& body = "") {
        return on.call(verb::post, "/api/v1/games/" + id + "/" + action, body, as(token));
    }
    unsigned move(Replica& on, const std::string& token, const std::string& move) {
        return post(on, "moves", token, nlohmann::json{{"move", move}}.dump())->status();
    }
    nlohmann::json get(Replica& on) { return on.call(verb::get, "/api/v1/games/" + id)->json(); }
};

ServerConfig config(std::int64_t graceMs = 1500, std::int64_t firstMoveMs = 30000) {
    ServerConfig c = testConfig();
    c.presenceHeartbeatMs = 100;
    c.playerGoneGraceMs = graceMs;
    c.firstMoveDeadlineMs = firstMoveMs;
    return c;
}

// 1. e4 e5 2. Nf3, White's moves through `white`, Black's through `black`: claims are open.
void playOpening(People& game, Replica& white, Replica& black) {
    REQUIRE(game.move(white, game.white, "e4") == 200);
    REQUIRE(game.move(black, game.black, "e5") == 200);
    REQUIRE(game.move(white, game.white, "Nf3") == 200);
}

// Lets `ms` of wall-clock time pass (the presence rules count on the clocks, not on events).
void letPass(std::int64_t ms) {
    const auto until = nowEpochMs() + ms;
    while (nowEpochMs() < until) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// Makes the stored game look created long ago (as if the players waited before moving), so a
// rule that falls back on the creation time shows itself without a sleep.
void createdLongAgo(GameStore& store, const std::string& id) {
    GameRecord game = *store.get(id).game;
    const std::uint64_t before = game.version;
    game.createdAtMs -= 600000;
    game.version += 1;
    REQUIRE(store.update(game, before) == StoreStatus::Ok);
}

// A store shared with the others whose presence writes always fail (a replica cut off from
// that part of the store, or whose writes time out); everything else works.
class PresenceWritesFail final : public DelegatingStore {
  public:
    using DelegatingStore::DelegatingStore;
    StoreStatus putPresence(std::string_view, const PresenceEntry&) override {
        return StoreStatus::Unavailable;
    }
};

// A store shared with the others whose presence writes fail while `failing` is set (the store
// out of reach for a while: every replica's writes fail alike).
class PresenceWritesFailWhile final : public DelegatingStore {
  public:
    PresenceWritesFailWhile(std::shared_ptr<GameStore> store,
                            std::shared_ptr<std::atomic<bool>> failing)
        : DelegatingStore(std::move(store)), failing_(std::move(failing)) {}
    StoreStatus putPresence(std::string_view id, const PresenceEntry& entry) override {
        if (failing_->load()) return StoreStatus::Unavailable;
        return DelegatingStore::putPresence(id, entry);
    }

  private:
    std::shared_ptr<std::atomic<bool>> failing_;
};

// 40 plies from the start position that end nothing (the first legal move that keeps the game
// going, each ply), for games past the engine's 40-ply rule.
std::vector<std::string> pliesThatEndNothing(std::size_t count) {
    std::string error;
    bool badMove = false;
    std::optional<ChessState> state = ChessState::load("", {}, error, badMove);
    std::vector<std::string> moves;
    while (moves.size() < count) {
        bool played = false;
        for (const std::string& move : state->legalMoves()) {
            ChessState next = *state;
            next.play(move);
            if (next.outcome()) continue;
            state = next;
            moves.push_back(move);
            played = true;
            break;
        }
        REQUIRE(played);
    }
    return moves;
}

}  // namespace

TEST_CASE("first moves: between people the clocks start once both sides have moved",
          "[server][fairplay][clock]") {
    auto store = std::make_shared<MemoryGameStore>();
    Replica replica(config(1500, 30000), store);
    People game(replica, {{"clock", {{"initial", 60000}, {"increment", 2000}}}});
    nlohmann::json json = game.get(replica);
    CHECK(json["clock"]["running"] == false);
    const auto whiteLeft = json["firstMoveDeadlineMs"].get<std::int64_t>();
    CHECK(whiteLeft > 0);
    CHECK(whiteLeft <= 30000);
    // White moves at once: its clock has not run, and it gains no increment for it.
    REQUIRE(game.move(replica, game.white, "e4") == 200);
    json = game.get(replica);
    CHECK(json["clock"]["running"] == false);
    CHECK(json["clock"]["white"] == 60000);
    CHECK(json["clock"]["black"] == 60000);
    CHECK(json["firstMoveDeadlineMs"].get<std::int64_t>() > 0);  // Black's, now
    // The stream's events carry it too (null once the clocks run).
    const nlohmann::json state =
        nlohmann::json::parse(gameEventPayload(*store->get(game.id).game, nowEpochMs()));
    CHECK(state["firstMoveDeadlineMs"].is_number());
    // Black's first move starts the clocks, White's turn first.
    REQUIRE(game.move(replica, game.black, "e5") == 200);
    json = game.get(replica);
    CHECK(json["clock"]["running"] == true);
    CHECK(json["turn"] == "white");
    CHECK_FALSE(json.contains("firstMoveDeadlineMs"));
    CHECK(json["clock"]["black"] == 60000);
    CHECK(nlohmann::json::parse(
              gameEventPayload(*store->get(game.id).game, nowEpochMs()))["firstMoveDeadlineMs"]
              .is_null());

    // Against the engine the clocks start with the player's first move, as they always did.
    auto engine = replica
                      .call(verb::post, "/api/v1/games",
                            nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}},
                                           {"clock", {{"initial", 60000}, {"increment", 0}}}}
                                .dump())
                      ->json();
    CHECK_FALSE(engine.contains("firstMoveDeadlineMs"));
    auto moved =
        replica.call(verb::post, "/api/v1/games/" + engine["id"].get<std::string>() + "/moves",
                     R"({"move":"e4"})", as(engine["playerToken"]));
    REQUIRE(moved->status() / 100 == 2);
    CHECK(moved->json()["clock"]["running"] == true);
}

TEST_CASE("first moves: a friend who never joins gets the game aborted, not lost, with no request",
          "[server][fairplay][clock]") {
    // The issue's case: a short clock, White moves at once, the invited friend never comes.
    auto store = std::make_shared<MemoryGameStore>();
    Replica replica(config(1500, 200), store);
    People game(replica, {{"clock", {{"initial", 100}, {"increment", 0}}}});
    REQUIRE(game.move(replica, game.white, "e4") == 200);
    // Nobody calls in: the deadline watch ends the game (read from the store, not through a
    // request that would check it on the way).
    REQUIRE(eventually([&] { return store->get(game.id).game->status != "ongoing"; }));
    const GameRecord ended = *store->get(game.id).game;
    CHECK(ended.status == "aborted");
    CHECK(ended.result == "*");
    CHECK(ended.reason == kFirstMoveMissed);
    CHECK(ended.winner.empty());
    // Black's late move is refused; the game stays aborted.
    auto late = game.post(replica, "moves", game.black, R"({"move":"e5"})");
    CHECK(late->status() == 409);
    CHECK(late->errorCode() == "game_over");
    CHECK(game.get(replica)["status"] == "aborted");

    // White too has a deadline for its first move, from the creation.
    People idle(replica, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
    REQUIRE(eventually([&] { return store->get(idle.id).game->status == "aborted"; }));
    // Without a clock nothing waits for anyone.
    People untimed(replica);
    CHECK_FALSE(untimed.get(replica).contains("firstMoveDeadlineMs"));
    CHECK_FALSE(clockDeadlineMs(*store->get(untimed.id).game));
}

TEST_CASE("first moves: a replica takes up the first-move deadline of one that died",
          "[server][fairplay][clock]") {
    auto store = std::make_shared<MemoryGameStore>();
    ServerConfig quick = config(1500, 150);
    quick.clockSweepMs = 50;
    GameRecord created;
    {
        Replica first(quick, store);
        People game(first, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
        first.context.flags.stop();  // dies before the deadline: its watch goes with it
        created = *store->get(game.id).game;
    }
    // The store lists the game by its first-move deadline, as it lists running clocks.
    const auto deadline = firstMoveDeadlineMs(created);
    REQUIRE(deadline);
    CHECK(store->runningClocks(*deadline, 10).games.size() == 1);
    Replica second(quick, store);
    second.context.clockSweep.start();
    REQUIRE(eventually([&] { return store->get(created.id).game->status != "ongoing"; }));
    CHECK(store->get(created.id).game->status == "aborted");
    CHECK(store->runningClocks(*deadline + 1000000, 10).games.empty());
}

TEST_CASE("first moves: the deadline's flag and environment variable",
          "[server][fairplay][config]") {
    const char* argv[] = {"outpost-server", "--first-move-deadline", "5000"};
    auto parsed = parseConfig(3, argv);
    REQUIRE(parsed.config);
    CHECK(parsed.config->firstMoveDeadlineMs == 5000);
    const std::function<const char*(const char*)> env = [](const char* name) -> const char* {
        return std::string(name) == "OUTPOST_FIRST_MOVE_DEADLINE" ? "7000" : nullptr;
    };
    const char* bare[] = {"outpost-server"};
    auto fromEnv = parseConfig(1, bare, &env);
    REQUIRE(fromEnv.config);
    CHECK(fromEnv.config->firstMoveDeadlineMs == 7000);
    CHECK(ServerConfig{}.firstMoveDeadlineMs == 30000);
    const char* bad[] = {"outpost-server", "--first-move-deadline", "-1"};
    CHECK_FALSE(parseConfig(3, bad).config);
}

TEST_CASE("presence: a move over REST is a sign of life, on whichever replica it arrives",
          "[server][fairplay][presence]") {
    // The issue's case: the players wait, then move without any stream; White claims right after
    // Black's reply.
    auto store = std::make_shared<MemoryGameStore>();
    Replica first(config(1500), store);
    Replica second(config(1500), store);
    People game(first);
    createdLongAgo(*store, game.id);
    playOpening(game, first, second);
    for (Replica* replica : {&first, &second}) {
        auto claim = game.post(*replica, "claim-victory", game.white);
        CHECK(claim->status() == 409);
        CHECK(claim->errorCode() == "opponent_not_gone_long_enough");
    }
    const nlohmann::json json = game.get(second);
    CHECK(json["status"] == "ongoing");
    // Black is shown gone (no connection) since about its move, claimable only after the grace.
    const auto gone = json["gone"]["black"];
    CHECK(gone["claimableAtMs"].get<std::int64_t>() - gone["sinceMs"].get<std::int64_t>() == 1500);
    CHECK(gone["sinceMs"].get<std::int64_t>() > nowEpochMs() - 1500);
    // Any authenticated request counts, a refused one too: an offer answered "no" with nothing
    // to decline keeps Black seen.
    CHECK(game.post(second, "draw/no", game.black)->status() == 409);
    CHECK(game.get(first)["gone"]["black"]["sinceMs"].get<std::int64_t>() >=
          gone["sinceMs"].get<std::int64_t>());
}

TEST_CASE("presence: a player that only polls the game over REST is not gone",
          "[server][fairplay][presence]") {
    // A REST client (no stream, no WebSocket) reads the game with its token while it thinks:
    // each read is a sign of life, so it cannot be claimed against while it polls.
    auto store = std::make_shared<MemoryGameStore>();
    Replica first(config(300), store);
    Replica second(config(300), store);
    People game(first);
    createdLongAgo(*store, game.id);
    playOpening(game, first, second);
    const auto until = nowEpochMs() + 700;
    while (nowEpochMs() < until) {
        auto read = second.call(verb::get, "/api/v1/games/" + game.id, "", as(game.black));
        REQUIRE(read->status() == 200);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    auto claim = game.post(first, "claim-victory", game.white);
    CHECK(claim->status() == 409);
    CHECK(claim->errorCode() == "opponent_not_gone_long_enough");
    // A read without a token, or with a wrong one, is anyone's: it shows no life of a side.
    for (int i = 0; i < 2; ++i) {
        CHECK(second.call(verb::get, "/api/v1/games/" + game.id, "", as("wrong"))->status() == 200);
        CHECK(second.call(verb::get, "/api/v1/games/" + game.id)->status() == 200);
    }
    letPass(400);
    auto won = game.post(first, "claim-victory", game.white);
    CHECK(won->status() == 200);
    CHECK(won->json()["winner"] == "white");
}

TEST_CASE("presence: a replica whose clock is off makes nobody look gone",
          "[server][fairplay][presence]") {
    auto store = std::make_shared<MemoryGameStore>();
    // The first replica's clock runs 20 s behind, the second's 20 s ahead.
    Replica behind(config(1500), store, -20000);
    Replica ahead(config(1500), store, +20000);
    People game(behind);
    REQUIRE(game.move(behind, game.white, "e4") == 200);
    REQUIRE(game.move(ahead, game.black, "e5") == 200);
    // White follows the game on the replica that runs behind.
    auto whiteStream =
        behind.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", as(game.white), false);
    REQUIRE(whiteStream->wait(1));
    // On the replica ahead, White is present and cannot be claimed against.
    const nlohmann::json json = game.get(ahead);
    CHECK(json["presence"]["white"] == true);
    CHECK_FALSE((json.contains("gone") && json["gone"].contains("white")));
    auto claim = game.post(ahead, "claim-victory", game.black);
    CHECK(claim->status() == 409);
    CHECK(claim->errorCode() == "opponent_present");
    // Black, who moved on the replica ahead a moment ago, cannot be claimed against on the one
    // behind; the time shown there is in that replica's own clock.
    auto back = game.post(behind, "claim-victory", game.white);
    CHECK(back->status() == 409);
    CHECK(back->errorCode() == "opponent_not_gone_long_enough");
    const auto since = game.get(behind)["gone"]["black"]["sinceMs"].get<std::int64_t>();
    CHECK(since <= nowEpochMs() - 20000 + 100);
    CHECK(since >= nowEpochMs() - 20000 - 5000);
    whiteStream->disconnect();
}

namespace {
// A store with a clock of its own, as Redis has TIME: the real time.
class StoreWithClock final : public DelegatingStore {
  public:
    using DelegatingStore::DelegatingStore;
    std::optional<std::int64_t> storeTimeMs() override { return nowEpochMs(); }
};

// A store whose clock cannot be read until `reachable` (Redis not up yet when a replica starts).
class StoreWithLateClock final : public DelegatingStore {
  public:
    StoreWithLateClock(std::shared_ptr<GameStore> inner,
                       std::shared_ptr<std::atomic<bool>> reachable)
        : DelegatingStore(std::move(inner)), reachable_(std::move(reachable)) {}
    std::optional<std::int64_t> storeTimeMs() override {
        return reachable_->load() ? std::optional<std::int64_t>(nowEpochMs()) : std::nullopt;
    }

  private:
    std::shared_ptr<std::atomic<bool>> reachable_;
};
}  // namespace

TEST_CASE("clocks: replicas whose clocks differ charge each move the time it took",
          "[server][fairplay][clock]") {
    auto store = std::make_shared<StoreWithClock>(std::make_shared<MemoryGameStore>());
    // The first replica's clock runs 5 s behind, the second's 5 s ahead; both measure their
    // offset from the store's clock.
    Replica behind(config(), store, -5000);
    Replica ahead(config(), store, +5000);
    CHECK(std::abs(behind.context.clock.offsetMs() - 5000) < 200);
    CHECK(std::abs(ahead.context.clock.offsetMs() + 5000) < 200);
    People game(behind, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
    REQUIRE(game.move(behind, game.white, "e4") == 200);
    REQUIRE(game.move(ahead, game.black, "e5") == 200);  // the clocks start
    // Each side moves at once, on the other replica than the one that started its turn. Read
    // off each replica's own clock, White would be charged nothing (-10 s) and Black 10 s.
    REQUIRE(game.move(behind, game.white, "Nf3") == 200);
    REQUIRE(game.move(ahead, game.black, "Nc6") == 200);
    for (Replica* reader : {&behind, &ahead}) {
        const nlohmann::json clock = game.get(*reader)["clock"];
        CHECK(clock["black"].get<std::int64_t>() > 59000);
        CHECK(clock["white"].get<std::int64_t>() > 59000);
        CHECK(clock["white"].get<std::int64_t>() <= 60000);
        // The reading's time is the cluster's, whichever replica answers.
        CHECK(std::abs(clock["at"].get<std::int64_t>() - nowEpochMs()) < 1000);
    }
}

TEST_CASE("clocks: the cluster clock believes the sample with the shortest round trip",
          "[server][clock]") {
    // The wall clock and the monotonic clock read the same here, so offsets are plain.
    std::int64_t wall = 1'000'000;
    ClusterClock clock([&wall] { return wall; }, [&wall] { return wall; });
    CHECK(clock.offsetMs() == 0);
    CHECK(clock.nowMs() == 1'000'000);
    // A store with no clock (memory, SQLite) leaves the offset alone.
    CHECK_FALSE(clock.measure([] { return std::optional<std::int64_t>(); }));
    CHECK(clock.offsetMs() == 0);
    clock.observe(1000, 6100, 1200);  // round trip 200: offset 5000
    CHECK(clock.offsetMs() == 5000);
    clock.observe(2000, 7020, 2040);  // round trip 40: offset 5000, more sure
    clock.observe(3000, 8800, 3600);  // round trip 600 (waited in a queue): not believed
    CHECK(clock.offsetMs() == 5000);
    clock.observe(4000, 8990, 4020);  // round trip 20: offset 4980
    CHECK(clock.offsetMs() == 4980);
    CHECK(clock.nowMs() == 1'004'980);
    // The best sample ages out of the ring after kSamples more.
    for (std::size_t i = 0; i < ClusterClock::kSamples; ++i) clock.observe(5000, 9990, 5100);
    CHECK(clock.offsetMs() == 4940);
}

TEST_CASE("clocks: a jump of the store's clock is taken up at the next sample", "[server][clock]") {
    // A Sentinel failover to a primary whose clock runs 3 s ahead of the old one's (or the
    // primary's clock stepped). The samples of the old primary had shorter round trips: before,
    // they were believed for up to kSamples more sweeps, every flag and move charged on the old
    // time meanwhile (docs/deployment.md promised the new time within a sweep).
    std::int64_t now = 1000;
    ClusterClock clock([&now] { return now; }, [&now] { return now; });
    clock.observe(1000, 6001, 1002);  // round trip 2: offset 5000
    CHECK(clock.offsetMs() == 5000);
    clock.observe(2000, 10020, 2040);  // the new primary: offset 8000, round trip 40
    CHECK(clock.offsetMs() == 8000);
    // An ordinary slow sample (round trip 100, 20 ms off) is no jump: the better one stays.
    clock.observe(3000, 11030, 3100);
    CHECK(clock.offsetMs() == 8000);
}

TEST_CASE("clocks: a replica whose wall clock is stepped while it runs keeps the cluster's time",
          "[server][fairplay][clock]") {
    // NTP stepping a host's clock after boot, or an operator's `date -s`: the second replica's
    // wall clock jumps 5 s ahead in the middle of a game, and its clock sweeps then measure the
    // store's time again. Its samples from before the step had round trips as short as those
    // after it: believed against the stepped wall clock they charged a move that straddled the
    // step 5 s too much (measured from outside with an LD_PRELOAD clock shim, for up to
    // kSamples sweeps).
    auto store = std::make_shared<StoreWithClock>(std::make_shared<MemoryGameStore>());
    auto step = std::make_shared<std::atomic<std::int64_t>>(0);
    Replica first(config(), store);
    Replica stepped(config(), store, [step] { return nowEpochMs() + step->load(); });
    People game(first, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
    REQUIRE(game.move(first, game.white, "e4") == 200);
    REQUIRE(game.move(stepped, game.black, "e5") == 200);  // the clocks start
    step->store(5000);
    for (std::size_t i = 0; i < 3; ++i) stepped.context.measureClock();  // three sweeps
    CHECK(std::abs(stepped.context.clock.offsetMs() + 5000) < 200);      // /readyz sees the skew
    // White moves at once through the stepped replica, Black through the other.
    REQUIRE(game.move(stepped, game.white, "Nf3") == 200);
    REQUIRE(game.move(first, game.black, "Nc6") == 200);
    REQUIRE(game.move(stepped, game.white, "Bc4") == 200);
    for (Replica* reader : {&first, &stepped}) {
        const nlohmann::json read = game.get(*reader);
        CHECK(read["moveClocks"][2].get<std::int64_t>() > 59000);
        CHECK(read["clock"]["white"].get<std::int64_t>() > 59000);
        CHECK(read["clock"]["black"].get<std::int64_t>() > 59000);
        CHECK(std::abs(read["clock"]["at"].get<std::int64_t>() - nowEpochMs()) < 1000);
    }
}

TEST_CASE(
    "clocks: a replica that started before the store's clock could be read reads it when "
    "asked if it is ready",
    "[server][fairplay][clock]") {
    // A cluster that just started: Redis was not up when the replica (its wall clock 5 s ahead)
    // read the store's time at start. Once Redis is there /readyz turns 200 and the load
    // balancer sends the replica moves; its next clock sweep may be seconds away. Before, it
    // counted in its own wall clock until then and charged White 5 s for an instant move
    // (measured from outside: a replica shimmed 5 s ahead, sentinels started after it).
    auto memory = std::make_shared<MemoryGameStore>();
    auto reachable = std::make_shared<std::atomic<bool>>(false);
    Replica early(config(), std::make_shared<StoreWithClock>(memory));
    Replica late(config(), std::make_shared<StoreWithLateClock>(memory, reachable), +5000);
    CHECK_FALSE(late.context.clock.synced());
    People game(early, {{"clock", {{"initial", 60000}, {"increment", 0}}}});
    REQUIRE(game.move(early, game.white, "e4") == 200);
    REQUIRE(game.move(early, game.black, "e5") == 200);  // the clocks start
    reachable->store(true);
    REQUIRE(late.call(verb::get, "/readyz")->status() == 200);
    CHECK(late.context.clock.synced());
    CHECK(std::abs(late.context.clock.offsetMs() + 5000) < 200);
    REQUIRE(game.move(late, game.white, "Nf3") == 200);
    CHECK(game.get(early)["moveClocks"][2].get<std::int64_t>() > 59000);
}

TEST_CASE("presence: a replica that cannot write presence does not make its players claimable",
          "[server][fairplay][presence]") {
    auto store = std::make_shared<MemoryGameStore>();
    Replica cutOff(config(100), std::make_shared<PresenceWritesFail>(store));
    Replica healthy(config(100), store);
    // White creates the game and plays through the replica whose presence writes fail, Black
    // through the other.
    People game(cutOff);
    createdLongAgo(*store, game.id);
    playOpening(game, cutOff, healthy);
    // Long past the grace, Black's claim is still refused: nothing says White is gone.
    letPass(300);
    auto claim = game.post(healthy, "claim-victory", game.black);
    CHECK(claim->status() == 409);
    CHECK(claim->errorCode() == "opponent_not_gone_long_enough");
    CHECK(game.get(healthy)["status"] == "ongoing");
    // White's claim, on the other hand, is judged on Black's recorded signs of life (its last
    // one: the refused claim), once they are older than the grace; not by the replica whose
    // presence writes fail (it cannot vouch for what it could not record: 503), by the other.
    letPass(300);
    auto blind = game.post(cutOff, "claim-victory", game.white);
    CHECK(blind->status() == 503);
    CHECK(blind->errorCode() == "store_unavailable");
    auto won = game.post(healthy, "claim-victory", game.white);
    CHECK(won->status() == 200);
    CHECK(won->json()["winner"] == "white");
}

TEST_CASE(
    "presence: after the store was out of reach, a player connected throughout is not claimed",
    "[server][fairplay][presence]") {
    // Both players hold a stream, White's on the first replica, Black's on the second. The
    // store takes no presence write for longer than the grace: Black's entry ages as if Black
    // had left. Right after the store is back White claims: refused until every replica has
    // reported again, then Black is present.
    auto store = std::make_shared<MemoryGameStore>();
    auto failing = std::make_shared<std::atomic<bool>>(false);
    ServerConfig c = config(100);
    c.presenceHeartbeatMs = 250;  // a margin for a slow machine (sanitizers) between beats
    Replica first(c, std::make_shared<PresenceWritesFailWhile>(store, failing));
    Replica second(c, std::make_shared<PresenceWritesFailWhile>(store, failing));
    People game(first);
    REQUIRE(game.move(first, game.white, "e4") == 200);
    REQUIRE(game.move(second, game.black, "e5") == 200);
    auto whiteStream =
        first.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", as(game.white), false);
    auto blackStream =
        second.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", as(game.black), false);
    REQUIRE(whiteStream->wait(1));
    REQUIRE(blackStream->wait(1));
    failing->store(true);
    letPass(1500);  // past 3 heartbeats (750 ms) and the grace
    failing->store(false);
    auto claim = game.post(first, "claim-victory", game.white);
    CHECK(claim->status() == 503);
    CHECK(claim->errorCode() == "store_unavailable");
    CHECK(game.get(first)["status"] == "ongoing");
    // Every replica has reported again: Black is there.
    REQUIRE(eventually([&] {
        auto again = game.post(first, "claim-victory", game.white);
        return again->status() == 409 && again->errorCode() == "opponent_present";
    }));
    CHECK(game.get(first)["status"] == "ongoing");
    whiteStream->disconnect();
    blackStream->disconnect();
}

TEST_CASE("presence: the entries of ended and missing games are removed",
          "[server][fairplay][presence]") {
    auto store = std::make_shared<MemoryGameStore>();
    Replica replica(config(1500), store);
    People game(replica);
    REQUIRE(game.move(replica, game.white, "e4") == 200);
    auto stream =
        replica.call(verb::get, "/api/v1/games/" + game.id + "/stream", "", as(game.black), false);
    REQUIRE(stream->wait(1));
    REQUIRE_FALSE(store->getPresence(game.id).entries.empty());
    REQUIRE(game.post(replica, "resign", game.black)->status() == 200);
    CHECK(store->getPresence(game.id).entries.empty());
    // A heartbeat while the stream lives writes nothing back for the ended game.
    replica.context.presence.heartbeat();
    CHECK(store->getPresence(game.id).entries.empty());
    stream->disconnect();

    // A game the store does not have (expired, deleted): what was written of it goes.
    GameRecord missing;
    missing.id = "missing";
    REQUIRE(store->putPresence("missing", PresenceEntry{"old", true, false, 0, kNeverSeen}) ==
            StoreStatus::Ok);
    replica.context.presence.seen(missing, true, false);
    CHECK(store->getPresence("missing").entries.empty());
}

TEST_CASE("presence: the view from entries, on the store's clock", "[server][fairplay][presence]") {
    const PresenceTiming timing{100, 1000};
    GameRecord game;
    game.initialFen = ChessState::kStartFen;
    game.moves = {"e2e4", "e7e5"};
    const std::int64_t wall = 5'000'000;  // the reader's wall clock: only for the times shown
    // White live on replica a (written 50 ms ago); Black left replica b 100 ms before b's entry
    // was written 300 ms ago: seen 400 ms ago.
    std::vector<PresenceEntry> entries = {{"a", true, false, 0, kNeverSeen, 50},
                                          {"b", false, false, kNeverSeen, 100, 300}};
    GamePresence view = presenceView(game, entries, wall, timing);
    CHECK(view.white);
    CHECK_FALSE(view.black);
    CHECK(view.blackGone);
    CHECK(view.blackGoneForMs == 400);
    CHECK(view.blackClaimInMs == 600);
    CHECK(view.blackGoneSinceMs == wall - 400);
    CHECK(view.blackClaimableAtMs == wall + 600);
    CHECK_FALSE(claimable(view, false));
    // The freshest sign of life wins: Black's request on replica a, 20 ms ago.
    entries[0].blackIdleMs = 0;
    entries[0].ageMs = 20;
    CHECK(presenceView(game, entries, wall, timing).blackGoneForMs == 20);
    // Long ago: claimable.
    view = presenceView(game, {{"b", false, false, kNeverSeen, 900, 300}}, wall, timing);
    CHECK(claimable(view, false));
    // Past the grace, the time it became claimable stays where it was, read after read (it was
    // the time of the read, moving with it).
    CHECK(view.blackClaimableAtMs == wall - 1200 + 1000);
    CHECK(presenceView(game, {{"b", false, false, kNeverSeen, 900, 300}}, wall + 5000, timing)
              .blackClaimableAtMs == wall + 5000 - 1200 + 1000);
    // A live entry that stopped being renewed (its replica died): gone since its last write.
    view = presenceView(game, {{"a", true, false, 0, kNeverSeen, 2000}}, wall, timing);
    CHECK_FALSE(view.white);
    CHECK(view.whiteGoneForMs == 2000);
    CHECK(claimable(view, true));
    // No sign of life recorded: gone, but never claimable.
    view = presenceView(game, {}, wall, timing);
    CHECK(view.whiteGone);
    CHECK(view.whiteGoneForMs == kNeverSeen);
    CHECK_FALSE(claimable(view, true));
    nlohmann::json json;
    addPresenceFields(json, view);
    CHECK(json["gone"]["white"] == nlohmann::json::object());
    // Before both sides moved: gone, not claimable.
    game.moves = {"e2e4"};
    view = presenceView(game, entries, wall, timing);
    CHECK(view.blackGone);
    CHECK(view.blackClaimInMs == -1);
}

TEST_CASE("engine draws: the 40-ply rule counts this game's plies, not the FEN's move number",
          "[server][fairplay][offers]") {
    auto store = std::make_shared<MemoryGameStore>();
    Replica replica(config(), store);
    // Set up at "move 30", no move played: too early, whatever the FEN says.
    const std::string fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 4 30";
    auto created = replica
                       .call(verb::post, "/api/v1/games",
                             nlohmann::json{{"fen", fen}, {"engine", {{"side", "black"}}}}.dump())
                       ->json();
    const int searches = replica.control->started.load();
    auto early =
        replica.call(verb::post, "/api/v1/games/" + created["id"].get<std::string>() + "/draw/yes",
                     "", as(created["playerToken"]));
    REQUIRE(early->status() == 200);
    CHECK(early->json()["drawOfferAnswer"]["reason"] == "too_early");
    CHECK(early->json()["status"] == "ongoing");
    CHECK(replica.control->started.load() == searches);
    GameRecord record;
    record.initialFen = fen;
    CHECK(pliesPlayed(record) == 0);
    record.moves = pliesThatEndNothing(3);
    CHECK(pliesPlayed(record) == 3);
}

TEST_CASE("engine draws: an offer the game has moved past is answered by the move",
          "[server][fairplay][offers]") {
    auto store = std::make_shared<MemoryGameStore>();
    Replica replica(config(), store);
    // 40 plies at creation; the 41st, played while the engine weighs the offer, ends nothing.
    auto moves = pliesThatEndNothing(kEngineDrawMinPlies + 1);
    const std::string reply = moves.back();
    moves.pop_back();
    auto created =
        replica
            .call(verb::post, "/api/v1/games",
                  nlohmann::json{{"moves", moves}, {"engine", {{"side", "black"}}}}.dump())
            ->json();
    const std::string id = created["id"];
    const std::string token = created["playerToken"];
    // The engine would accept at the offer's position (White, to move there, is +30).
    replica.control->scorePerDepth = 10;
    replica.control->closeGate();
    const int before = replica.control->started.load();
    auto offer =
        replica.call(verb::post, "/api/v1/games/" + id + "/draw/yes", "", as(token), false);
    REQUIRE(replica.control->waitStarted(before + 1));
    // While the engine weighs the offer, White plays on: the game has moved past the offer.
    auto moved = replica.call(verb::post, "/api/v1/games/" + id + "/moves",
                              nlohmann::json{{"move", reply}}.dump(), as(token));
    REQUIRE(moved->status() / 100 == 2);
    replica.control->openGate();
    REQUIRE(offer->wait());
    REQUIRE(offer->status() == 200);
    CHECK(offer->json()["drawOfferAnswer"]["accepted"] == false);
    CHECK(offer->json()["drawOfferAnswer"]["reason"] == "moved_on");
    CHECK(store->get(id).game->status == "ongoing");
}
