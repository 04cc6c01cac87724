#include "search/engine_searcher.h"

#include "search/levels.h"
#include "search/tt.h"

namespace outpost::server {

namespace {

// Two engines per pool thread: one on the shared table, one on a table of its own (see the
// header for which request goes where). Only one of them searches at a time.
class EngineSearcher final : public Searcher {
  public:
    EngineSearcher(const EngineOptions& pooled, const EngineOptions& isolated)
        : pooled_(pooled), isolated_(isolated) {}
    SearchResult run(const SearchRequest& request, const SearchCallbacks& callbacks) override {
        Engine& engine = usesSharedTable(request, pooled_.options().config) ? pooled_ : isolated_;
        engine.forgetSearches();
        return engine.run(request, callbacks);
    }
    void stop() override {
        pooled_.stop();
        isolated_.stop();
    }

  private:
    Engine pooled_;
    Engine isolated_;
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
