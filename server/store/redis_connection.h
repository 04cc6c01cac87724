// Connections to Redis for the shared store and the event bus (hiredis, synchronous API).
//
// A hiredis context is not thread-safe, so RedisConnectionPool hands each caller a context of its
// own for one command and takes it back afterwards. A context that saw an error is discarded,
// never returned: the next caller connects afresh, which is how the pool recovers from a Redis
// restart. The pool connects wherever its RedisPrimary (store/sentinel.h) says the primary is,
// and drops idle connections made to a former one.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct redisContext;
struct redisReply;

namespace outpost::server {

// Where Redis is: from a URL `redis://[[user]:password@]host[:port][/db]`
// or `unix:///path/to/socket[?db=N]`.
struct RedisEndpoint {
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string unixSocket;  // non-empty: connect to this socket instead of host:port
    std::string password;
    int database = 0;
};

// Returns the endpoint, or nullopt with `error` set when the URL is not understood.
std::optional<RedisEndpoint> parseRedisUrl(const std::string& url, std::string* error);
// The same, throwing std::invalid_argument with the error when the URL is not understood.
RedisEndpoint parseRedisUrlOrThrow(const std::string& url);

struct RedisReplyDeleter {
    void operator()(redisReply* reply) const;
};
using RedisReplyPtr = std::unique_ptr<redisReply, RedisReplyDeleter>;

// A string or status reply's text (a view into the reply); empty for any other reply or null.
std::string_view replyText(const redisReply* reply);

struct RedisContextDeleter {
    void operator()(redisContext* context) const;
};
using RedisContextPtr = std::unique_ptr<redisContext, RedisContextDeleter>;

// Connects, authenticates and selects the database. Returns null (and sets `error`) on failure.
RedisContextPtr connectRedis(const RedisEndpoint& endpoint, std::chrono::milliseconds timeout,
                             std::string* error);

class RedisPrimary;

// How many replicas must have a write before it counts as done (WAIT): `minAcks` of them within
// `timeout`. The write guard on the primary (Redis's min-replicas-to-write = minAcks,
// min-replicas-max-lag = maxLagSeconds) refuses a write before anything is written when fewer
// replicas are in sync (NOREPLICAS: the write fails, Unavailable); the server sets it with
// CONFIG SET on each primary it connects to when the primary's own setting is lower and CONFIG is
// allowed (the deployment files set it too). `capToOnline` is the unreplicated mode
// (--redis-allow-unreplicated-writes, off by default): the acks asked are capped by the replicas
// the primary has online, so a primary with none (during a first sync, after a partition)
// acknowledges writes that only it has.
struct ReplicationPolicy {
    int minAcks = 0;
    std::chrono::milliseconds timeout{500};
    int maxLagSeconds = 10;
    bool capToOnline = false;
};

struct ReplicatedReply {
    RedisReplyPtr reply;     // null: Redis unreachable, or an error answer (as command())
    bool replicated = true;  // false: the write was made but too few replicas acknowledged it
    // With a null reply: the command was sent whole and its answer did not come in time (a Redis
    // that hangs, or is cut off after it got the command), and no later attempt got one: it may
    // have been applied (or be applied when Redis resumes). Otherwise it was not.
    bool outcomeUnknown = false;
};

// The primary's replicas as INFO replication lists them.
struct ReplicaStatus {
    bool known = false;  // false: the primary could not be asked
    int online = 0;      // synchronised and streaming
    int inSync = 0;      // online and acknowledged within maxLagSeconds
};

class RedisConnectionPool {
  public:
    // A single Redis at `endpoint`.
    RedisConnectionPool(RedisEndpoint endpoint, std::chrono::milliseconds timeout);
    // Wherever `primary` says the primary is (shared by the process's pools and its bus).
    RedisConnectionPool(std::shared_ptr<RedisPrimary> primary, std::chrono::milliseconds timeout);

