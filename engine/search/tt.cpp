#include "search/tt.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace outpost {
namespace {

// Packed entry: move 16 | score 16 | eval 16 | depth 8 | bound 2 | pv 1 | generation 5.
constexpr int kDepthOffset = 16;  // quiescence stores negative depths
constexpr int kGenerationBits = 5;
constexpr std::uint8_t kGenerationMask = (1 << kGenerationBits) - 1;
constexpr int kAgePenalty = 8;  // plies of depth one generation of age is worth
// A table this large or larger is aligned to, and sized in, 2 MB pages and offered to the kernel's
// transparent huge pages: a probe is one random access into the whole table, and with 4 KB pages
// most probes also miss the TLB (the page walk cost about as much as the probe's cache miss).
constexpr std::size_t kHugePageBytes = std::size_t{2} * 1024 * 1024;

std::uint64_t pack(const TTData& d, std::uint8_t generation) {
    const auto depth =
        static_cast<std::uint64_t>(std::clamp(d.depth + kDepthOffset, 0, 255)) & 0xFF;
    return static_cast<std::uint64_t>(d.move) |
           (static_cast<std::uint64_t>(static_cast<std::uint16_t>(d.score)) << 16) |
           (static_cast<std::uint64_t>(static_cast<std::uint16_t>(d.eval)) << 32) | (depth << 48) |
           (static_cast<std::uint64_t>(d.bound) << 56) | (static_cast<std::uint64_t>(d.pv) << 58) |
           (static_cast<std::uint64_t>(generation & kGenerationMask) << 59);
}

TTData unpack(std::uint64_t w) {
    TTData d;
    d.move = static_cast<std::uint16_t>(w);
    d.score = static_cast<std::int16_t>(w >> 16);
    d.eval = static_cast<std::int16_t>(w >> 32);
    d.depth = static_cast<int>((w >> 48) & 0xFF) - kDepthOffset;
    d.bound = static_cast<TTBound>((w >> 56) & 3);
    d.pv = ((w >> 58) & 1) != 0;
    return d;
}

std::uint8_t generationOf(std::uint64_t w) {
    return static_cast<std::uint8_t>(w >> 59);
}
int depthOf(std::uint64_t w) {
    return static_cast<int>((w >> 48) & 0xFF);
}

}  // namespace

TranspositionTable::TranspositionTable(std::size_t megabytes, std::chrono::milliseconds agePeriod)
    : agePeriod_(agePeriod), createdAt_(std::chrono::steady_clock::now()) {
    resize(megabytes);
}
TranspositionTable::~TranspositionTable() = default;

void TranspositionTable::resize(std::size_t megabytes) {
    megabytes = std::max<std::size_t>(megabytes, 1);
    const std::size_t count = megabytes * 1024 * 1024 / sizeof(Bucket);
    if (count != bucketCount_) {
        // The new table is had before the old one goes: when it cannot be (std::bad_alloc), the
        // table stays as it was, whole and usable.
        const std::size_t bytes = count * sizeof(Bucket);
        const std::size_t alignment = bytes >= kHugePageBytes ? kHugePageBytes : alignof(Bucket);
        const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
        void* memory = std::aligned_alloc(alignment, rounded);
        if (!memory) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (alignment == kHugePageBytes) madvise(memory, rounded, MADV_HUGEPAGE);  // a hint only
#endif
        static_assert(std::is_trivially_destructible_v<Bucket>, "freed without destructors");
        auto* buckets = static_cast<Bucket*>(memory);
        std::uninitialized_value_construct_n(buckets, count);
        buckets_.reset(buckets);
        bucketCount_ = count;
    }
    megabytes_ = megabytes;
    clear();
}

void TranspositionTable::clear() {
    for (std::size_t i = 0; i < bucketCount_; ++i) {
        for (auto& e : buckets_[i].entries) {
            e.check.store(0, std::memory_order_relaxed);
            e.data.store(0, std::memory_order_relaxed);
        }
    }
    generation_.store(0, std::memory_order_relaxed);
}

void TranspositionTable::newSearch() {
    if (agePeriod_.count() > 0) {
        const auto periods = (std::chrono::steady_clock::now() - createdAt_) / agePeriod_;
        generation_.store(static_cast<std::uint8_t>(periods & kGenerationMask),
                          std::memory_order_relaxed);
        return;
    }
    generation_.store((generation_.load(std::memory_order_relaxed) + 1) & kGenerationMask,
                      std::memory_order_relaxed);
}

void TranspositionTable::FreeBuckets::operator()(Bucket* buckets) const {
    std::free(buckets);  // trivially destructible (resize)
}

TranspositionTable::Bucket& TranspositionTable::bucketFor(std::uint64_t key) const {
    // Multiply-shift maps the key onto [0, bucketCount) without a division.
    const auto index =
        static_cast<std::size_t>((static_cast<unsigned __int128>(key) * bucketCount_) >> 64);
    return buckets_[index];
}

void TranspositionTable::prefetch(std::uint64_t key) const {
    __builtin_prefetch(&bucketFor(key));
}

bool TranspositionTable::probe(std::uint64_t key, TTData& out) const {
    const Bucket& bucket = bucketFor(key);
    for (const auto& e : bucket.entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        const std::uint64_t check = e.check.load(std::memory_order_relaxed);
        if ((check ^ data) == key && data != 0) {
            out = unpack(data);
            return true;
        }
    }
    return false;
}

void TranspositionTable::store(std::uint64_t key, const TTData& d) {
    Bucket& bucket = bucketFor(key);
    const std::uint8_t gen = generation_.load(std::memory_order_relaxed);
    Entry* target = nullptr;
    int worst = 1 << 30;
    std::uint64_t previous = 0;
    for (auto& e : bucket.entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        const std::uint64_t check = e.check.load(std::memory_order_relaxed);
        if (data == 0 || (check ^ data) == key) {
            target = &e;
            previous = data != 0 ? data : 0;
            break;
        }
        const int age = (gen - generationOf(data)) & kGenerationMask;
        const int worth = depthOf(data) - kAgePenalty * age;
        if (worth < worst) {
            worst = worth;
            target = &e;
        }
    }
    TTData toStore = d;
    if (previous != 0) {
        const TTData old = unpack(previous);
        // Keep a deeper exact-enough entry of this search rather than overwrite it with a
        // shallow bound, and never forget the move when the new store has none.
        if (toStore.move == 0) toStore.move = old.move;
        if (toStore.bound != TTBound::Exact && generationOf(previous) == gen &&
            old.depth > toStore.depth + 3) {
            return;
        }
    }
    const std::uint64_t data = pack(toStore, gen);
    target->data.store(data, std::memory_order_relaxed);
    target->check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    constexpr std::size_t kSampleBuckets = 250;  // 1000 entries
    const std::size_t n = std::min(kSampleBuckets, bucketCount_);
    const std::uint8_t gen = generation_.load(std::memory_order_relaxed);
    int used = 0;
    for (std::size_t i = 0; i < n; ++i) {
        for (const auto& e : buckets_[i].entries) {
            const std::uint64_t data = e.data.load(std::memory_order_relaxed);
            if (data != 0 && generationOf(data) == gen) ++used;
        }
    }
    return n == 0 ? 0 : static_cast<int>(used * 1000 / (n * kBucketSize));
}

}  // namespace outpost
