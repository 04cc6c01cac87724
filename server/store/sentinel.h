// Where the Redis primary is, and following it through a failover (Redis Sentinel).
//
// RedisPrimary is shared by everything that talks to Redis in a process (the store's pool, the
// event bus, the analysis cache): each asks it for the primary's endpoint when it connects, and
// tags its connections with the primary's generation, which goes up at every change, so a
// connection to a former primary is dropped instead of reused.
//
// Two kinds:
//  - fixed (a redis:// URL): the endpoint never changes; suspect() does nothing.
//  - Sentinel (--redis-sentinels, --redis-master-name): the endpoint is what a majority of the
//    configured sentinels answer to SENTINEL get-master-addr-by-name (every one is asked; one
//    sentinel alone, stale, partitioned or lying, never moves the server). A watcher thread stays
//    subscribed to `+switch-master` on one sentinel (the next one when it fails): an announced
//    switch makes it ask all of them, again every kWatchPoll until a majority agrees or
//    kSwitchFollowUp has passed; it also asks every kRecheckInterval, so a switch announced while
//    it was not listening is found too; suspect() (a connection that failed, or answered
//    READONLY: it reached a demoted primary) asks at once, at most once per kMinAskInterval.
//    Until a majority has named a primary, connect() connects nowhere: the Redis password is only
//    ever sent to a host a majority named. Connections made in Sentinel mode check ROLE, so none
//    is ever kept to a replica.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "store/redis_connection.h"

namespace outpost::server {

// "host:port,host:port" -> endpoints (port 26379 when left out); throws std::invalid_argument
// naming the bad entry.
std::vector<RedisEndpoint> parseSentinelList(const std::string& list);

// What the sentinels answer to SENTINEL get-master-addr-by-name, asked of all of them at once.
struct SentinelVerdict {
    // The primary a majority of the configured sentinels names (more than half of them, not of
    // those that answered); nullopt when no address has a majority.
    std::optional<RedisEndpoint> primary;
    std::size_t asked = 0;     // the sentinels configured
    std::size_t answered = 0;  // those that named an address
    std::size_t agreeing = 0;  // those that named the address named most often
};

// Asks every sentinel of `sentinels` (each with its own password, if any) in parallel, each
// within `timeout`, and counts their answers.
SentinelVerdict askSentinelsForPrimary(const std::vector<RedisEndpoint>& sentinels,
                                       const std::string& masterName,
                                       std::chrono::milliseconds timeout);

struct SentinelOptions {
    std::vector<RedisEndpoint> sentinels;
    std::string masterName = "outpost";
    std::chrono::milliseconds timeout{2000};
};

class RedisPrimary {
  public:
    // A JSON log line sink (event name and fields), may be empty.
    using Log = std::function<void(const std::string& event, const std::string& detail)>;

    // Fixed: always `endpoint`.
    explicit RedisPrimary(RedisEndpoint endpoint);
    // Sentinel: `base` gives the password and database of the primary (its host and port are
    // replaced by the sentinels' answer; `base`'s own are never connected to). Asks the sentinels
    // once before returning (when no majority answers, connections fail until one does) and
    // starts the watcher thread.
    RedisPrimary(RedisEndpoint base, SentinelOptions sentinel, Log log);
    ~RedisPrimary();
    RedisPrimary(const RedisPrimary&) = delete;
    RedisPrimary& operator=(const RedisPrimary&) = delete;

    bool usesSentinel() const { return !sentinel_.sentinels.empty(); }
    RedisEndpoint endpoint() const;
    std::uint64_t generation() const { return generation_.load(); }
    // A connection to the primary failed or answered READONLY: ask the sentinels now.
    void suspect();
    // Called (from the watcher or a suspect()ing thread) after every change of primary; must
    // not block nor call back into this object. Returns a handle for removeListener, which
    // waits for a call in progress.
    std::uint64_t addListener(std::function<void()> listener);
    void removeListener(std::uint64_t handle);

    // Times the primary changed since the start (the metric outpost_redis_primary_changes_total).
    std::uint64_t changes() const { return changes_.load(); }

    // Connects to the current primary (connectRedis), and in Sentinel mode checks that it is
    // one (ROLE): a demoted primary is not kept (suspect() is called, null returned).
    RedisContextPtr connect(std::chrono::milliseconds timeout, std::string* error);

  private:
    static constexpr std::chrono::milliseconds kMinAskInterval{200};
    static constexpr std::chrono::seconds kRecheckInterval{5};
    static constexpr std::chrono::milliseconds kWatchPoll{250};
    // After a +switch-master, how long the watcher keeps asking for a majority to agree.
    static constexpr std::chrono::seconds kSwitchFollowUp{10};

    // Asks the sentinels and adopts their answer; returns false when none answered.
    bool refresh(const char* why);
    void adopt(const std::string& host, int port, const char* why);
    void watch();
    // One subscription's life on `sentinel`; returns when it fails or the watcher stops.
    void watchOne(const RedisEndpoint& sentinel);
    bool stopping() const;

    SentinelOptions sentinel_;
    Log log_;
    mutable std::mutex mutex_;
    RedisEndpoint endpoint_;
    std::atomic<std::uint64_t> generation_{0};  // 0 in Sentinel mode: no majority named one yet
    std::atomic<std::uint64_t> changes_{0};
    std::chrono::steady_clock::time_point lastAsk_{};
    std::mutex askMutex_;  // one sentinel query at a time

    std::mutex listenersMutex_;
    std::map<std::uint64_t, std::function<void()>> listeners_;
    std::uint64_t nextListener_ = 1;

    mutable std::mutex stopMutex_;
    std::condition_variable stopCondition_;
    bool stopping_ = false;
    std::thread watcher_;
};

}  // namespace outpost::server
