// What a pool thread searches with. The production Searcher wraps an Engine (see
// engine_searcher.h); tests may plug in scripted searchers to drive the pool deterministically.
#pragma once

#include <functional>
#include <memory>

#include "engine.h"

namespace outpost::server {

class Searcher {
  public:
    virtual ~Searcher() = default;
    // Runs on the calling (pool) thread. May throw std::invalid_argument for a bad request.
    virtual SearchResult run(const SearchRequest& request, const SearchCallbacks& callbacks) = 0;
    // The same, for a search whose result must depend on its request alone, never on what other
    // searches left behind (a review's positions: the same game reviewed at the same node or
    // depth budget gives the same review). By default run(): a searcher that keeps nothing
    // between searches.
    virtual SearchResult runFresh(const SearchRequest& request, const SearchCallbacks& callbacks) {
        return run(request, callbacks);
    }
    // Any thread; ends the current search promptly (run() still returns a result).
    virtual void stop() = 0;
};

using SearcherFactory = std::function<std::unique_ptr<Searcher>()>;

}  // namespace outpost::server
