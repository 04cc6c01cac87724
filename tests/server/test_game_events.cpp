// How game changes reach subscribers and how clocks end games without a request: the flag
// watch, the per-subscriber feed (gameFull, then small gameState events; a stream ends with its
// game), instant move answers, each move's clock, and their races with moves, without sockets.
#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "delegating_store.h"
#include "games/deadlines.h"
#include "games/flag_watch.h"
#include "games/game_clock.h"
#include "games/game_feed.h"
#include "games/game_json.h"
#include "games/game_service.h"
#include "games/pgn_writer.h"
#include "recording_outbox.h"
#include "store/game_record_json.h"
#include "test_support.h"
#include "ws/ws_connection.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

std::vector<std::pair<std::string, std::string>> bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}

// An in-memory store with one-shot hooks, to put another request (or replica) exactly between
// two steps of the code under test.
class ScriptedStore final : public DelegatingStore {
  public:
    StoreReadResult get(std::string_view id) override {
        // Other threads read games too (the presence heartbeat): the hook is taken under a lock,
        // and only once `getHookWhen` says the moment has come.
        std::function<void()> hook;
        {
            std::lock_guard lock(hookMutex);
            if (beforeGet && (!getHookWhen || getHookWhen()))
                hook = std::exchange(beforeGet, nullptr);
        }
        if (hook) hook();
        return DelegatingStore::get(id);
    }
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override {
        if (auto hook = std::exchange(beforeUpdate, nullptr)) hook();
        return DelegatingStore::update(game, expectedVersion);
    }

    std::mutex hookMutex;
    std::function<void()> beforeGet;    // set under hookMutex once other threads may read
    std::function<bool()> getHookWhen;  // beforeGet waits for this, when set
    std::function<void()> beforeUpdate;
};

// Every event the bus publishes for one game.
struct EventLog {
    EventLog(GameEventBus& bus, const std::string& gameId) : bus_(bus) {
        subscription_ = bus.subscribe(gameId, [this](const GameEvent& event) {
            std::lock_guard lock(mutex_);
            events_.push_back(event);
        });
    }
    ~EventLog() { bus_.unsubscribe(subscription_); }
    std::vector<GameEvent> events() {
        std::lock_guard lock(mutex_);
        return events_;
    }

  private:
    GameEventBus& bus_;
    GameEventBus::SubscriptionId subscription_ = 0;
    std::mutex mutex_;
    std::vector<GameEvent> events_;
};

// Moves the running clock's turn start back by `ms`: the side to move has used that much more
// time (a direct store write, as a change stored by another replica would be). Returns the new
// version.
std::uint64_t ageClock(GameStore& store, const std::string& id, std::int64_t ms) {
    GameRecord game = *store.get(id).game;
    REQUIRE(game.clock);
    REQUIRE(game.clock->running);
    game.clock->turnStartedAtMs -= ms;
    const std::uint64_t before = game.version;
    game.version += 1;
    REQUIRE(store.update(game, before) == StoreStatus::Ok);
    return game.version;
}

constexpr std::int64_t kMinuteMs = 60'000;

}  // namespace

TEST_CASE("flag watch: each game's latest deadline fires once, in time order",
          "[server][games][clock]") {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::pair<std::string, std::uint64_t>> fired;
    FlagWatch watch([&](const std::string& gameId, std::uint64_t version) {
        std::lock_guard lock(mutex);
        fired.emplace_back(gameId, version);
        changed.notify_all();
    });
    const std::int64_t now = nowEpochMs();
    watch.watch("a", 1, now + 300);
    watch.watch("b", 2, now + 20);
    watch.watch("a", 3, now + 80);  // a later change of "a" replaces its watch
    REQUIRE(watch.size() == 2);
    {
        std::unique_lock lock(mutex);
        REQUIRE(changed.wait_for(lock, kWait, [&] { return fired.size() == 2; }));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(400));  // past a's first deadline
    using Fired = std::vector<std::pair<std::string, std::uint64_t>>;
    {
        std::lock_guard lock(mutex);
        REQUIRE(fired == Fired{{"b", 2}, {"a", 3}});
    }
    REQUIRE(watch.size() == 0);
    watch.stop();
    watch.watch("c", 4, now);
    REQUIRE(watch.size() == 0);  // stopped: ignored
}

