// A scripted Searcher for tests: reports one iteration per depth with the first legal move as
// its PV, and can be held ("gate") until a test releases it or stops the search. It stands in
// for the engine only where a test needs control over timing (overload, rate limits, stop).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "games/chess_rules.h"
#include "search/searcher.h"

namespace outpost::server::testing {

struct FakeControl {
    std::mutex mutex;
    std::condition_variable changed;
    bool gateClosed = false;  // searches wait at the start until opened (or stopped)
    std::atomic<int> started{0};
    std::atomic<int> finished{0};
    int defaultDepth = 3;
    std::chrono::milliseconds perIteration{1};
    // Each iteration scores depth * scorePerDepth centipawns for the side to move.
    std::atomic<int> scorePerDepth{10};

    void closeGate() {
        std::lock_guard lock(mutex);
        gateClosed = true;
    }
    void openGate() {
        {
            std::lock_guard lock(mutex);
            gateClosed = false;
        }
        changed.notify_all();
    }
    // Waits until `count` searches have started (or a timeout); true when they have.
    bool waitStarted(int count, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (started.load() < count) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
    }
};

class FakeSearcher final : public Searcher {
  public:
    explicit FakeSearcher(std::shared_ptr<FakeControl> control) : control_(std::move(control)) {}

    SearchResult run(const SearchRequest& request, const SearchCallbacks& callbacks) override {
        stopped_ = false;
        ++control_->started;
        std::string error;
        bool badMove = false;
        auto state = ChessState::load(request.fen, request.moves, error, badMove);
        if (!state) throw std::invalid_argument(error);
        const auto legal = state->legalMoves();
        SearchResult result;
        result.bestmove = legal.empty() ? "0000" : legal.front();
        {
            std::unique_lock lock(control_->mutex);
            control_->changed.wait(lock, [&] { return !control_->gateClosed || stopped_.load(); });
        }
        const int depth = request.limits.depth.value_or(control_->defaultDepth);
        for (int d = 1; d <= depth && !stopped_.load(); ++d) {
            std::this_thread::sleep_for(control_->perIteration);
            SearchInfo info;
            info.depth = d;
            info.seldepth = d;
            info.score.value = control_->scorePerDepth.load() * d;
            info.nodes = 100 * static_cast<std::uint64_t>(d);
            info.nps = 100000;
            info.timeMs = d;
            if (!legal.empty()) info.pv = {legal.front()};
            for (int line = 1; line <= request.multiPv; ++line) {
                info.multipv = line;
                if (callbacks.onInfo) callbacks.onInfo(info);
            }
            result.info = info;
            result.info.multipv = 1;
        }
        result.stopped = stopped_.load();
        ++control_->finished;
        return result;
    }
    void stop() override {
        {
            std::lock_guard lock(control_->mutex);
            stopped_ = true;
        }
        control_->changed.notify_all();
    }

  private:
    std::shared_ptr<FakeControl> control_;
    std::atomic<bool> stopped_{false};
};

inline SearcherFactory fakeSearchers(const std::shared_ptr<FakeControl>& control) {
    return [control] { return std::make_unique<FakeSearcher>(control); };
}

}  // namespace outpost::server::testing
