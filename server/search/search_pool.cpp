#include "search/search_pool.h"

#include <algorithm>
#include <stdexcept>

namespace outpost::server {

namespace {
// A job stopped before it started still owes its client a move: the cheapest search gives one.
constexpr int kStoppedBeforeStartDepth = 1;

std::int64_t millisSince(std::chrono::steady_clock::time_point start,
                         std::chrono::steady_clock::time_point end) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(end - start).count();
}
}  // namespace

const char* toString(Admission admission) {
    switch (admission) {
        case Admission::Accepted:
            return "accepted";
        case Admission::Overloaded:
            return "overloaded";
        case Admission::RateLimited:
            return "rate_limited";
        case Admission::ShuttingDown:
            return "shutting_down";
    }
    return "unknown";
}

void SearchJob::stop() {
    std::lock_guard lock(mutex_);
    stopRequested_ = true;
    if (runningOn_) runningOn_->stop();
}

SearchPool::SearchPool(PoolOptions options, const SearcherFactory& factory) : options_(options) {
    const int threads = std::max(1, options_.threads);
    for (int i = 0; i < threads; ++i) searchers_.push_back(factory());
    for (int i = 0; i < threads; ++i) {
        workers_.emplace_back([this, i] { workerLoop(*searchers_[i]); });
    }
}

SearchPool::~SearchPool() {
    {
        std::lock_guard lock(mutex_);
        shuttingDown_ = true;
        draining_ = true;
    }
    stopAll();
    workAvailable_.notify_all();
    for (auto& worker : workers_) worker.join();
}

Submission SearchPool::submit(const std::string& clientKey, SearchRequest request,
                              JobCallbacks callbacks) {
    std::lock_guard lock(mutex_);
    if (draining_) return {Admission::ShuttingDown, nullptr};
    auto clientIt = perClient_.find(clientKey);
    if (clientIt != perClient_.end() && clientIt->second >= options_.perClientLimit) {
        return {Admission::RateLimited, nullptr};
    }
    const std::size_t idleWorkers = workers_.size() - runningJobs_.size();
    if (queue_.size() >= options_.queueCapacity + idleWorkers) {
        return {Admission::Overloaded, nullptr};
    }
    auto job = std::shared_ptr<SearchJob>(
        new SearchJob(nextId_++, clientKey, std::move(request), std::move(callbacks)));
    job->enqueuedAt_ = std::chrono::steady_clock::now();
    ++perClient_[clientKey];
    queue_.push_back(job);
    workAvailable_.notify_one();
    return {Admission::Accepted, job};
}

void SearchPool::workerLoop(Searcher& searcher) {
    for (;;) {
        std::shared_ptr<SearchJob> job;
        {
            std::unique_lock lock(mutex_);
            workAvailable_.wait(lock, [&] { return shuttingDown_ || !queue_.empty(); });
            if (queue_.empty()) return;  // shutting down with nothing left to answer
            job = std::move(queue_.front());
            queue_.pop_front();
            runningJobs_.push_back(job);
        }
        runJob(searcher, job);
        {
            std::lock_guard lock(mutex_);
            runningJobs_.erase(std::find(runningJobs_.begin(), runningJobs_.end(), job));
            if (--perClient_[job->clientKey_] == 0) perClient_.erase(job->clientKey_);
            if (queue_.empty() && runningJobs_.empty()) idle_.notify_all();
        }
    }
}

void SearchPool::runJob(Searcher& searcher, const std::shared_ptr<SearchJob>& job) {
    const auto startedAt = std::chrono::steady_clock::now();
    SearchRequest request = job->request_;
    {
        std::lock_guard lock(job->mutex_);
        job->runningOn_ = &searcher;
        if (job->stopRequested_) {
            request.limits = SearchLimits{};
            request.limits.depth = kStoppedBeforeStartDepth;
        }
    }
    // A stop() that lands between runningOn_ being set and the engine resetting its stop flag
    // would be lost; checking the flag again at every report closes that window.
    auto stopIfRequested = [&job, &searcher] {
        std::lock_guard lock(job->mutex_);
        if (job->stopRequested_) searcher.stop();
    };
    SearchCallbacks callbacks;
    callbacks.onInfo = [&](const SearchInfo& info) {
        stopIfRequested();
        if (!job->callbacks_.onInfo) return;
        try {
            job->callbacks_.onInfo(info);
        } catch (const std::exception& error) {
            reportCallbackError(error.what());
        } catch (...) {
            reportCallbackError("unknown exception in onInfo");
        }
    };
    callbacks.onCurrMove = [&](const std::string&, int, int) { stopIfRequested(); };

    JobOutcome outcome;
    try {
        outcome.result = searcher.run(request, callbacks);
    } catch (const std::exception& error) {
        outcome.error = error.what();
    }
    const auto finishedAt = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(job->mutex_);
        job->runningOn_ = nullptr;
        if (job->stopRequested_) outcome.result.stopped = true;
    }
    outcome.timing.queueWaitMs = millisSince(job->enqueuedAt_, startedAt);
    outcome.timing.searchMs = millisSince(startedAt, finishedAt);
    if (job->callbacks_.onDone) {
        try {
            job->callbacks_.onDone(outcome);
        } catch (const std::exception& error) {
            reportCallbackError(error.what());
        } catch (...) {
            reportCallbackError("unknown exception in onDone");
        }
    }
    // Callbacks often capture their session; release them now rather than when the job handle dies.
    job->callbacks_ = {};
}

void SearchPool::reportCallbackError(const char* what) const {
    if (!callbackError_) return;
    try {
        callbackError_("pool", what);
    } catch (...) {
        // The handler logs; a failing log must not end the searcher thread either.
    }
}

void SearchPool::beginDrain() {
    std::lock_guard lock(mutex_);
    draining_ = true;
}

bool SearchPool::draining() const {
    std::lock_guard lock(mutex_);
    return draining_;
}

void SearchPool::stopAll() {
    std::vector<std::shared_ptr<SearchJob>> jobs;
    {
        std::lock_guard lock(mutex_);
        jobs.assign(queue_.begin(), queue_.end());
        jobs.insert(jobs.end(), runningJobs_.begin(), runningJobs_.end());
    }
    for (const auto& job : jobs) job->stop();
}

bool SearchPool::waitIdle(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return idle_.wait_for(lock, timeout, [&] { return queue_.empty() && runningJobs_.empty(); });
}

std::uint64_t SearchPool::running() const {
    std::lock_guard lock(mutex_);
    return runningJobs_.size();
}

std::uint64_t SearchPool::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

}  // namespace outpost::server