TEST_CASE("flag watch: a game adopted from the sweep never replaces a newer watch",
          "[server][games][clock]") {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::pair<std::string, std::uint64_t>> fired;
    FlagWatch watch([&](const std::string& gameId, std::uint64_t version) {
        std::lock_guard lock(mutex);
        fired.emplace_back(gameId, version);
        changed.notify_all();
    });
    const std::int64_t now = nowEpochMs();
    watch.watch("a", 5, now + 60);
    watch.adopt("a", 4, now + 20);  // read from the store before this replica stored version 5
    watch.adopt("a", 5, now + 10);  // the same version: this replica's own watch stays
    watch.adopt("b", 2, now + 30);  // nobody here watches b: adopted
    REQUIRE(watch.size() == 2);
    {
        std::unique_lock lock(mutex);
        REQUIRE(changed.wait_for(lock, kWait, [&] { return fired.size() == 2; }));
    }
    using Fired = std::vector<std::pair<std::string, std::uint64_t>>;
    std::lock_guard lock(mutex);
    REQUIRE(fired == Fired{{"b", 2}, {"a", 5}});
}

TEST_CASE("game feed: the snapshot first, then each newer version once",
          "[server][games][websocket]") {
    std::vector<std::pair<std::string, bool>> sent;  // the message, and whether it is progress
    GameFeed feed([&](std::string message, CoalesceKey coalesceKey) {
        sent.emplace_back(std::move(message), coalesceKey != kNoCoalescing);
    });
    auto game = [](std::uint64_t version) {
        return GameEvent{GameEvent::Kind::GameChanged, "g", version,
                         "game" + std::to_string(version)};
    };
    auto info = [](std::uint64_t version) {
        return GameEvent{GameEvent::Kind::EngineInfo, "g", version,
                         "info" + std::to_string(version)};
    };
    // Published between subscribing and reading the game: held back until the snapshot, which
    // already is version 2.
    feed.onEvent(game(2));
    feed.onEvent(info(2));
    REQUIRE(sent.empty());
    feed.start("snapshot2", 2, false);
    feed.onEvent(game(2));  // the same version again
    feed.onEvent(game(3));
    feed.onEvent(info(2));  // progress of a search on a position that has changed since
    feed.onEvent(info(3));
    feed.onEvent(game(3));
    using Sent = std::vector<std::pair<std::string, bool>>;
    REQUIRE(sent == Sent{{"snapshot2", false}, {"info2", true}, {"game3", false}, {"info3", true}});
}

namespace {

// A game whose store plays 1. e4 at its next read: after a subscriber is on the bus and before it
// reads the game.
struct MoveBeforeLoad {
    MoveBeforeLoad() : store(std::make_shared<ScriptedStore>()), f(testConfig(), store) {
        std::tie(id, token) = f.createGame();
        blackToken = f.lastInviteToken;
        // Only the subscriber's own read, after it is on the bus. Other threads read games too
        // (the presence heartbeat, the flag watch): one that took the hook after the subscribe
        // would leave the subscription reading version 1 (and, holding the presence flush lock,
        // stall the hook's move until its 20 s wait ends: a CI run saw exactly that once).
        std::lock_guard lock(store->hookMutex);
        store->getHookWhen = [this] { return f.bus->onLastSubscriberThread(); };
        store->beforeGet = [this] { REQUIRE(move("e4") == 200); };
    }
    unsigned move(const std::string& text, bool black = false) {
        return f
            .call(verb::post, "/api/v1/games/" + id + "/moves",
                  nlohmann::json{{"move", text}}.dump(), bearer(black ? blackToken : token))
            ->status();
    }

    std::shared_ptr<ScriptedStore> store;
    HandlerFixture f;
    std::string id;
    std::string token;
    std::string blackToken;
};

}  // namespace

