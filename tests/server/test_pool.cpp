// The search pool with a searcher that needs no chess: it reports `depth` iterations and can be
// held at a gate, so admission (503/429), stop and drain are tested deterministically.
#include <catch2/catch.hpp>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "search/search_pool.h"

using namespace outpost;
using namespace outpost::server;

namespace {

struct Gate {
    std::mutex mutex;
    std::condition_variable changed;
    bool closed = false;
    std::atomic<int> started{0};
    void open() {
        {
            std::lock_guard lock(mutex);
            closed = false;
        }
        changed.notify_all();
    }
};

class GatedSearcher final : public Searcher {
  public:
    explicit GatedSearcher(std::shared_ptr<Gate> gate) : gate_(std::move(gate)) {}
    SearchResult run(const SearchRequest& request, const SearchCallbacks& callbacks) override {
        stopped_ = false;
        ++gate_->started;
        if (request.fen == "throw") throw std::invalid_argument("bad fen");
        {
            std::unique_lock lock(gate_->mutex);
            gate_->changed.wait(lock, [&] { return !gate_->closed || stopped_.load(); });
        }
        SearchResult result;
        const int depth = request.limits.depth.value_or(3);
        for (int d = 1; d <= depth; ++d) {
            SearchInfo info;
            info.depth = d;
            if (callbacks.onInfo) callbacks.onInfo(info);
            result.info = info;
            if (stopped_.load()) break;
        }
        result.bestmove = "e2e4";
        result.stopped = stopped_.load();
        return result;
    }
    void stop() override {
        {
            std::lock_guard lock(gate_->mutex);
            stopped_ = true;
        }
        gate_->changed.notify_all();
    }

