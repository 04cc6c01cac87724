#include "search/engine_searcher.h"

#include <memory>
#include <mutex>

#include "search/levels.h"
#include "search/tt.h"

namespace outpost::server {

namespace {

// Two engines per pool thread: one on the shared table, one on a table of its own (see the
// header for which request goes where), made at the first request that needs it so a pool that
// never gets one holds no second table. Only one of them searches at a time.
class EngineSearcher final : public Searcher {
  public:
    EngineSearcher(const EngineOptions& pooled, EngineOptions isolated)
        : pooled_(pooled), isolatedOptions_(std::move(isolated)) {}
    SearchResult run(const SearchRequest& request, const SearchCallbacks& callbacks) override {
        Engine& engine =
            usesSharedTable(request, pooled_.options().config) ? pooled_ : isolatedEngine();
        engine.forgetSearches();
        return engine.run(request, callbacks);
    }
    SearchResult runFresh(const SearchRequest& request, const SearchCallbacks& callbacks) override {
        // The searcher's own table, cleared with the histories first: nothing of the shared
        // table, which other searches fill concurrently and in any order.
        Engine& engine = isolatedEngine();
        engine.forgetSearches();
        return engine.run(request, callbacks);
    }
    void stop() override {
        pooled_.stop();
        std::lock_guard lock(mutex_);
        if (isolated_) isolated_->stop();
    }

  private:
    Engine& isolatedEngine() {
        std::lock_guard lock(mutex_);
        if (!isolated_) isolated_ = std::make_unique<Engine>(isolatedOptions_);
        return *isolated_;
    }

    Engine pooled_;
    const EngineOptions isolatedOptions_;
    std::mutex mutex_;                  // guards isolated_ (stop() comes from other threads)
    std::unique_ptr<Engine> isolated_;  // made once, never replaced
};

}  // namespace

bool usesSharedTable(const SearchRequest& request, const SearchConfig& poolConfig) {
    const bool defaultOptions = !request.config || *request.config == poolConfig;
    const bool randomChoice =
        request.level >= search::kMinLevel && request.level < search::kMaxLevel;
    return defaultOptions && !randomChoice;
}

SearcherFactory makeEngineSearcherFactory(std::size_t hashMb) {
    EngineOptions pooled;
    pooled.hashMb = hashMb;
    pooled.threads = 1;  // parallelism comes from the pool: one search per searcher thread
    // One table for all searchers: what one search learned about a position helps the next,
    // whichever thread runs it (the table tolerates concurrent access by design).
    pooled.sharedTable = makeSharedTable(hashMb, kPoolTableAgePeriod);
    EngineOptions isolated;
    isolated.hashMb = kIsolatedTableMb;
    isolated.threads = 1;
    return [pooled, isolated] { return std::make_unique<EngineSearcher>(pooled, isolated); };
}

}  // namespace outpost::server
