// Which queued messages a newer one may replace when a client reads slower than the server writes
// (the bounded write queues of http_session and websocket_session). Only engine progress, and
// only a report of the same line: the same search or game and the same MultiPV line. So every
// line of a MultiPV search, and every game a WebSocket follows, keeps its latest report however
// slowly the client reads; a burst of one iteration's lines loses none of them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string_view>
#include <utility>

#include "core/fnv.h"

namespace outpost::server {

// 0: never replaced (results, game changes, errors). Any other value: progress, replaced by a
// newer message with the same key.
using CoalesceKey = std::uint64_t;
inline constexpr CoalesceKey kNoCoalescing = 0;

// The key of the progress reports of one line: `stream` names the search or the game (any text
// that tells them apart on one connection), `line` the MultiPV line.
inline CoalesceKey progressKey(std::string_view stream, int line) {
    const CoalesceKey key = fnv1a(stream, kFnvOffset ^ static_cast<std::uint64_t>(line));
    return key == kNoCoalescing ? 1 : key;
}

// Progress is coalesced only while more than this many bytes wait to be written (at most a
// quarter of the connection's limit, --max-queued-bytes, past which the client is dropped): a
// client that keeps up gets every report, even in the burst of a search's first iterations,
// which come faster than one socket write completes.
inline constexpr std::size_t kCoalesceAboveBytes = 64 * 1024;
inline std::size_t coalesceThreshold(std::size_t maxQueuedBytes) {
    return std::min(kCoalesceAboveBytes, maxQueuedBytes / 4);
}

// Before a report with `key` is queued, while more than `threshold` bytes wait: drops the queued
// report it supersedes (the same key), looking back from the newest over the progress at the tail
// of the queue only: never past a message that is not progress (so reports stay behind the results
// and game changes before them) and never the entry being written (the front, when
// `frontInFlight`). The new report then goes to the back, so what is queued stays in the order it
// was made (a client that starts a new table at a MultiPV search's first line still sees the lines
// of an iteration in order). Entry has `coalesceKey`; `bytes(entry)` is what it counted against
// queuedBytes.
template <typename Entry, typename Bytes>
void dropSupersededProgress(std::deque<Entry>& queue, bool frontInFlight, CoalesceKey key,
                            std::size_t& queuedBytes, std::size_t threshold, Bytes bytes) {
    if (key == kNoCoalescing || queuedBytes <= threshold) return;
    const std::size_t first = frontInFlight ? 1 : 0;
    for (std::size_t i = queue.size(); i-- > first;) {
        const Entry& queued = queue[i];
        if (queued.coalesceKey == kNoCoalescing) return;
        if (queued.coalesceKey != key) continue;
        queuedBytes -= bytes(queued);
        queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(i));
        return;
    }
}

}  // namespace outpost::server