  private:
    std::shared_ptr<Gate> gate_;
    std::atomic<bool> stopped_{false};
};

SearchRequest depth(int d) {
    SearchRequest request;
    request.limits.depth = d;
    return request;
}

struct Collector {
    std::promise<JobOutcome> promise;
    std::atomic<int> infos{0};
    JobCallbacks callbacks() {
        JobCallbacks c;
        c.onInfo = [this](const SearchInfo&) { ++infos; };
        c.onDone = [this](const JobOutcome& outcome) { promise.set_value(outcome); };
        return c;
    }
};

bool waitFor(const std::function<bool()>& condition) {
    for (int i = 0; i < 5000 && !condition(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return condition();
}

}  // namespace

TEST_CASE("pool: runs jobs, reports infos, queue wait and search time", "[server][pool]") {
    auto gate = std::make_shared<Gate>();
    SearchPool pool({2, 8, 4}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    REQUIRE(pool.threads() == 2);
    Collector c;
    auto submission = pool.submit("client", depth(4), c.callbacks());
    REQUIRE(submission.admission == Admission::Accepted);
    JobOutcome outcome = c.promise.get_future().get();
    REQUIRE(outcome.result.bestmove == "e2e4");
    REQUIRE(outcome.result.info.depth == 4);
    REQUIRE(c.infos == 4);
    REQUIRE(outcome.timing.queueWaitMs >= 0);
    REQUIRE(outcome.timing.searchMs >= 0);
    REQUIRE_FALSE(outcome.result.stopped);
    REQUIRE(pool.waitIdle(std::chrono::seconds(5)));
}

TEST_CASE("pool: full queue is overloaded, per-client limit is rate limited", "[server][pool]") {
    auto gate = std::make_shared<Gate>();
    gate->closed = true;
    // 1 searcher, 2 queue slots, 2 searches per client.
    SearchPool pool({1, 2, 2}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    Collector a1, a2, b1, c1, d1;
    REQUIRE(pool.submit("a", depth(1), a1.callbacks()).admission == Admission::Accepted);
    REQUIRE(waitFor([&] { return gate->started.load() == 1; }));
    REQUIRE(pool.submit("a", depth(1), a2.callbacks()).admission == Admission::Accepted);
    Collector rejected;
    REQUIRE(pool.submit("a", depth(1), rejected.callbacks()).admission == Admission::RateLimited);
    REQUIRE(pool.submit("b", depth(1), b1.callbacks()).admission == Admission::Accepted);
    REQUIRE(pool.queued() == 2);
    REQUIRE(pool.running() == 1);
    REQUIRE(pool.submit("c", depth(1), c1.callbacks()).admission == Admission::Overloaded);
    gate->open();
    for (Collector* c : {&a1, &a2, &b1})
        REQUIRE(c->promise.get_future().get().result.bestmove == "e2e4");
    REQUIRE(pool.waitIdle(std::chrono::seconds(5)));
    // Capacity is back.
    REQUIRE(pool.submit("a", depth(1), d1.callbacks()).admission == Admission::Accepted);
    d1.promise.get_future().get();
}

TEST_CASE("pool: stop ends a running job, and a queued one still answers", "[server][pool]") {
    auto gate = std::make_shared<Gate>();
    gate->closed = true;
    SearchPool pool({1, 4, 4}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    Collector running, queued;
    auto first = pool.submit("x", depth(50), running.callbacks());
    REQUIRE(waitFor([&] { return gate->started.load() == 1; }));
    auto second = pool.submit("x", depth(50), queued.callbacks());
    second.job->stop();  // before it starts: it runs at depth 1 so there is a move
    first.job->stop();
    JobOutcome a = running.promise.get_future().get();
    REQUIRE(a.result.stopped);
    REQUIRE(a.result.bestmove == "e2e4");
    gate->open();
    JobOutcome b = queued.promise.get_future().get();
    REQUIRE(b.result.stopped);
    REQUIRE(b.result.info.depth <= 1);
    first.job->stop();  // after the end: harmless
}

TEST_CASE("pool: a stopped queued analysis counts against neither the client nor the queue",
          "[server][pool]") {
    // A client whose page reloads while every searcher is busy: its abandoned searches wait only
    // to answer at depth 1, and must not get its new ones refused (429) nor fill the queue (503).
    auto gate = std::make_shared<Gate>();
    gate->closed = true;
    Collector running, abandoned, again, other;
    // 1 searcher, 1 queue slot, 2 searches per client.
    SearchPool pool({1, 1, 2}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    // A failed REQUIRE leaves the gate open, so the pool's destructor can answer every job.
    struct OpenAtExit {
        Gate& gate;
        ~OpenAtExit() { gate.open(); }
    } openAtExit{*gate};
    auto first = pool.submit("a", depth(50), running.callbacks());
    REQUIRE(waitFor([&] { return gate->started.load() == 1; }));
    auto second = pool.submit("a", depth(50), abandoned.callbacks());
    REQUIRE(second.admission == Admission::Accepted);
    Collector refused;
    REQUIRE(pool.submit("b", depth(1), refused.callbacks()).admission == Admission::Overloaded);
    second.job->stop();  // the client went away: its queued search is stopped, not yet answered
    REQUIRE(pool.submit("a", depth(1), again.callbacks()).admission == Admission::Accepted);
    Collector refusedAgain;
    REQUIRE(pool.submit("b", depth(1), refusedAgain.callbacks()).admission ==
            Admission::Overloaded);  // the new live search holds the one slot
    first.job->stop();
    REQUIRE(running.promise.get_future().get().result.stopped);
    gate->open();
    JobOutcome stopped = abandoned.promise.get_future().get();
    REQUIRE(stopped.result.stopped);
    REQUIRE(stopped.result.info.depth <= 1);
    REQUIRE(again.promise.get_future().get().result.bestmove == "e2e4");
    REQUIRE(pool.waitIdle(std::chrono::seconds(5)));
    REQUIRE(pool.submit("b", depth(1), other.callbacks()).admission == Admission::Accepted);
    other.promise.get_future().get();
}

TEST_CASE("pool: a searcher error is reported, not thrown", "[server][pool]") {
    auto gate = std::make_shared<Gate>();
    SearchPool pool({1, 4, 4}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    Collector c;
    SearchRequest request;
    request.fen = "throw";
    REQUIRE(pool.submit("x", request, c.callbacks()).admission == Admission::Accepted);
    JobOutcome outcome = c.promise.get_future().get();
    REQUIRE(outcome.error == "bad fen");
}

TEST_CASE("pool: drain refuses new jobs, stopAll ends running ones", "[server][pool]") {
    auto gate = std::make_shared<Gate>();
    gate->closed = true;
    SearchPool pool({2, 4, 4}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    Collector a, b;
    REQUIRE(pool.submit("x", depth(10), a.callbacks()).admission == Admission::Accepted);
    REQUIRE(pool.submit("y", depth(10), b.callbacks()).admission == Admission::Accepted);
    REQUIRE(waitFor([&] { return gate->started.load() == 2; }));
    pool.beginDrain();
    REQUIRE(pool.draining());
    Collector late;
    REQUIRE(pool.submit("z", depth(1), late.callbacks()).admission == Admission::ShuttingDown);
    REQUIRE_FALSE(pool.waitIdle(std::chrono::milliseconds(20)));
    pool.stopAll();
    REQUIRE(pool.waitIdle(std::chrono::seconds(5)));
    REQUIRE(a.promise.get_future().get().result.stopped);
    REQUIRE(b.promise.get_future().get().result.stopped);
}

TEST_CASE("pool: many clients, many jobs, every onDone exactly once",
          "[server][pool][concurrency]") {
    auto gate = std::make_shared<Gate>();
    SearchPool pool({3, 64, 64}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    constexpr int kJobs = 60;
    std::atomic<int> done{0};
    std::vector<std::thread> submitters;
    for (int t = 0; t < 4; ++t) {
        submitters.emplace_back([&, t] {
            for (int i = 0; i < kJobs / 4; ++i) {
                JobCallbacks callbacks;
                callbacks.onDone = [&](const JobOutcome&) { ++done; };
                auto s = pool.submit("c" + std::to_string(t), depth(2), callbacks);
                if (s.admission == Admission::Accepted && i % 3 == 0) s.job->stop();
                if (s.admission != Admission::Accepted) ++done;
            }
        });
    }
    for (auto& thread : submitters) thread.join();
    REQUIRE(pool.waitIdle(std::chrono::seconds(10)));
    REQUIRE(done.load() == kJobs);
}

// Issue 16, item 5: a game's reply (a stored move waits for it) is never crowded out by analyses.
TEST_CASE("pool: game replies go first and are not refused by a full analysis queue",
          "[server][pool]") {
    auto gate = std::make_shared<Gate>();
    gate->closed = true;
    // 1 searcher, 1 analysis queue slot, 1 analysis per client.
    SearchPool pool({1, 1, 1}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    std::mutex orderMutex;
    std::vector<std::string> order;
    auto named = [&](const std::string& name) {
        JobCallbacks callbacks;
        callbacks.onDone = [&, name](const JobOutcome&) {
            std::lock_guard lock(orderMutex);
            order.push_back(name);
        };
        return callbacks;
    };
    REQUIRE(pool.submit("a", depth(1), named("running")).admission == Admission::Accepted);
    REQUIRE(waitFor([&] { return gate->started.load() == 1; }));
    REQUIRE(pool.submit("b", depth(1), named("analysis")).admission == Admission::Accepted);
    REQUIRE(pool.submit("c", depth(1), named("refused")).admission == Admission::Overloaded);
    // The same client that is at its analysis limit, with the analysis queue full: accepted.
    REQUIRE(pool.submit("a", depth(1), named("game1"), JobPriority::Game).admission ==
            Admission::Accepted);
    REQUIRE(pool.submit("b", depth(1), named("game2"), JobPriority::Game).admission ==
            Admission::Accepted);
    REQUIRE(pool.queued() == 3);
    gate->open();
    REQUIRE(pool.waitIdle(std::chrono::seconds(5)));
    REQUIRE(order == std::vector<std::string>{"running", "game1", "game2", "analysis"});
    pool.beginDrain();
    REQUIRE(pool.submit("a", depth(1), named("late"), JobPriority::Game).admission ==
            Admission::ShuttingDown);
}

namespace {
// A searcher that ignores stop() until released: an engine stuck past its hard limit.
class StuckSearcher final : public Searcher {
  public:
    explicit StuckSearcher(std::shared_ptr<Gate> release) : release_(std::move(release)) {}
    SearchResult run(const SearchRequest&, const SearchCallbacks&) override {
        std::unique_lock lock(release_->mutex);
        release_->changed.wait(lock, [&] { return !release_->closed; });
        SearchResult result;
        result.bestmove = "e2e4";
        return result;
    }
    void stop() override {}

  private:
    std::shared_ptr<Gate> release_;
};
}  // namespace

// Issue 14 (a search thread that takes too long): noticed, counted, and answered.
TEST_CASE("pool: a search stuck past every deadline is counted and answered once",
          "[server][pool]") {
    auto release = std::make_shared<Gate>();
    release->closed = true;
    PoolOptions options{1, 4, 4};
    options.overrunAfter = std::chrono::milliseconds(50);
    SearchPool pool(options, [release] { return std::make_unique<StuckSearcher>(release); });
    std::atomic<int> answers{0};
    std::promise<JobOutcome> first;
    JobCallbacks callbacks;
    callbacks.onDone = [&](const JobOutcome& outcome) {
        if (answers.fetch_add(1) == 0) first.set_value(outcome);
    };
    REQUIRE(pool.submit("c", depth(3), callbacks).admission == Admission::Accepted);
    auto answered = first.get_future();
    REQUIRE(answered.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    const JobOutcome outcome = answered.get();
    REQUIRE_FALSE(outcome.error.empty());
    REQUIRE(pool.overruns() == 1);
    REQUIRE(pool.stuck() == 1);
    release->open();  // the stuck search ends at last: its late result is not delivered again
    REQUIRE(pool.waitIdle(std::chrono::seconds(5)));
    REQUIRE(answers.load() == 1);
    REQUIRE(pool.stuck() == 0);
}

// Issue 14 (past the knee): what new games are admitted by.
TEST_CASE("pool: the game backlog reports waiting replies and their smoothed wait",
          "[server][pool]") {
    auto gate = std::make_shared<Gate>();
    gate->closed = true;
    SearchPool pool({1, 4, 4}, [gate] { return std::make_unique<GatedSearcher>(gate); });
    REQUIRE(pool.gameBacklog().queued == 0);
    REQUIRE(pool.gameBacklog().recentWaitMs == 0);
    Collector first, second, third;
    REQUIRE(pool.submit("a", depth(1), first.callbacks(), JobPriority::Game).admission ==
            Admission::Accepted);
    REQUIRE(waitFor([&] { return gate->started.load() == 1; }));
    REQUIRE(pool.submit("b", depth(1), second.callbacks(), JobPriority::Game).admission ==
            Admission::Accepted);
    REQUIRE(pool.submit("c", depth(1), third.callbacks(), JobPriority::Game).admission ==
            Admission::Accepted);
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    const GameBacklog waiting = pool.gameBacklog();
    REQUIRE(waiting.queued == 2);
    REQUIRE(waiting.oldestWaitMs >= 50);
    gate->open();
    REQUIRE(pool.waitIdle(std::chrono::seconds(5)));
    // Two replies started after waiting ~60 ms: the smoothed wait moved towards it...
    const GameBacklog after = pool.gameBacklog();
    REQUIRE(after.queued == 0);
    REQUIRE(after.recentWaitMs > 5);
    // ... and fades once nothing waits (half-life one second).
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    REQUIRE(pool.gameBacklog().recentWaitMs < after.recentWaitMs * 0.6);
}
