// Where finished analyses are kept for GET /api/v1/analysis (server/analysis/analysis_cache.h):
// a bounded map from a position to its best analyses, shared by the replicas that share the
// game store (Redis), kept in the SQLite file of a single server, or in memory.
//
// A position keeps a few slots, each an analysis of `multipv` lines to `depth`: the Pareto front
// of (lines, depth). A new slot that some kept slot matches in both (as many lines or more, as
// deep or deeper) changes nothing; otherwise it is kept and every slot it matches in both goes.
// So a deeper result replaces a shallower one of as many lines, and a position holds at most one
// slot per number of lines (the server's --max-multipv bounds that).
//
// Slots age out: each one carries the time it was made (its writer's clock), and one older than
// kAnalysisSlotMaxAge is dropped by the next write of its position and never answered (the
// reader's job, analysis/analysis_cache.h), so a deep slot cannot pin an answer forever.
//
// Bounded by positions: reading or writing a position makes it the most recently used, and
// beyond `capacity` positions the least recently used go (LRU).
//
// Thread-safety: every method may be called from any thread, concurrently. They block (disk,
// network): never call them on an I/O thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "store/game_store.h"

namespace outpost::server {

// How long a slot is kept: an engine upgrade or a fault found later stops showing within a day.
inline constexpr std::chrono::seconds kAnalysisSlotMaxAge = std::chrono::hours(24);

struct AnalysisSlot {
    int multipv = 1;          // lines the analysis holds
    int depth = 0;            // the depth every one of its lines reached
    std::string doc;          // the analysis as JSON text (opaque to the store)
    std::int64_t madeAt = 0;  // when it was made: seconds since the Unix epoch (writer's clock)
};

// True when `slot` is too old to answer (or to keep) at `now` (seconds since the Unix epoch).
bool analysisSlotStale(const AnalysisSlot& slot, std::int64_t now);

struct AnalysisCacheRead {
    StoreStatus status = StoreStatus::NotFound;  // Ok, NotFound or Unavailable
    std::vector<AnalysisSlot> slots;             // set when status is Ok
};

class AnalysisCacheStore {
  public:
    virtual ~AnalysisCacheStore() = default;

    // The slots of `position` (NotFound when none); the position becomes the most recently used.
    virtual AnalysisCacheRead get(const std::string& position) = 0;
    // Offers `slot` for `position` (the rule above); the position becomes the most recently
    // used, and the least recently used positions beyond the capacity are removed. Ok (also when
    // the slot was not needed) or Unavailable.
    virtual StoreStatus put(const std::string& position, const AnalysisSlot& slot) = 0;
    // Positions kept (for tests and metrics; may be approximate).
    virtual std::uint64_t size() = 0;
};

// The rule above on a list of slots: the slots stale at `incoming.madeAt` go; then, unless a
// kept slot matches `incoming`, the slots it matches go and it is added. True when `slots`
// changed.
bool mergeAnalysisSlot(std::vector<AnalysisSlot>& slots, const AnalysisSlot& incoming);

// The in-process store: one replica, lost on restart (--store memory, and the tests).
std::shared_ptr<AnalysisCacheStore> makeMemoryAnalysisCache(std::size_t capacity);

}  // namespace outpost::server
