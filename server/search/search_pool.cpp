#include "search/search_pool.h"

#include <algorithm>
#include <cmath>
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
    stopped_.store(true);
    if (runningOn_) runningOn_->stop();
}

SearchPool::SearchPool(PoolOptions options, const SearcherFactory& factory) : options_(options) {
    const int threads = std::max(1, options_.threads);
    reviewSearchers_ = options_.reviewSearchers > 0 ? std::min(options_.reviewSearchers, threads)
                                                    : std::max(1, threads - 1);
    for (int i = 0; i < threads; ++i) searchers_.push_back(factory());
    for (int i = 0; i < threads; ++i) {
        workers_.emplace_back([this, i] { workerLoop(*searchers_[i]); });
    }
    if (options_.overrunAfter.count() > 0) watchdog_ = std::thread([this] { watchdogLoop(); });
}

SearchPool::~SearchPool() {
    {
        std::lock_guard lock(mutex_);
        shuttingDown_ = true;
        draining_ = true;
    }
    stopAll();
    workAvailable_.notify_all();
    watchdogWake_.notify_all();
    if (watchdog_.joinable()) watchdog_.join();
    for (auto& worker : workers_) worker.join();
}

void SearchPool::watchdogLoop() {
    // Look a few times per overrun period; a late answer is late by at most this much.
    const auto period = std::max(std::chrono::milliseconds(1), options_.overrunAfter / 4);
    std::unique_lock lock(mutex_);
    while (!shuttingDown_) {
        watchdogWake_.wait_for(lock, period, [&] { return shuttingDown_; });
        const auto now = std::chrono::steady_clock::now();
        std::vector<std::shared_ptr<SearchJob>> overran;
        std::vector<std::shared_ptr<SearchJob>> abandoned;
        for (const auto& job : runningJobs_) {
            const auto ran = now - job->startedAt_;
            if (ran >= options_.overrunAfter && !job->overran_) {
                job->overran_ = true;
                ++overruns_;
                overran.push_back(job);
            }
            if (ran >= 2 * options_.overrunAfter && !job->answered_.load()) {
                abandoned.push_back(job);
            }
        }
        lock.unlock();
        for (const auto& job : overran) job->stop();
        for (const auto& job : abandoned) {
            JobOutcome outcome;
            outcome.error = "the search overran every deadline and was abandoned";
            outcome.result.stopped = true;
            outcome.timing.queueWaitMs = millisSince(job->enqueuedAt_, job->startedAt_);
            outcome.timing.searchMs = millisSince(job->startedAt_, now);
            answer(*job, outcome);
        }
        lock.lock();
    }
}

void SearchPool::answer(SearchJob& job, const JobOutcome& outcome) const {
    std::lock_guard lock(job.answerMutex_);
    if (job.answered_.exchange(true) || !job.callbacks_.onDone) return;
    try {
        job.callbacks_.onDone(outcome);
    } catch (const std::exception& error) {
        reportCallbackError(error.what());
    } catch (...) {
        reportCallbackError("unknown exception in onDone");
    }
}

Submission SearchPool::submit(const std::string& clientKey, SearchRequest request,
                              JobCallbacks callbacks, JobPriority priority) {
    std::vector<std::shared_ptr<SearchJob>> preempted;
    Submission submission =
        submitLocked(clientKey, std::move(request), std::move(callbacks), priority, preempted);
    // Outside the pool's lock, like stopAll(): the job's stop takes the job's lock.
    for (const auto& job : preempted) job->stop();
    return submission;
}

Submission SearchPool::submitLocked(const std::string& clientKey, SearchRequest request,
                                    JobCallbacks callbacks, JobPriority priority,
                                    std::vector<std::shared_ptr<SearchJob>>& preempted) {
    std::lock_guard lock(mutex_);
    if (draining_) return {Admission::ShuttingDown, nullptr};
    const bool game = priority == JobPriority::Game;
    const bool review = priority == JobPriority::Review;
    const std::size_t idleWorkers =
        workers_.size() - std::min(workers_.size(), runningJobs_.size() + gameQueue_.size());
    if (game) {
        if (gameQueue_.size() >= options_.gameQueueCapacity) {
            return {Admission::Overloaded, nullptr};
        }
    } else if (review) {
        if (reviewQueue_.size() >= options_.reviewQueueCapacity) {
            return {Admission::Overloaded, nullptr};
        }
    } else {
        auto clientIt = perClient_.find(clientKey);
        if (clientIt != perClient_.end() &&
            clientIt->second - static_cast<int>(stoppedQueuedLocked(&clientKey)) >=
                options_.perClientLimit) {
            return {Admission::RateLimited, nullptr};
        }
        if (queue_.size() - stoppedQueuedLocked(nullptr) >= options_.queueCapacity + idleWorkers) {
            return {Admission::Overloaded, nullptr};
        }
    }
    auto job = std::shared_ptr<SearchJob>(
        new SearchJob(nextId_++, clientKey, std::move(request), std::move(callbacks)));
    job->enqueuedAt_ = std::chrono::steady_clock::now();
    if (game) {
        gameQueue_.push_back(job);
    } else if (review) {
        reviewQueue_.push_back(job);
    } else {
        job->countedForClient_ = true;
        ++perClient_[clientKey];
        queue_.push_back(job);
    }
    // Busy searchers: a job whose answer went out is as good as done (its searcher is about to
    // take the next job), so it does not count.
    const auto busy = static_cast<std::size_t>(
        std::count_if(runningJobs_.begin(), runningJobs_.end(),
                      [](const auto& running) { return !running->answered_.load(); }));
    if (!review && (options_.reviewsYield || busy >= workers_.size())) {
        // Every searcher is busy: a review position gives its searcher to this live job. When
        // reviews yield, every running review position stops for it.
        for (const auto& running : runningJobs_) {
            if (running->review_ && !running->preempted_) {
                running->preempted_ = true;
                ++preemptions_;
                preempted.push_back(running);
                if (!options_.reviewsYield) break;
            }
        }
    }
    workAvailable_.notify_one();
    return {Admission::Accepted, job};
}