    // Sends one command (binary-safe arguments) and returns its reply. On a connection error (or
    // READONLY: the connection reached a demoted primary) the command is retried once on a fresh
    // connection (callers make their commands idempotent); returns null when Redis cannot be
    // reached or answers with an error.
    RedisReplyPtr command(const std::vector<std::string>& args);
    // The same, then WAIT on the same connection as `policy` asks (nothing when minAcks is 0).
    ReplicatedReply commandReplicated(const std::vector<std::string>& args,
                                      const ReplicationPolicy& policy);

    RedisEndpoint endpoint() const;
    const std::shared_ptr<RedisPrimary>& primary() const { return primary_; }

    // The primary's replicas now (one INFO replication), those in sync judged by `maxLagSeconds`.
    ReplicaStatus replicaStatus(int maxLagSeconds);
    // Asks every connection made from now on to set the write guard of
    // `policy` there (CONFIG SET, raising min-replicas-to-write, never lowering it); nothing when
    // policy.minAcks is 0.
    void guardWrites(const ReplicationPolicy& policy);

    // Writes made but answered as failed, too few replicas having acknowledged them in time.
    std::uint64_t replicaAckFailures() const { return ackFailures_.load(); }
    // Writes acknowledged with fewer replica acks than asked, the primary having fewer online
    // (only in the unreplicated mode, ReplicationPolicy::capToOnline).
    std::uint64_t unreplicatedWrites() const { return unreplicated_.load(); }
    // Writes the primary refused before writing anything, too few replicas being in sync
    // (NOREPLICAS: the write guard).
    std::uint64_t guardRefusals() const { return guardRefusals_.load(); }

  private:
    static constexpr std::size_t kMaxIdleConnections = 16;
    // A command (or the replicas' read) is tried on this many connections before it fails.
    static constexpr int kSendAttempts = 2;
    // How long the count of the primary's online replicas is trusted before it is read again.
    static constexpr std::chrono::milliseconds kReplicaCountTtl{1000};

    struct Pooled {
        RedisContextPtr context;
        std::uint64_t generation = 0;  // RedisPrimary::generation() when it was made
    };

    Pooled acquire(std::string* error);
    void release(Pooled pooled);
    // A connection failed mid-command: the idle ones were made to the same server and likely
    // share its fate (a restart, an idle timeout), so they are dropped with it, and the primary
    // is suspected (Sentinel mode asks again who it is).
    void connectionBroken();
    // Sends `args` on a pooled connection, retrying once; the connection stays with the caller.
    // `unanswered` (when given): set when no reply came and an attempt sent the command whole
    // and timed out waiting for its answer (ReplicatedReply::outcomeUnknown).
    RedisReplyPtr send(const std::vector<std::string>& args, Pooled* used,
                       bool* unanswered = nullptr);
    // The acks to ask of WAIT: policy.minAcks capped by the primary's online replicas.
    int requiredAcks(redisContext& context, const ReplicationPolicy& policy, bool fresh);

    std::shared_ptr<RedisPrimary> primary_;
    std::chrono::milliseconds timeout_;
    std::mutex mutex_;
    std::vector<Pooled> idle_;
    // The primary's online replicas, read at `replicasReadAt` from generation `replicasOf`.
    int onlineReplicas_ = 0;
    std::uint64_t replicasOf_ = 0;
    std::chrono::steady_clock::time_point replicasReadAt_{};
    std::atomic<std::uint64_t> ackFailures_{0};
    std::atomic<std::uint64_t> unreplicated_{0};
    std::atomic<std::uint64_t> guardRefusals_{0};
    // The write guard checked on every fresh connection (guardWrites): a restarted or newly
    // promoted primary gets it too.
    std::optional<ReplicationPolicy> guard_;
    // Sets guard_ on a fresh connection where the primary's own setting is lower (CONFIG GET,
    // one round trip; CONFIG SET when needed, failures ignored: CONFIG may be renamed).
    void applyGuard(redisContext& context);
};

}  // namespace outpost::server
