// The transposition table: one per engine, or one shared by a pool of engines.
//
// Layout: buckets of four 16-byte entries (one cache line). Each entry is two 64-bit words, the
// packed data and `key ^ data`. A reader accepts an entry only if the xor of the two words gives
// back its key, so an entry torn by two threads writing at once is simply a miss (Hyatt's lockless
// hashing). The words are relaxed atomics: racing threads are expected and harmless, and the
// sanitizers see no data race. The full 64-bit key is verified, so false hits need a full key
// collision.
//
// Replacement: within a bucket, the same key is overwritten (keeping its move if the new store has
// none); otherwise the entry with the lowest worth — depth minus eight per generation of age — is
// replaced, so entries from old searches give way first. The generation is five bits. An
// engine's own table advances it once per search (newSearch), as a UCI engine plays one game. A
// table shared by a server's pool of engines ages by time instead (agePeriod): newSearch sets the
// generation to the number of periods since the table was made, so the age of an entry means the
// same however many searches run, and the generation wraps every 32 periods whatever the load
// (with one search per generation it wrapped every 32 pool searches, and how entries were kept
// depended on how busy the pool was). A wrapped entry only looks younger to the replacement rule;
// its contents are still checked against the full key.
//
// Thread-safety: probe, store, prefetch, hashfull and newSearch may be called from any thread at
// any time; resize and clear must not run while a search uses the table.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace outpost {

enum class TTBound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// What the table knows about a position. Scores are as stored (relative to the node).
struct TTData {
    std::uint16_t move = 0;  // the search's packed move; 0 = none
    int score = 0;
    int eval = 0;
    int depth = 0;
    TTBound bound = TTBound::None;
    bool pv = false;
};

class TranspositionTable {
  public:
    // agePeriod zero: one generation per search; otherwise one generation per agePeriod.
    explicit TranspositionTable(std::size_t megabytes = 16,
                                std::chrono::milliseconds agePeriod = std::chrono::milliseconds{0});
    ~TranspositionTable();
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    void resize(std::size_t megabytes);
    void clear();
    void newSearch();  // age the entries of earlier searches (or of earlier periods)

    bool probe(std::uint64_t key, TTData& out) const;
    void store(std::uint64_t key, const TTData& data);
    void prefetch(std::uint64_t key) const;
    int hashfull() const;  // per mille of sampled entries written by the current generation
    std::size_t megabytes() const { return megabytes_; }

  private:
    struct Entry {
        std::atomic<std::uint64_t> check;  // key ^ data
        std::atomic<std::uint64_t> data;
    };
    static constexpr int kBucketSize = 4;
    struct alignas(64) Bucket {
        Entry entries[kBucketSize];
    };

    struct FreeBuckets {
        void operator()(Bucket* buckets) const;
    };

    Bucket& bucketFor(std::uint64_t key) const;

    std::unique_ptr<Bucket[], FreeBuckets> buckets_;
    std::size_t bucketCount_ = 0;
    std::size_t megabytes_ = 0;
    std::atomic<std::uint8_t> generation_{0};
    const std::chrono::milliseconds agePeriod_;
    const std::chrono::steady_clock::time_point createdAt_;
};

}  // namespace outpost
