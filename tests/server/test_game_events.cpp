// How game changes reach subscribers and how clocks end games without a request: the flag
// watch, the per-subscriber feed, and their races with moves, without sockets.
#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "games/flag_watch.h"
#include "games/game_feed.h"
#include "games/game_service.h"
#include "games/game_view.h"
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
class ScriptedStore final : public GameStore {
  public:
    StoreStatus create(const GameRecord& game) override { return inner.create(game); }
    StoreReadResult get(std::string_view id) override {
        if (auto hook = std::exchange(beforeGet, nullptr)) hook();
        return inner.get(id);
    }
    StoreManyResult getMany(const std::vector<std::string>& ids) override {
        return inner.getMany(ids);
    }
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override {
        if (auto hook = std::exchange(beforeUpdate, nullptr)) hook();
        return inner.update(game, expectedVersion);
    }
    std::uint64_t count() override { return inner.count(); }

    MemoryGameStore inner;
    std::function<void()> beforeGet;
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

class RecordingOutbox final : public WsOutbox {
  public:
    void send(std::string text, bool) override {
        std::lock_guard lock(mutex_);
        messages_.push_back(nlohmann::json::parse(text));
    }
    std::vector<nlohmann::json> messages() {
        std::lock_guard lock(mutex_);
        return messages_;
    }
    // Waits until at least `count` messages were sent (or kWait); true when they were.
    bool waitFor(std::size_t count) {
        const auto deadline = std::chrono::steady_clock::now() + kWait;
        while (messages().size() < count) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return true;
    }

  private:
    std::mutex mutex_;
    std::vector<nlohmann::json> messages_;
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
    std::vector<std::pair<std::string, bool>> sent;
    GameFeed feed([&](std::string message, bool coalescable) {
        sent.emplace_back(std::move(message), coalescable);
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
    feed.start("snapshot2", 2);
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
    REQUIRE(messages[0]["type"] == "game");
    REQUIRE(messages[0]["id"] == 7);
    REQUIRE(messages[0]["game"]["version"] == 2);
    // Later changes still arrive, once each.
    REQUIRE(race.move("e5", true) == 200);
    messages = outbox->messages();
    REQUIRE(messages.size() == 2);
    REQUIRE(messages[1]["game"]["version"] == 3);
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
    REQUIRE(nlohmann::json::parse(lines[0])["game"]["version"] == 2);
    REQUIRE(nlohmann::json::parse(lines[1])["game"]["version"] == 3);
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
    GameService service(f.context);
    // The watch of version 2 is stale: whoever stored version 3 watches that one.
    service.checkDeadlines(id, aged - 1);
    REQUIRE(f.context.store->get(id).game->status == "ongoing");
    REQUIRE(log.events().empty());
    service.checkDeadlines(id, aged);
    const GameRecord game = *f.context.store->get(id).game;
    REQUIRE(game.status == "timeout");
    REQUIRE(game.result == "1-0");
    REQUIRE(game.winner == "white");
    REQUIRE(game.version == aged + 1);
    REQUIRE_FALSE(game.clock->running);
    auto events = log.events();
    REQUIRE(events.size() == 1);
    REQUIRE(events[0].version == aged + 1);
    REQUIRE(nlohmann::json::parse(events[0].payload)["game"]["status"] == "timeout");
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
        GameRecord game = *store->inner.get(id).game;
        game.moves.push_back("e7e5");
        game.clock->turnStartedAtMs = nowEpochMs();
        game.version += 1;
        REQUIRE(store->inner.update(game, aged) == StoreStatus::Ok);
    };
    GameService(f.context).checkDeadlines(id, aged);
    const GameRecord game = *store->get(id).game;
    REQUIRE(game.status == "ongoing");  // the move won; the watch lost the compare-and-set
    REQUIRE(game.moves.size() == 2);
    REQUIRE(game.version == aged + 1);
    REQUIRE(log.events().empty());  // and announced nothing
}
