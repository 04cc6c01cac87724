#include "store/analysis_cache_store.h"

#include <algorithm>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace outpost::server {

bool analysisSlotStale(const AnalysisSlot& slot, std::int64_t now) {
    return now - slot.madeAt >= kAnalysisSlotMaxAge.count();
}

bool mergeAnalysisSlot(std::vector<AnalysisSlot>& slots, const AnalysisSlot& incoming) {
    const std::size_t before = slots.size();
    std::erase_if(
        slots, [&](const AnalysisSlot& kept) { return analysisSlotStale(kept, incoming.madeAt); });
    const bool dropped = slots.size() != before;
    const auto covers = [](const AnalysisSlot& kept, const AnalysisSlot& other) {
        return kept.multipv >= other.multipv && kept.depth >= other.depth;
    };
    for (const AnalysisSlot& kept : slots) {
        if (covers(kept, incoming)) return dropped;
    }
    std::erase_if(slots, [&](const AnalysisSlot& kept) { return covers(incoming, kept); });
    slots.push_back(incoming);
    std::sort(slots.begin(), slots.end(),
              [](const AnalysisSlot& a, const AnalysisSlot& b) { return a.multipv < b.multipv; });
    return true;
}

namespace {

// A list in recency order (front: most recently used) and an index into it.
class MemoryAnalysisCache final : public AnalysisCacheStore {
  public:
    explicit MemoryAnalysisCache(std::size_t capacity) : capacity_(capacity) {}

    AnalysisCacheRead get(const std::string& position) override {
        std::lock_guard lock(mutex_);
        auto found = index_.find(position);
        if (found == index_.end()) return {StoreStatus::NotFound, {}};
        recency_.splice(recency_.begin(), recency_, found->second);
        return {StoreStatus::Ok, found->second->second};
    }

    StoreStatus put(const std::string& position, const AnalysisSlot& slot) override {
        std::lock_guard lock(mutex_);
        if (capacity_ == 0) return StoreStatus::Ok;
        auto found = index_.find(position);
        if (found == index_.end()) {
            recency_.emplace_front(position, std::vector<AnalysisSlot>{slot});
            index_.emplace(position, recency_.begin());
        } else {
            recency_.splice(recency_.begin(), recency_, found->second);
            mergeAnalysisSlot(found->second->second, slot);
        }
        while (recency_.size() > capacity_) {
            index_.erase(recency_.back().first);
            recency_.pop_back();
        }
        return StoreStatus::Ok;
    }

    std::uint64_t size() override {
        std::lock_guard lock(mutex_);
        return recency_.size();
    }

  private:
    using Entry = std::pair<std::string, std::vector<AnalysisSlot>>;
    const std::size_t capacity_;
    std::mutex mutex_;
    std::list<Entry> recency_;
    std::unordered_map<std::string, std::list<Entry>::iterator> index_;
};

}  // namespace

std::shared_ptr<AnalysisCacheStore> makeMemoryAnalysisCache(std::size_t capacity) {
    return std::make_shared<MemoryAnalysisCache>(capacity);
}

}  // namespace outpost::server
