#include "review/review_registry.h"

#include <algorithm>

namespace outpost::server {

ReviewRegistry::Admitted ReviewRegistry::admit(
    const std::string& id, const std::string& clientKey, int perClient, int overall,
    const std::function<std::shared_ptr<ReviewRun>()>& make) {
    std::lock_guard lock(mutex_);
    if (auto it = runs_.find(id); it != runs_.end()) return {Admission::Existing, it->second};
    if (auto it = perClient_.find(clientKey); it != perClient_.end() && it->second >= perClient) {
        return {Admission::RateLimited, nullptr};
    }
    if (running_ >= static_cast<std::size_t>(overall)) return {Admission::Overloaded, nullptr};
    auto run = make();
    runs_[id] = run;
    ++perClient_[clientKey];
    ++running_;
    return {Admission::Started, run};
}

std::shared_ptr<ReviewRun> ReviewRegistry::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = runs_.find(id);
    return it == runs_.end() ? nullptr : it->second;
}

void ReviewRegistry::release(const std::string& id, const std::string& clientKey) {
    std::lock_guard lock(mutex_);
    if (auto it = perClient_.find(clientKey); it != perClient_.end() && --it->second <= 0) {
        perClient_.erase(it);
    }
    if (running_ > 0) --running_;
    finished_.push_back(id);
    while (finished_.size() > kKeptFinished) {
        runs_.erase(finished_.front());
        finished_.pop_front();
    }
}

void ReviewRegistry::forgetEnded(const std::string& id, const std::shared_ptr<ReviewRun>& run) {
    std::lock_guard lock(mutex_);
    auto it = runs_.find(id);
    if (it == runs_.end() || it->second != run) return;
    auto ended = std::find(finished_.begin(), finished_.end(), id);
    if (ended == finished_.end()) return;  // still running
    finished_.erase(ended);
    runs_.erase(it);
}

std::size_t ReviewRegistry::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

}  // namespace outpost::server
