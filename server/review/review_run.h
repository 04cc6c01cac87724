// One review running on this replica: it searches the game's positions one pool job each, at
// the pool's lowest priority (JobPriority::Review), keeping at most as many positions queued as
// the pool has searchers, so live work always gets the next free searcher. Listeners (an NDJSON
// stream, a WebSocket) get a reviewProgress line per position done and the Review at the end.
// When it ends (done, stopped, failed) the Review is written to the store (through the store
// executor) and the registry frees its slot.
//
// Thread-safety: every method from any thread; pool callbacks arrive on searcher threads.
// Listeners are called with the run's lock held (so their lines keep their order): they must
// only queue (an OrderedStream, a WebSocket outbox).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "review/review_game.h"
#include "review/review_json.h"
#include "search/search_pool.h"

namespace outpost::server {

struct ServerContext;

class ReviewRun : public std::enable_shared_from_this<ReviewRun> {
  public:
    // `line` is a {"type":"reviewProgress",...} or, last, {"type":"review","review":...} object.
    using Listener = std::function<void(const nlohmann::json& line, bool final)>;

    ReviewRun(ServerContext& context, std::shared_ptr<const review::ReviewGame> game,
              review::ReviewState state, SearchLimits limits, std::string clientKey);

    // Queues the first positions (call once, after the registry admitted the run).
    void start();
    // Ends the review now with what was done (status "stopped"); no-op once it ended.
    void stop();

    const std::string& id() const { return state_.id; }
    nlohmann::json snapshot() const;
    bool finished() const;

    // Calls `listener` at once with {"type":"review","review":...} (the Review now; final when
    // the review has ended) and then, while it runs, with each line that follows. Returns the
    // token for unlisten(), 0 when the review had ended (the listener is not kept). Call
    // unlisten() before the listener's target goes.
    std::uint64_t listen(Listener listener);
    void unlisten(std::uint64_t token);

  private:
    void submitMoreLocked();
    void onSearched(std::size_t index, const JobOutcome& outcome);
    // Records a position's result and tells listeners.
    void recordLocked(std::size_t index, review::PositionEval eval);
    void finishLocked(const std::string& status, const std::string& error = {});
    void broadcastLocked(const nlohmann::json& line, bool final);
    SearchRequest requestFor(std::size_t index) const;

    ServerContext& context_;
    const std::shared_ptr<const review::ReviewGame> game_;
    const SearchLimits limits_;
    const std::string clientKey_;
    const std::size_t window_;  // positions queued or searching at once

    mutable std::mutex mutex_;
    review::ReviewState state_;
    std::deque<std::size_t> pending_;  // positions not yet submitted, in order
    std::map<std::size_t, std::shared_ptr<SearchJob>> inFlight_;
    bool ended_ = false;
    // Taken after mutex_ when both are (never the other way round).
    std::mutex listenersMutex_;
    std::map<std::uint64_t, Listener> listeners_;  // guarded by listenersMutex_
    std::uint64_t nextToken_ = 1;                  // guarded by listenersMutex_
};

}  // namespace outpost::server
