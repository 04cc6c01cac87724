// Shared test fixtures: a recording ResponseSink (handlers without sockets), a ServerContext with
// scripted searchers, and a real server on an ephemeral port.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fake_searcher.h"
#include "router.h"
#include "server.h"
#include "store/memory_game_store.h"

namespace outpost::server::testing {

inline constexpr auto kWait = std::chrono::seconds(20);

// Request headers, and a player's token as its bearer.
using Headers = std::vector<std::pair<std::string, std::string>>;
inline Headers as(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}

// Polls `check` until it holds (or kWait); true when it did.
template <typename Check>
bool eventually(Check check) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (!check()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

// Records what a handler answers; wait() blocks until the exchange is complete. The exchange
// ends (onEnd callbacks run) with respond(), endStream() or disconnect(), as in a session.
class RecordingSink final : public ResponseSink {
  public:
    void respond(Response response) override {
        {
            std::lock_guard lock(mutex_);
            response_ = std::move(response);
            complete_ = true;
            changed_.notify_all();
        }
        end();
    }
    // Keeps the shared body (sharedBody()) and, for the tests' reading, a copy in response().
    void respondShared(Response header, std::shared_ptr<const std::string> body) override {
        {
            std::lock_guard lock(mutex_);
            sharedBody_ = body;
        }
        header.body() = *body;
        respond(std::move(header));
    }
    void startStream(Response header) override {
        std::lock_guard lock(mutex_);
        response_ = std::move(header);
        streaming_ = true;
        changed_.notify_all();
    }
    void streamLine(std::string line, CoalesceKey) override {
        std::lock_guard lock(mutex_);
        lines_.push_back(std::move(line));
        changed_.notify_all();
    }
    void endStream() override {
        {
            std::lock_guard lock(mutex_);
            complete_ = true;
            changed_.notify_all();
        }
        end();
    }
    void onDisconnect(std::function<void()> callback) override {
        std::lock_guard lock(mutex_);
        disconnect_.push_back(std::move(callback));
    }
    void onEnd(std::function<void()> callback) override {
        {
            std::lock_guard lock(mutex_);
            if (!ended_) {
                end_.push_back(std::move(callback));
                return;
            }
        }
        callback();
    }
    void disconnect() {
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(mutex_);
            if (ended_) return;  // the exchange is over: nothing left to stop
            callbacks.swap(disconnect_);
        }
        for (auto& callback : callbacks) callback();
        end();
    }
    bool ended() {
        std::lock_guard lock(mutex_);
        return ended_;
    }

    // Waits for the whole answer (or until `lines` stream lines arrived when lines > 0).
    bool wait(std::size_t lines = 0) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(
            lock, kWait, [&] { return complete_ || (lines > 0 && lines_.size() >= lines); });
    }
    Response response() {
        std::lock_guard lock(mutex_);
        return response_;
    }
    unsigned status() { return response().result_int(); }
    // The body given to respondShared(), null when the answer came through respond().
    std::shared_ptr<const std::string> sharedBody() {
        std::lock_guard lock(mutex_);
        return sharedBody_;
    }
    nlohmann::json json() { return nlohmann::json::parse(response().body()); }
    std::string errorCode() { return json()["error"]["code"].get<std::string>(); }
    std::vector<std::string> lines() {
        std::lock_guard lock(mutex_);
        return lines_;
    }
    bool streaming() {
        std::lock_guard lock(mutex_);
        return streaming_;
    }

  private:
    void end() {
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(mutex_);
            if (ended_) return;
            ended_ = true;
            callbacks.swap(end_);
            disconnect_.clear();
        }
        for (auto& callback : callbacks) callback();
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    Response response_;
    std::shared_ptr<const std::string> sharedBody_;
    bool complete_ = false;
    bool streaming_ = false;
    bool ended_ = false;
    std::vector<std::string> lines_;
    std::vector<std::function<void()>> disconnect_;
    std::vector<std::function<void()>> end_;
};

// An in-memory event bus that counts live subscriptions, so tests can check that every
// subscriber (NDJSON stream, WebSocket) lets go of the bus when it ends.
class CountingEventBus final : public GameEventBus {
  public:
    SubscriptionId subscribe(const std::string& gameId, Handler handler) override {
        {
            std::lock_guard lock(subscriberMutex_);
            lastSubscriber_ = std::this_thread::get_id();
        }
        active_.fetch_add(1);
        return bus_.subscribe(gameId, std::move(handler));
    }
    void unsubscribe(SubscriptionId id) override {
        active_.fetch_sub(1);
        bus_.unsubscribe(id);
    }
    void publish(const GameEvent& event) override { bus_.publish(event); }

