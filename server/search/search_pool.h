// The search pool: a fixed set of searcher threads shared by all requests, and a bounded queue.
//
// Searches never run on I/O threads. A session submits a job with callbacks; they run on a
// searcher thread, so the session posts them to its own strand. onDone is called exactly once for
// every accepted job, also when it was stopped (a stopped search still reports its best move; a
// job stopped before it started runs a depth-1 search so there is a move to report).
//
// A watchdog (PoolOptions::overrunAfter) notices a search that runs past every deadline (an
// engine stuck beyond its hard limit): it counts it, stops it again, and after as long again
// answers the job's onDone with an error, so the request or the game is answered, never left
// waiting. onDone still runs once per job: the stuck search's own result is dropped if it ever
// comes. The searcher thread stays busy until it does (reported as stuck).
//
// Three classes of jobs: the engine's replies in games (a player's move is already stored and the
// game waits for the engine), analyses, and the positions of game reviews. A free searcher takes
// the oldest game job first, then the oldest analysis, and a review position only when neither
// waits: a review is many short jobs (one per position), so live work gets the next free
// searcher however long the review. Review positions also run on at most reviewSearchers
// searchers at once (by default all but one), so with two or more searchers one is always free
// for a game's reply or an analysis when it comes, even while reviews keep the rest busy. And
// when a game reply or an analysis is submitted while every searcher is busy, one running review
// position is stopped (preempted): its job ends with a stopped result, which the review queues
// again (ReviewRun), and the live job takes the searcher. With reviewsYield (the server's
// default) reviews use only idle time: a review position starts only while no live search runs,
// and every live job submitted stops all running review positions, since a search on another
// core still slows a live one (shared caches and memory, a lower clock with both cores busy).
//
// Admission: while draining every job is refused (ShuttingDown). Analyses: a client with
// perClientLimit analyses running or queued is refused (RateLimited -> 429); when queueCapacity
// analyses already wait for a free searcher the job is refused (Overloaded -> 503). A queued
// analysis that was stopped (its client left, or sent stop) counts against neither bound: it
// only waits to answer with a depth-1 search, so a client that reloads its page while every
// searcher is busy is not refused for the searches it abandoned. Game jobs are
// not counted against the client (its moves are bounded by its games) and wait in their own
// queue of gameQueueCapacity, so analyses can never crowd out a game's reply. Review positions
// wait in a queue of reviewQueueCapacity (beyond: Overloaded); they are not counted against the
// client either (the review service bounds reviews per client and overall).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "search/searcher.h"

namespace outpost::server {

struct JobTiming {
    std::int64_t queueWaitMs = 0;
    std::int64_t searchMs = 0;
};

struct JobOutcome {
    SearchResult result;
    JobTiming timing;
    std::string error;  // set when the searcher rejected the request (result is then empty)
};

struct JobCallbacks {
    std::function<void(const SearchInfo&)> onInfo;
    std::function<void(const JobOutcome&)> onDone;
};

class SearchJob {
  public:
    // Any thread, any time (also before the job starts and after it finished).
    void stop();
    std::uint64_t id() const { return id_; }

  private:
    friend class SearchPool;
    SearchJob(std::uint64_t id, std::string clientKey, SearchRequest request,
              JobCallbacks callbacks)
        : id_(id),
          clientKey_(std::move(clientKey)),
          request_(std::move(request)),
          callbacks_(std::move(callbacks)) {}

    const std::uint64_t id_;
    const std::string clientKey_;
    SearchRequest request_;
    JobCallbacks callbacks_;
    std::chrono::steady_clock::time_point enqueuedAt_;
    bool countedForClient_ = false;
    // A review position, searched fresh (Searcher::runFresh); set by the worker that takes the
    // job, read by others under the pool's mutex.
    bool review_ = false;
    bool preempted_ = false;  // stopped for a live job (guarded by the pool's mutex)
    std::chrono::steady_clock::time_point startedAt_;  // guarded by the pool's mutex
    bool overran_ = false;                             // guarded by the pool's mutex
    std::atomic<bool> answered_{false};                // onDone ran (or runs)
    std::mutex answerMutex_;  // onDone, and the release of the callbacks after it