TEST_CASE("handlers: a change between subscribe and load reaches a WebSocket once",
          "[server][handlers][websocket]") {
    MoveBeforeLoad race;
    auto outbox = std::make_shared<RecordingOutbox>();
    auto connection =
        std::make_shared<WsConnection>(race.f.context, ClientInfo{"127.0.0.1"}, outbox);
    connection->onMessage(R"({"type":"subscribe","id":7,"gameId":")" + race.id + R"("})");
    // The subscription runs on the store executor: wait for its answer, then a little longer
    // for a duplicate that must not come.
    REQUIRE(outbox->waitFor(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto messages = outbox->messages();
    REQUIRE(messages.size() == 1);  // not the move's event and then the snapshot again
    REQUIRE(messages[0]["type"] == "gameFull");
    REQUIRE(messages[0]["id"] == 7);
    REQUIRE(messages[0]["game"]["version"] == 2);
    // Later changes still arrive, once each.
    REQUIRE(race.move("e5", true) == 200);
    messages = outbox->messages();
    REQUIRE(messages.size() == 2);
    REQUIRE(messages[1]["type"] == "gameState");
    REQUIRE(messages[1]["version"] == 3);
    connection->onClose();
    REQUIRE(race.f.bus->active() == 0);
}

TEST_CASE("handlers: the same change between subscribe and load reaches an NDJSON stream once",
          "[server][handlers][games]") {
    MoveBeforeLoad race;
    auto stream = race.f.call(verb::get, "/api/v1/games/" + race.id + "/stream", "", {}, false);
    REQUIRE(stream->wait(1));
    REQUIRE(race.move("e5", true) == 200);
    REQUIRE(stream->wait(2));
    auto lines = stream->lines();
    REQUIRE(lines.size() == 2);
    REQUIRE(nlohmann::json::parse(lines[0])["type"] == "gameFull");
    REQUIRE(nlohmann::json::parse(lines[0])["game"]["version"] == 2);
    REQUIRE(nlohmann::json::parse(lines[1])["type"] == "gameState");
    REQUIRE(nlohmann::json::parse(lines[1])["version"] == 3);
    stream->disconnect();
}

TEST_CASE("handlers: the flag watch records a timeout, only for the version it watched",
          "[server][handlers][games][clock]") {
    HandlerFixture f;
    auto [id, token] = f.createGame({{"clock", {{"initial", kMinuteMs}, {"increment", 0}}}});
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})", bearer(token))
                ->status() == 200);
    REQUIRE(f.context.flags.size() == 1);  // Black's clock runs: watched
    EventLog log(*f.context.bus, id);
    // Black's minute is up, in a version stored since the watch began (version 3).
    const std::uint64_t aged = ageClock(*f.context.store, id, 2 * kMinuteMs);
    GameDeadlines deadlines(f.context);
    // The watch of version 2 is stale: whoever stored version 3 watches that one.
    deadlines.check(id, aged - 1);
    REQUIRE(f.context.store->get(id).game->status == "ongoing");
    REQUIRE(log.events().empty());
    deadlines.check(id, aged);
    const GameRecord game = *f.context.store->get(id).game;
    REQUIRE(game.status == "timeout");
    REQUIRE(game.result == "1-0");
    REQUIRE(game.winner == "white");
    REQUIRE(game.version == aged + 1);
    REQUIRE_FALSE(game.clock->running);
    auto events = log.events();
    REQUIRE(events.size() == 1);
    REQUIRE(events[0].version == aged + 1);
    REQUIRE(nlohmann::json::parse(events[0].payload)["status"] == "timeout");
}

TEST_CASE("handlers: a move stored in time wins the race with the flag watch",
          "[server][handlers][games][clock]") {
    auto store = std::make_shared<ScriptedStore>();
    HandlerFixture f(testConfig(), store);
    auto [id, token] = f.createGame({{"clock", {{"initial", kMinuteMs}, {"increment", 0}}}});
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})", bearer(token))
                ->status() == 200);
    const std::uint64_t aged = ageClock(*store, id, 2 * kMinuteMs);
    EventLog log(*f.context.bus, id);
    // Black's reply, stored by another replica just before the watch writes its timeout.
    store->beforeUpdate = [&, id = id] {
        GameRecord game = *store->inner().get(id).game;
        game.moves.push_back("e7e5");
        game.clock->turnStartedAtMs = nowEpochMs();
        game.version += 1;
        REQUIRE(store->inner().update(game, aged) == StoreStatus::Ok);
    };
    GameDeadlines(f.context).check(id, aged);
    const GameRecord game = *store->get(id).game;
    REQUIRE(game.status == "ongoing");  // the move won; the watch lost the compare-and-set
    REQUIRE(game.moves.size() == 2);
    REQUIRE(game.version == aged + 1);
    REQUIRE(log.events().empty());  // and announced nothing
}