    int active() const { return active_.load(); }
    // True on the thread that made the latest subscription, once there is one.
    bool onLastSubscriberThread() {
        std::lock_guard lock(subscriberMutex_);
        return active() > 0 && lastSubscriber_ == std::this_thread::get_id();
    }
    // True once no subscription is left (polls until kWait).
    bool waitNoSubscriptions() const {
        const auto deadline = std::chrono::steady_clock::now() + kWait;
        while (active() != 0 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return active() == 0;
    }

  private:
    MemoryEventBus bus_;
    std::atomic<int> active_{0};
    std::mutex subscriberMutex_;
    std::thread::id lastSubscriber_;
};

inline ServerConfig testConfig() {
    ServerConfig config;
    config.bind = "127.0.0.1";
    config.port = 0;
    config.ioThreads = 2;
    config.searchThreads = 2;
    config.hashMb = 1;
    config.queueSize = 8;
    config.perClientSearches = 8;
    config.defaultMovetimeMs = 50;
    config.drainGraceMs = 200;
    config.logRequests = false;
    // These tests keep games in memory (ServerParts' store, HandlerFixture's MemoryGameStore);
    // say so, since the server's own default is the SQLite file.
    config.store = "memory";
    // Tests create games by the dozen from one address; the quota has tests of its own.
    config.perClientGamesPerMinute = 0;
    // ... and every one of them counts against the engine's game limit.
    config.perClientEngineGames = 1 << 20;
    // The clocks of a game between people start with its first move, as before first-move
    // deadlines existed (the flag and clock tests play one side); tests/server/test_fair_play.cpp
    // covers the deadline.
    config.firstMoveDeadlineMs = 0;
    return config;
}

// Handlers without sockets: a context with an in-memory store and scripted searchers.
struct HandlerFixture {
    // `store`: in memory unless given.
    // `wall`: this replica's wall clock (tests give one that is off).
    explicit HandlerFixture(ServerConfig config = testConfig(),
                            std::shared_ptr<GameStore> store = nullptr, WallClock wall = nowEpochMs)
        : control(std::make_shared<FakeControl>()),
          bus(std::make_shared<CountingEventBus>()),
          context(
              config, store ? std::move(store) : std::make_shared<MemoryGameStore>(), bus,
              std::make_unique<SearchPool>(PoolOptions{config.effectiveSearchThreads(),
                                                       config.queueSize, config.perClientSearches},
                                           fakeSearchers(control)),
              nullptr, std::move(wall)) {
        context.measureClock();  // as Server::start() does
        context.ready = true;
    }

    std::shared_ptr<RecordingSink> call(
        http::verb method, const std::string& target, const std::string& body = "",
        const std::vector<std::pair<std::string, std::string>>& headers = {}, bool wait = true) {
        Request request{method, target, 11};
        request.body() = body;
        for (const auto& [name, value] : headers) request.set(name, value);
        request.prepare_payload();
        auto sink = std::make_shared<RecordingSink>();
        handleHttp(context, std::move(request), ClientInfo{clientAddress}, sink);
        if (wait) sink->wait();
        return sink;
    }

    // Creates a game; returns {id, token}. Between people the token moves White, and
    // lastInviteToken Black.
    std::pair<std::string, std::string> createGame(
        const nlohmann::json& body = nlohmann::json::object()) {
        auto sink = call(http::verb::post, "/api/v1/games", body.dump());
        auto json = sink->json();
        lastInviteToken = json.value("inviteToken", "");
        return {json.at("id").get<std::string>(), json.at("playerToken").get<std::string>()};
    }
    std::string lastInviteToken;
    std::string clientAddress = "127.0.0.1";  // whom call() sends as

    std::shared_ptr<FakeControl> control;
    std::shared_ptr<CountingEventBus> bus;
    ServerContext context;
};

// The real server on 127.0.0.1:<ephemeral>, with scripted searchers unless told otherwise.
struct LiveServer {
    // `store`: in memory unless given.
    explicit LiveServer(ServerConfig config = testConfig(), bool realEngine = false,
                        std::shared_ptr<GameStore> store = nullptr)
        : control(std::make_shared<FakeControl>()), bus(std::make_shared<CountingEventBus>()) {
        ServerParts parts;
        parts.bus = bus;
        parts.store = std::move(store);
        if (!realEngine) parts.searchers = fakeSearchers(control);
        server = std::make_unique<Server>(config, std::move(parts));
        server->start();
    }
    ~LiveServer() {
        control->openGate();
        server->shutdown();
        server->wait();
    }
    unsigned short port() const { return server->port(); }

    std::shared_ptr<FakeControl> control;
    std::shared_ptr<CountingEventBus> bus;
    std::unique_ptr<Server> server;
};

}  // namespace outpost::server::testing
