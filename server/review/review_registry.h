// The reviews this replica runs (and the last ones it finished), by review id: admission (per
// client and overall bounds), lookup for GET, stream and stop. The runs themselves are
// ReviewRun (review_run.h); this file knows them only by pointer so that ServerContext can hold
// the registry.
//
// Thread-safety: every method from any thread. A run calls release() with its own lock held, so
// the registry never calls into a run while it holds its lock.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace outpost::server {

class ReviewRun;

class ReviewRegistry {
  public:
    enum class Admission { Started, Existing, RateLimited, Overloaded };
    struct Admitted {
        Admission admission = Admission::Started;
        std::shared_ptr<ReviewRun> run;  // the new or the existing run
    };

    // Finished runs kept for lookups (the store has them too; this spares a read and covers a
    // store that failed to write).
    static constexpr std::size_t kKeptFinished = 32;

    // The run with `id` if there is one (running or kept); otherwise, within the bounds, the one
    // `make` returns, registered as running for `clientKey`. `make` runs under the registry's
    // lock: it must only construct.
    Admitted admit(const std::string& id, const std::string& clientKey, int perClient, int overall,
                   const std::function<std::shared_ptr<ReviewRun>()>& make);
    std::shared_ptr<ReviewRun> find(const std::string& id) const;
    // The run ended (done, stopped, failed): its slot is free; it stays findable a while.
    void release(const std::string& id, const std::string& clientKey);
    // Forgets `run`, kept under `id` after it ended, so that admit() starts a new run there (a
    // stopped or failed review asked for again). Nothing when `id` holds another run or one
    // that has not ended.
    void forgetEnded(const std::string& id, const std::shared_ptr<ReviewRun>& run);
    std::size_t running() const;

  private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<ReviewRun>> runs_;
    std::unordered_map<std::string, int> perClient_;
    std::size_t running_ = 0;
    std::deque<std::string> finished_;  // oldest first
};

}  // namespace outpost::server