TEST_CASE("game feed: a stream's feed ends after the state that ends the game", "[server][games]") {
    std::vector<std::string> sent;
    int ends = 0;
    auto state = [](std::uint64_t version, const char* status) {
        return GameEvent{
            GameEvent::Kind::GameChanged, "g", version,
            nlohmann::json{{"type", "gameState"}, {"version", version}, {"status", status}}.dump()};
    };
    GameFeed feed([&](std::string message, CoalesceKey) { sent.push_back(std::move(message)); },
                  [&] { ++ends; });
    feed.start("full1", 1, false);
    feed.onEvent(state(2, "ongoing"));
    REQUIRE(ends == 0);
    feed.onEvent(state(3, "checkmate"));
    REQUIRE(ends == 1);
    // Nothing after the end: no later state, no engine progress.
    feed.onEvent(state(4, "ongoing"));
    feed.onEvent(GameEvent{GameEvent::Kind::EngineInfo, "g", 3, "info3"});
    REQUIRE(sent.size() == 3);
    REQUIRE(nlohmann::json::parse(sent[2])["status"] == "checkmate");
    REQUIRE(ends == 1);

    // A game already over when subscribed: its gameFull, then the end, whatever was held back.
    std::vector<std::string> late;
    int lateEnds = 0;
    GameFeed over([&](std::string message, CoalesceKey) { late.push_back(std::move(message)); },
                  [&] { ++lateEnds; });
    over.onEvent(state(6, "ongoing"));
    over.start("full5", 5, true);
    REQUIRE(late == std::vector<std::string>{"full5"});
    REQUIRE(lateEnds == 1);

    // Without an end (a WebSocket subscription) a finished game's feed goes on.
    std::vector<std::string> kept;
    GameFeed subscription(
        [&](std::string message, CoalesceKey) { kept.push_back(std::move(message)); });
    subscription.start("full1", 1, false);
    subscription.onEvent(state(2, "resigned"));
    subscription.onEvent(state(3, "ongoing"));  // a takeback reopened it
    REQUIRE(kept.size() == 3);
}

TEST_CASE("handlers: the game stream ends after the state that ends the game",
          "[server][handlers][games]") {
    HandlerFixture f;
    auto [id, white] = f.createGame();
    const std::string black = f.lastInviteToken;
    auto stream = f.call(verb::get, "/api/v1/games/" + id + "/stream", "", {}, false);
    REQUIRE(stream->wait(1));
    const std::vector<std::pair<std::string, std::string>> foolsMate = {
        {"f2f3", white}, {"e7e5", black}, {"g2g4", white}, {"d8h4", black}};
    for (const auto& [move, token] : foolsMate) {
        REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves",
                       nlohmann::json{{"move", move}}.dump(), bearer(token))
                    ->status() == 200);
    }
    REQUIRE(stream->wait());  // complete: the server ended it
    const auto lines = stream->lines();
    REQUIRE(lines.size() == 5);
    REQUIRE(nlohmann::json::parse(lines[0])["type"] == "gameFull");
    const auto last = nlohmann::json::parse(lines[4]);
    REQUIRE(last["type"] == "gameState");
    REQUIRE(last["status"] == "checkmate");
    REQUIRE(last["winner"] == "black");
    REQUIRE(last["lastMove"] == nlohmann::json{{"uci", "d8h4"}, {"san", "Qh4#"}});
    REQUIRE(f.bus->waitNoSubscriptions());

    // The stream of a finished game: the game, and the end.
    auto after = f.call(verb::get, "/api/v1/games/" + id + "/stream", "", {}, false);
    REQUIRE(after->wait());  // complete, not merely begun
    REQUIRE(after->lines().size() == 1);
    REQUIRE(nlohmann::json::parse(after->lines()[0])["game"]["status"] == "checkmate");
    REQUIRE(f.bus->waitNoSubscriptions());
}

