// The analysis cache in Redis, shared by every replica of the shared store.
//
// Layout (prefix "outpost:" by default):
//   <prefix>analysis:pos:<position>  hash: one field per slot,
//                                "<lines>" -> "<depth> <madeAt> <doc>" (madeAt: epoch seconds)
//   <prefix>analysis:lru         sorted set: the positions by last use (score: the clock below)
//   <prefix>analysis:clock       counter, one tick per use (replicas share it, so their clocks
//                                do not disagree)
// Each get() and put() is one Lua script, atomic: a put applies the slot rule of
// analysis_cache_store.h and then deletes the least recently used positions beyond the
// capacity, so the cache holds at most `capacity` positions whatever the replicas do (no TTL or
// maxmemory policy needed; each position holds at most one slot per number of lines); it also
// drops the position's stale slots (analysis_cache_store.h). The
// scripts are idempotent, so the pool's retry on a fresh connection is safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "store/analysis_cache_store.h"
#include "store/redis_connection.h"
#include "store/sentinel.h"

namespace outpost::server {

struct RedisAnalysisCacheOptions {
    std::string url = "redis://127.0.0.1:6379";
    std::string keyPrefix = "outpost:";
    std::chrono::milliseconds timeout{2000};
    std::size_t capacity = 0;  // positions kept
    // Where the primary is (Sentinel, store/sentinel.h); null: the URL's Redis.
    std::shared_ptr<RedisPrimary> primary{};
};

class RedisAnalysisCache final : public AnalysisCacheStore {
  public:
    // Throws std::invalid_argument when the URL is malformed; Redis need not be up yet.
    explicit RedisAnalysisCache(RedisAnalysisCacheOptions options);

    AnalysisCacheRead get(const std::string& position) override;
    StoreStatus put(const std::string& position, const AnalysisSlot& slot) override;
    std::uint64_t size() override;

  private:
    std::string entryPrefix() const { return options_.keyPrefix + "analysis:pos:"; }
    std::string lruKey() const { return options_.keyPrefix + "analysis:lru"; }
    std::string clockKey() const { return options_.keyPrefix + "analysis:clock"; }

    RedisAnalysisCacheOptions options_;
    RedisConnectionPool pool_;
};

}  // namespace outpost::server