std::size_t SearchPool::stoppedQueuedLocked(const std::string* clientKey) const {
    return static_cast<std::size_t>(
        std::count_if(queue_.begin(), queue_.end(), [&](const auto& job) {
            return job->stopped_.load() && (clientKey == nullptr || job->clientKey_ == *clientKey);
        }));
}

void SearchPool::workerLoop(Searcher& searcher) {
    for (;;) {
        std::shared_ptr<SearchJob> job;
        {
            std::unique_lock lock(mutex_);
            workAvailable_.wait(lock, [&] {
                return shuttingDown_ || !gameQueue_.empty() || !queue_.empty() ||
                       (!reviewQueue_.empty() && reviewMayStartLocked());
            });
            // At shutdown the review queue is emptied whatever the bound: every job is answered.
            const bool takeReview =
                !reviewQueue_.empty() && (reviewMayStartLocked() || shuttingDown_);
            auto& from = !gameQueue_.empty() ? gameQueue_
                         : !queue_.empty()   ? queue_
                         : takeReview        ? reviewQueue_
                                             : queue_;
            if (from.empty()) return;  // shutting down with nothing left to answer
            job = std::move(from.front());
            from.pop_front();
            job->review_ = &from == &reviewQueue_;
            if (job->review_) ++runningReviews_;
            job->startedAt_ = std::chrono::steady_clock::now();
            if (&from == &gameQueue_) {
                const auto waited =
                    static_cast<double>(millisSince(job->enqueuedAt_, job->startedAt_));
                gameWaitMs_ += kGameWaitSmoothing * (waited - gameWaitMs_);
                lastGameStart_ = job->startedAt_;
            }
            runningJobs_.push_back(job);
        }
        runJob(searcher, job);
        {
            std::lock_guard lock(mutex_);
            runningJobs_.erase(std::find(runningJobs_.begin(), runningJobs_.end(), job));
            if (job->review_) {
                --runningReviews_;
                // A review position may start now, perhaps on a searcher that waits.
                if (!reviewQueue_.empty()) workAvailable_.notify_one();
            }
            if (job->countedForClient_ && --perClient_[job->clientKey_] == 0) {
                perClient_.erase(job->clientKey_);
            }
            if (idleLocked()) idle_.notify_all();
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
        // A review position is searched fresh: the same game gives the same review.
        outcome.result =
            job->review_ ? searcher.runFresh(request, callbacks) : searcher.run(request, callbacks);
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
    answer(*job, outcome);
    // Callbacks often capture their session; release them now rather than when the job handle
    // dies (after a watchdog's answer that may still be running).
    std::lock_guard lock(job->answerMutex_);
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
        jobs.assign(gameQueue_.begin(), gameQueue_.end());
        jobs.insert(jobs.end(), queue_.begin(), queue_.end());
        jobs.insert(jobs.end(), reviewQueue_.begin(), reviewQueue_.end());
        jobs.insert(jobs.end(), runningJobs_.begin(), runningJobs_.end());
    }
    for (const auto& job : jobs) job->stop();
}

bool SearchPool::waitIdle(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return idle_.wait_for(lock, timeout, [&] { return idleLocked(); });
}

std::uint64_t SearchPool::running() const {
    std::lock_guard lock(mutex_);
    return runningJobs_.size();
}

std::uint64_t SearchPool::overruns() const {
    std::lock_guard lock(mutex_);
    return overruns_;
}

std::uint64_t SearchPool::preemptions() const {
    std::lock_guard lock(mutex_);
    return preemptions_;
}

std::uint64_t SearchPool::stuck() const {
    std::lock_guard lock(mutex_);
    return static_cast<std::uint64_t>(std::count_if(runningJobs_.begin(), runningJobs_.end(),
                                                    [](const auto& job) { return job->overran_; }));
}

GameBacklog SearchPool::gameBacklog() const {
    std::lock_guard lock(mutex_);
    GameBacklog backlog;
    backlog.queued = gameQueue_.size();
    if (!gameQueue_.empty()) {
        backlog.oldestWaitMs =
            millisSince(gameQueue_.front()->enqueuedAt_, std::chrono::steady_clock::now());
    }
    backlog.recentWaitMs = gameWaitMs_;
    if (gameQueue_.empty()) {
        // Nothing waits: the smoothed wait fades with the time since a game job last started, so
        // a quiet pool does not keep refusing new games on an old figure.
        const double idleSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - lastGameStart_)
                .count();
        backlog.recentWaitMs *= std::exp2(-idleSeconds / kGameWaitHalfLifeSeconds);
    }
    return backlog;
}

std::uint64_t SearchPool::queued() const {
    std::lock_guard lock(mutex_);
    return gameQueue_.size() + queue_.size() + reviewQueue_.size();
}

bool SearchPool::reviewMayStartLocked() const {
    if (runningReviews_ >= reviewSearchers_) return false;
    if (!options_.reviewsYield) return true;
    // Only in idle time: no live job waits or runs.
    if (!gameQueue_.empty() || !queue_.empty()) return false;
    return std::none_of(runningJobs_.begin(), runningJobs_.end(),
                        [](const auto& running) { return !running->review_; });
}

bool SearchPool::idleLocked() const {
    return gameQueue_.empty() && queue_.empty() && reviewQueue_.empty() && runningJobs_.empty();
}

}  // namespace outpost::server
