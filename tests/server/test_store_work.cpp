// Issue 16, items 4, 11 and 12: store work never runs on the thread that routes a request (the
// I/O thread in the server), a store outage says store_unavailable, and the context stops what
// calls into it before its members go.
#include <catch2/catch.hpp>
#include <future>
#include <sstream>

#include "delegating_store.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using Verb = boost::beast::http::verb;

namespace {

// A store whose game calls can hang (like Redis under SIGSTOP) or fail (like Redis down) on
// demand; the rest pass to the store underneath.
class TroubledStore final : public DelegatingStore {
  public:
    void hang() {
        std::lock_guard lock(mutex_);
        hanging_ = true;
    }
    void release() {
        {
            std::lock_guard lock(mutex_);
            hanging_ = false;
        }
        changed_.notify_all();
    }
    void fail(bool failing) { failing_ = failing; }
    int callsWaiting() const { return waiting_.load(); }

    StoreStatus create(const GameRecord& game) override {
        if (!pass()) return StoreStatus::Unavailable;
        return DelegatingStore::create(game);
    }
    StoreReadResult get(std::string_view id) override {
        if (!pass()) return {StoreStatus::Unavailable, std::nullopt};
        return DelegatingStore::get(id);
    }
    StoreManyResult getMany(const std::vector<std::string>& ids) override {
        if (!pass()) return {StoreStatus::Unavailable, {}};
        return DelegatingStore::getMany(ids);
    }
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override {
        if (!pass()) return StoreStatus::Unavailable;
        return DelegatingStore::update(game, expectedVersion);
    }
    std::uint64_t count() override { return pass() ? DelegatingStore::count() : 0; }
    bool healthy() override { return pass(); }

  private:
    bool pass() {
        std::unique_lock lock(mutex_);
        ++waiting_;
        changed_.wait(lock, [&] { return !hanging_; });
        --waiting_;
        return !failing_.load();
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    bool hanging_ = false;
    std::atomic<bool> failing_{false};
    std::atomic<int> waiting_{0};
};

}  // namespace

TEST_CASE("store work: a hung store never blocks the routing thread, /healthz answers",
          "[server][store]") {
    auto store = std::make_shared<TroubledStore>();
    HandlerFixture f(testConfig(), store);
    auto [id, token] = f.createGame();
    store->hang();
    std::vector<std::shared_ptr<RecordingSink>> stuck;
    // Each of these used to run its store call on the calling (I/O) thread.
    const std::vector<std::pair<Verb, std::string>> routes = {
        {Verb::get, "/api/v1/games/" + id},
        {Verb::get, "/api/v1/games?ids=" + id},
        {Verb::post, "/api/v1/games"},
        {Verb::get, "/readyz"},
        {Verb::get, "/metrics"},
    };
    for (const auto& [method, target] : routes) {
        INFO(target);
        auto routed = std::async(std::launch::async, [&, method = method, target = target] {
            return f.call(method, target, method == Verb::post ? "{}" : "", {}, false);
        });
        REQUIRE(routed.wait_for(std::chrono::seconds(2)) == std::future_status::ready);
        stuck.push_back(routed.get());
    }
    auto health = f.call(Verb::get, "/healthz");
    REQUIRE(health->status() == 200);
    for (auto& sink : stuck) REQUIRE_FALSE(sink->ended());
    store->release();
    for (auto& sink : stuck) REQUIRE(sink->wait());
    REQUIRE(stuck[0]->status() == 200);
}

TEST_CASE("store work: a store outage answers 503 store_unavailable, not overloaded",
          "[server][store]") {
    auto store = std::make_shared<TroubledStore>();
    HandlerFixture f(testConfig(), store);
    auto [id, token] = f.createGame();
    store->fail(true);
    for (const auto& target : {"/api/v1/games/" + id, "/api/v1/games?ids=" + id}) {
        auto sink = f.call(Verb::get, target);
        INFO(target);
        REQUIRE(sink->status() == 503);
        REQUIRE(sink->errorCode() == "store_unavailable");
        REQUIRE(sink->response()[boost::beast::http::field::retry_after] != "");
    }
    auto created = f.call(Verb::post, "/api/v1/games", "{}");
    REQUIRE(created->status() == 503);
    REQUIRE(created->errorCode() == "store_unavailable");
    REQUIRE(f.call(Verb::get, "/readyz")->status() == 503);
    store->fail(false);
    REQUIRE(f.call(Verb::get, "/readyz")->status() == 200);
}

TEST_CASE("store work: 422 answers say invalid_value, a takeback with no move says so",
          "[server][store]") {
    HandlerFixture f;
    auto limits = f.call(Verb::post, "/api/v1/analysis", R"({"limits":{"depth":0}})");
    REQUIRE(limits->status() == 422);
    REQUIRE(limits->errorCode() == "invalid_value");
    auto [id, token] = f.createGame(nlohmann::json{{"engine", {{"side", "none"}}}});
    auto takeback = f.call(Verb::post, "/api/v1/games/" + id + "/takeback/yes", "{}",
                           {{"Authorization", "Bearer " + token}});
    REQUIRE(takeback->status() == 409);
    REQUIRE(takeback->errorCode() == "nothing_to_take_back");
}

// Item 11: the pool's last callbacks (and the store work they hand on) run while the metrics,
// the logger and the store are still alive. Under ASan a wrong order is a use-after-free.
TEST_CASE("store work: destroying the context stops searches before the members they use",
          "[server][store][pool]") {
    std::ostringstream log;
    auto control = std::make_shared<FakeControl>();
    control->perIteration = std::chrono::milliseconds(50);  // 2 s a search unless stopped
    std::atomic<int> callbacks{0};
    {
        ServerConfig config = testConfig();
        ServerContext context(
            config, std::make_shared<MemoryGameStore>(), std::make_shared<CountingEventBus>(),
            std::make_unique<SearchPool>(PoolOptions{2, 8, 8}, fakeSearchers(control)), &log);
        for (int i = 0; i < 4; ++i) {
            JobCallbacks jobCallbacks;
            jobCallbacks.onDone = [&context, &callbacks](const JobOutcome& outcome) {
                context.metrics.observeSearch(0.001, outcome.result.info.nodes, true);
                context.storeWork.post([&context, &callbacks] {
                    context.logger.log({{"event", "late"}});
                    context.store->count();
                    ++callbacks;
                });
            };
            outpost::SearchRequest request;
            request.limits.depth = 40;
            REQUIRE(context.pool->submit("c", request, jobCallbacks).admission ==
                    Admission::Accepted);
        }
        REQUIRE(control->waitStarted(2));
    }  // two searches running, two queued: the destructor must stop them first
    REQUIRE(callbacks.load() == 4);
}

namespace {

// A store that makes the next update() and then answers it Unanswered, as the Redis store does
// when the write was sent and its answer never came (the store cut off or hung after it got it);
// `lost` instead drops the write, as when the store never ran it. Reads fail while `cutOff`.
class UnansweredStore final : public DelegatingStore {
  public:
    std::atomic<bool> unanswerNext{false};
    std::atomic<bool> lost{false};
    std::atomic<bool> cutOff{false};