TEST_CASE("events: a gameState at move 100 stays small and carries every live field",
          "[server][games]") {
    GameRecord game;
    game.id = "g100";
    game.initialFen = ChessState::kStartFen;
    game.engine.side = "black";
    game.engine.level = 8;
    game.clock = ClockState{5 * kMinuteMs, 2000, 5 * kMinuteMs, 5 * kMinuteMs, 0, false};
    std::string error;
    bool badMove = false;
    ChessState state = *ChessState::load(game.initialFen, {}, error, badMove);
    // 100 plies of a game that goes on: the first legal move (in a rotating order) that does
    // not end it.
    std::int64_t now = nowEpochMs();
    for (std::size_t ply = 0; ply < 100; ++ply) {
        const auto legal = state.legalMoves();
        REQUIRE_FALSE(legal.empty());
        bool played = false;
        for (std::size_t k = 0; k < legal.size() && !played; ++k) {
            const std::string& move = legal[(ply * 7 + k) % legal.size()];
            ChessState next = state;
            next.play(move);
            if (next.outcome()) continue;
            now += 1000;
            REQUIRE(applyMove(game, state, move, now));
            played = true;
        }
        REQUIRE(played);
    }
    REQUIRE(game.moves.size() == 100);
    REQUIRE(game.moveClocksMs.size() == 100);
    const nlohmann::json gameState = gameStateJson(game, state, now);
    const std::string wire = gameState.dump();
    INFO(wire);
    CHECK(wire.size() < 1500);
    // The whole game is much larger: the state does not grow with the moves.
    CHECK(gameJson(game, state, now).dump().size() > 2 * wire.size());
    for (const char* field :
         {"type", "gameId", "version", "fen", "lastMove", "moveCount", "turn", "status", "result",
          "reason", "winner", "clock", "drawOffer", "takebackOffer", "presence", "legalMoves",
          "engineThinking", "opening"}) {
        INFO(field);
        CHECK(gameState.contains(field));
    }
    CHECK(gameState["type"] == "gameState");
    CHECK(gameState["moveCount"] == 100);
    CHECK(gameState["lastMove"]["uci"] == game.moves.back());
    CHECK(gameState["clock"]["at"] == now);
    CHECK(gameState["engineThinking"] == false);  // White to move; the engine plays Black
    CHECK(gameState["fen"] == state.fen());
}

TEST_CASE("games: each move's clock is stored and exported, and the PGN has TimeControl",
          "[server][handlers][games][clock]") {
    HandlerFixture f;
    auto [id, white] = f.createGame({{"clock", {{"initial", 5 * kMinuteMs}, {"increment", 2000}}}});
    const std::string black = f.lastInviteToken;
    const std::int64_t before = nowEpochMs();
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})", bearer(white))
                ->status() == 200);
    REQUIRE(f.call(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e5"})", bearer(black))
                ->status() == 200);
    const GameRecord stored = *f.context.store->get(id).game;
    REQUIRE(stored.moveClocksMs.size() == 2);
    CHECK(stored.moveClocksMs[0] == 5 * kMinuteMs + 2000);  // the clock starts with this move
    CHECK(stored.moveClocksMs[1] <= 5 * kMinuteMs + 2000);
    CHECK(stored.moveClocksMs[1] > 5 * kMinuteMs);

    // Every clock reading says when it was read, in the server's time.
    const auto game = f.call(verb::get, "/api/v1/games/" + id)->json();
    CHECK(game["clock"]["at"].get<std::int64_t>() >= before);
    CHECK(game["clock"]["at"].get<std::int64_t>() <= nowEpochMs());

    const std::string pgn = f.call(verb::get, "/api/v1/games/" + id + "/pgn")->response().body();
    INFO(pgn);
    CHECK(pgn.find("[TimeControl \"300+2\"]") != std::string::npos);
    CHECK(pgn.find("1. e4 { [%clk 0:05:02] } 1... e5 { [%clk 0:05:0") != std::string::npos);

    // Without a clock: TimeControl "-", no [%clk].
    auto [plain, plainToken] = f.createGame();
    REQUIRE(f.call(verb::post, "/api/v1/games/" + plain + "/moves", R"({"move":"d4"})",
                   bearer(plainToken))
                ->status() == 200);
    const std::string plainPgn =
        f.call(verb::get, "/api/v1/games/" + plain + "/pgn")->response().body();
    CHECK(plainPgn.find("[TimeControl \"-\"]") != std::string::npos);
    CHECK(plainPgn.find("%clk") == std::string::npos);
    CHECK(pgnClock(3'723'999) == "1:02:03");
}

