// The write queues' coalescing of engine progress (net/coalesce.h), without sockets.
#include <catch2/catch.hpp>
#include <deque>
#include <string>
#include <vector>

#include "net/coalesce.h"

using namespace outpost::server;

namespace {

struct Entry {
    std::string text;
    CoalesceKey coalesceKey = kNoCoalescing;
};

struct Queue {
    std::deque<Entry> entries;
    std::size_t bytes = 0;
    bool writing = false;
    std::size_t threshold = 0;  // a client that is behind from the start

    void push(std::string text, CoalesceKey key) {
        dropSupersededProgress(entries, writing, key, bytes, threshold,
                               [](const Entry& e) { return e.text.size(); });
        bytes += text.size();
        entries.push_back(Entry{std::move(text), key});
        writing = true;  // the first entry goes to the socket at once, as doWrite does
    }
    std::vector<std::string> texts() const {
        std::vector<std::string> out;
        for (const Entry& e : entries) out.push_back(e.text);
        return out;
    }
};

CoalesceKey line(int multipv) {
    return progressKey("analysis 7", multipv);
}

}  // namespace

TEST_CASE("write queue: a slow reader keeps the latest report of every MultiPV line",
          "[server][websocket]") {
    Queue q;
    q.push("d1 l1", line(1));  // being written
    for (const char* depth : {"d1", "d2", "d3"}) {
        if (std::string(depth) != "d1") q.push(std::string(depth) + " l1", line(1));
        q.push(std::string(depth) + " l2", line(2));
        q.push(std::string(depth) + " l3", line(3));
    }
    // Nothing of line 2 or 3 was lost to line 1's reports (the old rule replaced the newest
    // waiting report, whatever its line); each line's newest report waits, in the order made.
    CHECK(q.texts() == std::vector<std::string>{"d1 l1", "d3 l1", "d3 l2", "d3 l3"});
    std::size_t bytes = 0;
    for (const Entry& e : q.entries) bytes += e.text.size();
    CHECK(q.bytes == bytes);
}

TEST_CASE("write queue: progress never moves ahead of a result or into the entry being written",
          "[server][websocket]") {
    Queue q;
    q.push("search 1 d5", progressKey("analysis 1", 1));  // being written
    q.push("search 1 d6", progressKey("analysis 1", 1));  // waits: the written one stays
    CHECK(q.texts().size() == 2);
    q.push("search 1 bestmove", kNoCoalescing);
    // The client reuses the id for a new search: its report must come after the old result.
    q.push("search 1' d1", progressKey("analysis 1", 1));
    CHECK(q.texts() == std::vector<std::string>{"search 1 d5", "search 1 d6", "search 1 bestmove",
                                                "search 1' d1"});
    // Reports of another game on the same connection do not replace each other.
    q.push("game a", progressKey("game a", 0));
    q.push("game b", progressKey("game b", 0));
    q.push("game a later", progressKey("game a", 0));
    CHECK(q.texts() == std::vector<std::string>{"search 1 d5", "search 1 d6", "search 1 bestmove",
                                                "search 1' d1", "game b", "game a later"});
    CHECK(progressKey("x", 1) != kNoCoalescing);
    CHECK(progressKey("x", 1) != progressKey("x", 2));
}

TEST_CASE("write queue: a client that keeps up loses no report", "[server][websocket]") {
    Queue q;
    q.threshold = coalesceThreshold(1 << 20);
    CHECK(q.threshold == kCoalesceAboveBytes);
    CHECK(coalesceThreshold(4096) == 1024);  // a small --max-queued-bytes coalesces sooner
    // A burst of twenty iterations of three lines, faster than the socket writes: all of it
    // waits, as long as it is below the threshold.
    for (int depth = 1; depth <= 20; ++depth) {
        for (int multipv = 1; multipv <= 3; ++multipv) q.push(std::string(500, 'x'), line(multipv));
    }
    CHECK(q.entries.size() == 60);
    // Far behind: from here each line's new report replaces its waiting one.
    while (q.bytes <= q.threshold) q.push(std::string(500, 'y'), line(4));
    const std::size_t waiting = q.entries.size();
    q.push("newer", line(1));
    CHECK(q.entries.size() == waiting);
    CHECK(q.entries.back().text == "newer");
}