    StoreReadResult get(std::string_view id) override {
        if (cutOff) return {StoreStatus::Unavailable, std::nullopt};
        return DelegatingStore::get(id);
    }
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override {
        if (!unanswerNext.exchange(false)) return DelegatingStore::update(game, expectedVersion);
        if (!lost) DelegatingStore::update(game, expectedVersion);
        cutOff = true;
        return StoreStatus::Unanswered;
    }
};

}  // namespace

TEST_CASE(
    "store work: a move whose store answer never came is answered write_unconfirmed, and "
    "once the store answers it is published and the engine replies",
    "[server][store]") {
    for (const bool made : {true, false}) {
        auto store = std::make_shared<UnansweredStore>();
        HandlerFixture f(testConfig(), store);
        auto [id, token] =
            f.createGame(nlohmann::json{{"engine", {{"side", "black"}, {"level", 1}}}});
        auto stream = f.call(Verb::get, "/api/v1/games/" + id + "/stream", "", {}, false);
        REQUIRE(stream->wait(1));
        store->lost = !made;
        store->unanswerNext = true;
        auto moved = f.call(Verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})",
                            {{"Authorization", "Bearer " + token}});
        // Not store_unavailable, which says nothing changed: the move may be stored.
        REQUIRE(moved->status() == 503);
        CHECK(moved->json()["error"]["code"] == "write_unconfirmed");
        CHECK(f.control->started.load() == 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(1300));  // the store still cut off
        CHECK(stream->lines().size() == 1);  // nothing published meanwhile
        store->cutOff = false;
        if (made) {
            // The move as stored reaches the stream, and the engine's reply follows at once
            // (level 1 thinks 50 ms; the grace of 3 s would come much later).
            REQUIRE(stream->wait(3));
            const auto lines = stream->lines();
            const auto state = nlohmann::json::parse(lines[1]);
            CHECK(state["type"] == "gameState");
            CHECK(state["moveCount"] == 1);
            REQUIRE(f.control->waitStarted(1, std::chrono::seconds(2)));
            const auto until = std::chrono::steady_clock::now() + kWait;
            while (store->get(id).game->moves.size() < 2 &&
                   std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            CHECK(store->get(id).game->moves.size() == 2);
        } else {
            // Not made: nothing to publish, nothing owed; the game is where it was.
            std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            CHECK(stream->lines().size() == 1);
            CHECK(f.control->started.load() == 0);
            CHECK(store->get(id).game->moves.empty());
        }
        stream->disconnect();
    }
}