    std::mutex mutex_;
    Searcher* runningOn_ = nullptr;  // guarded by mutex_
    bool stopRequested_ = false;     // guarded by mutex_
    // stopRequested_ as admission reads it under the pool's mutex only (the job's own mutex is
    // never taken there).
    std::atomic<bool> stopped_{false};
};

enum class Admission { Accepted, Overloaded, RateLimited, ShuttingDown };
enum class JobPriority { Game, Analysis, Review };

struct Submission {
    Admission admission = Admission::Accepted;
    std::shared_ptr<SearchJob> job;  // set when accepted
};

// How far behind the game replies are: what new games are admitted by (GameService::storeNew).
struct GameBacklog {
    std::size_t queued = 0;         // game jobs waiting for a searcher
    std::int64_t oldestWaitMs = 0;  // how long the oldest of them has waited
    double recentWaitMs = 0;        // queue wait of the game jobs started lately (smoothed)
};

struct PoolOptions {
    int threads = 1;
    std::size_t queueCapacity = 64;
    int perClientLimit = 4;
    std::size_t gameQueueCapacity = 4096;
    std::size_t reviewQueueCapacity = 256;
    // Searchers that may run review positions at once; 0: all but one (at least one).
    int reviewSearchers = 0;
    // Review positions run only while no game reply or analysis runs (see above).
    bool reviewsYield = false;
    // A search running this long has overrun every deadline (zero: no watchdog).
    std::chrono::milliseconds overrunAfter{0};
};

class SearchPool {
  public:
    SearchPool(PoolOptions options, const SearcherFactory& factory);
    ~SearchPool();
    SearchPool(const SearchPool&) = delete;
    SearchPool& operator=(const SearchPool&) = delete;

    Submission submit(const std::string& clientKey, SearchRequest request, JobCallbacks callbacks,
                      JobPriority priority = JobPriority::Analysis);

    // Called (on the searcher thread) when a job's onInfo or onDone throws; `where` is "pool".
    // The exception is caught there, so one failing callback never ends a searcher thread (and
    // with it the process). Set it before the first submit().
    using CallbackErrorHandler = std::function<void(const char* where, const std::string& what)>;
    void onCallbackError(CallbackErrorHandler handler) { callbackError_ = std::move(handler); }

    // Refuse new jobs from now on (SIGTERM).
    void beginDrain();
    bool draining() const;
    // Stop every queued and running job (their onDone still runs).
    void stopAll();
    // Waits until no job is queued or running, or the timeout passes. True when idle.
    bool waitIdle(std::chrono::milliseconds timeout);

    std::uint64_t running() const;
    std::uint64_t queued() const;
    GameBacklog gameBacklog() const;
    // Searches that ran past overrunAfter, ever; and those still running now (stuck threads).
    std::uint64_t overruns() const;
    std::uint64_t stuck() const;
    // Review positions stopped so that a live job got a searcher, ever.
    std::uint64_t preemptions() const;
    int threads() const { return static_cast<int>(workers_.size()); }

  private:
    // submit() under the lock; sets `preempted` to a review job to stop once it is released.
    Submission submitLocked(const std::string& clientKey, SearchRequest request,
                            JobCallbacks callbacks, JobPriority priority,
                            std::vector<std::shared_ptr<SearchJob>>& preempted);
    void workerLoop(Searcher& searcher);
    // A review position may start now (mutex_ held).
    bool reviewMayStartLocked() const;
    void runJob(Searcher& searcher, const std::shared_ptr<SearchJob>& job);
    bool idleLocked() const;  // mutex_ held
    // Queued analyses that were stopped, of one client (null: of every client); mutex_ held.
    std::size_t stoppedQueuedLocked(const std::string* clientKey) const;
    void watchdogLoop();
    // Runs the job's onDone unless it ran already; an exception from it is reported.
    void answer(SearchJob& job, const JobOutcome& outcome) const;
    void reportCallbackError(const char* what) const;

    const PoolOptions options_;
    CallbackErrorHandler callbackError_;
    mutable std::mutex mutex_;
    std::condition_variable workAvailable_;
    std::condition_variable idle_;
    std::deque<std::shared_ptr<SearchJob>> gameQueue_;  // served first
    std::deque<std::shared_ptr<SearchJob>> queue_;
    std::deque<std::shared_ptr<SearchJob>> reviewQueue_;  // served last
    int runningReviews_ = 0;
    std::uint64_t preemptions_ = 0;
    int reviewSearchers_ = 1;
    std::vector<std::shared_ptr<SearchJob>> runningJobs_;
    std::unordered_map<std::string, int> perClient_;
    std::uint64_t nextId_ = 1;
    bool draining_ = false;
    bool shuttingDown_ = false;
    std::uint64_t overruns_ = 0;
    // Exponentially smoothed queue wait of started game jobs: each start moves it this far
    // towards its own wait (about the last ten replies count).
    static constexpr double kGameWaitSmoothing = 0.1;
    double gameWaitMs_ = 0;
    // With no game job waiting, the smoothed wait halves every this many seconds.
    static constexpr double kGameWaitHalfLifeSeconds = 1.0;
    std::chrono::steady_clock::time_point lastGameStart_{};
    std::vector<std::unique_ptr<Searcher>> searchers_;
    std::vector<std::thread> workers_;
    std::condition_variable watchdogWake_;
    std::thread watchdog_;
};

const char* toString(Admission admission);

}  // namespace outpost::server