TEST_CASE("store: each move's clock survives the stored form, and older records load without it",
          "[server][store][clock]") {
    GameRecord game;
    game.id = "c1";
    game.initialFen = ChessState::kStartFen;
    game.moves = {"e2e4", "e7e5"};
    game.clock = ClockState{60000, 0, 59000, 58000, 1, true};
    game.moveClocksMs = {59000, 58000};
    nlohmann::json stored = toStoredJson(game);
    REQUIRE(gameRecordFromStoredJson(stored) == game);
    stored.erase("moveClocksMs");  // as stored before it existed
    const GameRecord old = gameRecordFromStoredJson(stored);
    CHECK(old.moveClocksMs.empty());
    CHECK(old.moves == game.moves);
    // Exported without [%clk] for the moves it does not know.
    CHECK(gamePgn(old).find("%clk") == std::string::npos);
}

TEST_CASE(
    "handlers: a move against the engine is answered at once, and the reply comes on the stream",
    "[server][handlers][games]") {
    HandlerFixture f;
    auto [id, token] = f.createGame({{"engine", {{"side", "black"}, {"level", 1}}}});
    const std::string base = "/api/v1/games/" + id;
    auto stream = f.call(verb::get, base + "/stream", "", {}, false);
    REQUIRE(stream->wait(1));
    f.control->closeGate();  // the engine thinks until the test lets it answer
    auto moved = f.call(verb::post, base + "/moves", R"({"move":"e4"})", bearer(token));
    REQUIRE(moved->status() == 200);
    const auto answer = moved->json();
    CHECK(answer["moves"].size() == 1);
    CHECK(answer["version"] == 2);
    CHECK(answer["engineThinking"] == true);
    CHECK_FALSE(answer.contains("engineMove"));
    REQUIRE(f.control->waitStarted(1));
    f.control->openGate();
    // gameFull, the move's state, engine progress, and the engine's move.
    std::vector<nlohmann::json> states;
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (states.size() < 2 && std::chrono::steady_clock::now() < deadline) {
        states.clear();
        for (const auto& line : stream->lines()) {
            const auto message = nlohmann::json::parse(line);
            if (message["type"] == "gameState") states.push_back(message);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    REQUIRE(states.size() == 2);
    CHECK(states[0]["version"] == 2);
    CHECK(states[0]["engineThinking"] == true);
    CHECK(states[1]["version"] == 3);
    CHECK(states[1]["moveCount"] == 2);
    CHECK(states[1]["engineThinking"] == false);
    CHECK(states[1]["turn"] == "white");

    // "wait": the answer after the engine's reply, with it.
    auto waited =
        f.call(verb::post, base + "/moves", R"({"move":"d4","wait":true})", bearer(token));
    REQUIRE(waited->status() == 200);
    CHECK(waited->json()["moves"].size() == 4);
    CHECK(waited->json()["engineMove"]["move"] == waited->json()["moves"][3]);
    CHECK(waited->json()["engineThinking"] == false);
    // A "wait" that is not a boolean changes nothing.
    auto bad = f.call(verb::post, base + "/moves", R"({"move":"c4","wait":"yes"})", bearer(token));
    CHECK(bad->status() == 400);
    CHECK(f.context.store->get(id).game->moves.size() == 4);
    stream->disconnect();
}
