#include "search/engine_searcher.h"

#include "search/tt.h"

namespace outpost::server {

namespace {

class EngineSearcher final : public Searcher {
  public:
    explicit EngineSearcher(EngineOptions options) : engine_(std::move(options)) {}
    SearchResult run(const SearchRequest& request, const SearchCallbacks& callbacks) override {
        return engine_.run(request, callbacks);
    }
    void stop() override { engine_.stop(); }

  private:
    Engine engine_;
};

}  // namespace

SearcherFactory makeEngineSearcherFactory(std::size_t hashMb) {
    EngineOptions options;
    options.hashMb = hashMb;
    options.threads = 1;  // parallelism comes from the pool: one search per searcher thread
    // One table for all searchers: what one search learned about a position helps the next,
    // whichever thread runs it (the table tolerates concurrent access by design).
    options.sharedTable = std::make_shared<TranspositionTable>(hashMb);
    return [options] { return std::make_unique<EngineSearcher>(options); };
}

}  // namespace outpost::server
