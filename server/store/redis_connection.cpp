#include "store/redis_connection.h"

#include <hiredis/hiredis.h>
#include <hiredis/sds.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <sstream>
#include <stdexcept>

#include "store/sentinel.h"

namespace outpost::server {

namespace {

bool parseInt(std::string_view text, int* value) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
    return ec == std::errc() && end == text.data() + text.size();
}

timeval toTimeval(std::chrono::milliseconds duration) {
    timeval tv{};
    tv.tv_sec = static_cast<decltype(tv.tv_sec)>(duration.count() / 1000);
    tv.tv_usec = static_cast<decltype(tv.tv_usec)>((duration.count() % 1000) * 1000);
    return tv;
}

RedisReplyPtr sendCommand(redisContext* context, const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    argv.reserve(args.size());
    lengths.reserve(args.size());
    for (const std::string& arg : args) {
        argv.push_back(arg.data());
        lengths.push_back(arg.size());
    }
    return RedisReplyPtr(static_cast<redisReply*>(
        redisCommandArgv(context, static_cast<int>(argv.size()), argv.data(), lengths.data())));
}

// A command that failed on `context` was written whole (nothing left in the output buffer) and
// then timed out waiting for the reply: Redis may have it, and run it. A connection the peer
// closed or reset, or a write that failed, is not counted: Redis closed it before reading the
// command (an idle timeout, a restart), or never got all of it. `error` is errno just after the
// command returned.
bool sentWithoutAnswer(const redisContext& context, int error) {
    if (context.obuf != nullptr && sdslen(context.obuf) != 0) return false;
#ifdef REDIS_ERR_TIMEOUT
    if (context.err == REDIS_ERR_TIMEOUT) return true;
#endif
    return context.err == REDIS_ERR_IO &&
           (error == EAGAIN || error == EWOULDBLOCK || error == ETIMEDOUT);
}

bool isReadOnlyError(const redisReply* reply) {
    return reply->type == REDIS_REPLY_ERROR &&
           std::string_view(reply->str, reply->len).rfind("READONLY", 0) == 0;
}

bool isNoReplicasError(const redisReply* reply) {
    // Alone, or inside a script's error ("... NOREPLICAS Not enough good replicas to write.").
    return reply->type == REDIS_REPLY_ERROR &&
           std::string_view(reply->str, reply->len).find("NOREPLICAS") != std::string_view::npos;
}

// One `key=value` field of an INFO replication replica line; -1 when absent or not a number.
long long replicaField(const std::string& line, std::string_view key) {
    const std::string needle = std::string(key) + "=";
    std::size_t at = line.find("," + needle);
    at = at == std::string::npos ? line.find(":" + needle) : at;
    if (at == std::string::npos) return -1;
    const char* first = line.data() + at + 1 + needle.size();
    long long value = -1;
    std::from_chars(first, line.data() + line.size(), value);
    return value;
}

// The replicas INFO replication lists: online (synchronised and streaming), and those of them
// that acknowledged within `maxLagSeconds` (what min-replicas-max-lag counts as good).
ReplicaStatus readReplicaStatus(redisContext& context, int maxLagSeconds) {
    ReplicaStatus status;
    RedisReplyPtr info = sendCommand(&context, {"INFO", "replication"});
    if (!info || info->type != REDIS_REPLY_STRING || context.err) return status;
    status.known = true;
    std::istringstream lines{std::string(info->str, info->len)};
    for (std::string line; std::getline(lines, line);) {
        // slave0:ip=10.0.0.2,port=6379,state=online,offset=123,lag=0
        if (line.rfind("slave", 0) != 0 || line.find("state=online") == std::string::npos) continue;
        ++status.online;
        const long long lag = replicaField(line, "lag");
        if (lag >= 0 && lag <= maxLagSeconds) ++status.inSync;
    }
    return status;
}

// A CONFIG GET of one integer setting; -1 when it cannot be read (CONFIG renamed or denied).
long long configNumber(redisContext& context, const std::string& name) {
    RedisReplyPtr reply = sendCommand(&context, {"CONFIG", "GET", name});
    if (!reply || context.err || reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
        reply->element[1]->type != REDIS_REPLY_STRING) {
        return -1;
    }
    long long value = -1;
    const redisReply* text = reply->element[1];
    std::from_chars(text->str, text->str + text->len, value);
    return value;
}

}  // namespace

RedisEndpoint parseRedisUrlOrThrow(const std::string& url) {
    std::string error;
    std::optional<RedisEndpoint> endpoint = parseRedisUrl(url, &error);
    if (!endpoint) throw std::invalid_argument(error);
    return *endpoint;
}

std::string_view replyText(const redisReply* reply) {
    return reply && (reply->type == REDIS_REPLY_STRING || reply->type == REDIS_REPLY_STATUS)
               ? std::string_view(reply->str, reply->len)
               : std::string_view();
}

void RedisReplyDeleter::operator()(redisReply* reply) const {
    freeReplyObject(reply);
}
void RedisContextDeleter::operator()(redisContext* context) const {
    redisFree(context);
}

std::optional<RedisEndpoint> parseRedisUrl(const std::string& url, std::string* error) {
    RedisEndpoint endpoint;
    std::string_view rest = url;
    auto fail = [&](const std::string& why) -> std::optional<RedisEndpoint> {
        if (error) *error = "REDIS_URL '" + url + "': " + why;
        return std::nullopt;
    };
    if (rest.rfind("unix://", 0) == 0) {
        rest.remove_prefix(7);
        std::size_t query = rest.find('?');
        endpoint.unixSocket = std::string(rest.substr(0, query));
        if (endpoint.unixSocket.empty()) return fail("no socket path");
        if (query != std::string_view::npos) {
            std::string_view params = rest.substr(query + 1);
            if (params.rfind("db=", 0) != 0 || !parseInt(params.substr(3), &endpoint.database)) {
                return fail("expected ?db=N after the socket path");
            }
        }
        return endpoint;
    }
    if (rest.rfind("redis://", 0) != 0) return fail("expected redis:// or unix://");
    rest.remove_prefix(8);
    if (std::size_t at = rest.rfind('@'); at != std::string_view::npos) {
        std::string_view credentials = rest.substr(0, at);
        std::size_t colon = credentials.find(':');
        // Redis 6 ACL users are not used here; the password is what AUTH needs.
        endpoint.password = std::string(
            colon == std::string_view::npos ? credentials : credentials.substr(colon + 1));
        rest.remove_prefix(at + 1);
    }
    if (std::size_t slash = rest.find('/'); slash != std::string_view::npos) {
        std::string_view db = rest.substr(slash + 1);
        if (!db.empty() && !parseInt(db, &endpoint.database)) return fail("bad database number");
        rest = rest.substr(0, slash);
    }
    if (std::size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
        if (!parseInt(rest.substr(colon + 1), &endpoint.port) || endpoint.port <= 0 ||
            endpoint.port > 65535) {
            return fail("bad port");
        }
        rest = rest.substr(0, colon);
    }
    if (!rest.empty()) endpoint.host = std::string(rest);
    return endpoint;
}

RedisContextPtr connectRedis(const RedisEndpoint& endpoint, std::chrono::milliseconds timeout,
                             std::string* error) {
    const timeval tv = toTimeval(timeout);
    RedisContextPtr context(endpoint.unixSocket.empty()
                                ? redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, tv)
                                : redisConnectUnixWithTimeout(endpoint.unixSocket.c_str(), tv));
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        return RedisContextPtr();
    };
    if (!context) return fail("cannot allocate a Redis context");
    if (context->err) return fail(std::string("cannot connect to Redis: ") + context->errstr);
    redisSetTimeout(context.get(), tv);
    if (endpoint.unixSocket.empty()) redisEnableKeepAlive(context.get());
    if (!endpoint.password.empty()) {
        RedisReplyPtr reply = sendCommand(context.get(), {"AUTH", endpoint.password});
        if (!reply || reply->type == REDIS_REPLY_ERROR) return fail("Redis AUTH failed");
    }
    if (endpoint.database != 0) {
        RedisReplyPtr reply =
            sendCommand(context.get(), {"SELECT", std::to_string(endpoint.database)});
        if (!reply || reply->type == REDIS_REPLY_ERROR) return fail("Redis SELECT failed");
    }
    return context;
}

RedisConnectionPool::RedisConnectionPool(RedisEndpoint endpoint, std::chrono::milliseconds timeout)
    : RedisConnectionPool(std::make_shared<RedisPrimary>(std::move(endpoint)), timeout) {}

RedisConnectionPool::RedisConnectionPool(std::shared_ptr<RedisPrimary> primary,
                                         std::chrono::milliseconds timeout)
    : primary_(std::move(primary)), timeout_(timeout) {}

RedisEndpoint RedisConnectionPool::endpoint() const {
    return primary_->endpoint();
}

RedisConnectionPool::Pooled RedisConnectionPool::acquire(std::string* error) {
    const std::uint64_t generation = primary_->generation();
    {
        std::lock_guard lock(mutex_);
        while (!idle_.empty()) {
            Pooled pooled = std::move(idle_.back());
            idle_.pop_back();
            // Made to a former primary: dropped (it may still answer, as a replica or not at all).
            if (pooled.generation == generation) return pooled;
        }
    }
    Pooled fresh{primary_->connect(timeout_, error), generation};
    if (fresh.context) applyGuard(*fresh.context);
    return fresh;
}

void RedisConnectionPool::guardWrites(const ReplicationPolicy& policy) {
    std::lock_guard lock(mutex_);
    if (policy.minAcks > 0) guard_ = policy;
}

void RedisConnectionPool::applyGuard(redisContext& context) {
    ReplicationPolicy guard;
    {
        std::lock_guard lock(mutex_);
        if (!guard_) return;
        guard = *guard_;
    }
    // Only raised: a deployment that asks for more replicas than the server keeps its own.
    const long long current = configNumber(context, "min-replicas-to-write");
    if (current < 0 || current >= guard.minAcks) return;
    // The lag first: with min-replicas-to-write set and a lag of 0, Redis never counts any
    // replica as good.
    sendCommand(&context,
                {"CONFIG", "SET", "min-replicas-max-lag", std::to_string(guard.maxLagSeconds)});
    sendCommand(&context,
                {"CONFIG", "SET", "min-replicas-to-write", std::to_string(guard.minAcks)});
}

ReplicaStatus RedisConnectionPool::replicaStatus(int maxLagSeconds) {
    // Two attempts, as send() makes: a pooled connection the server closed while it sat idle
    // (Redis's `timeout`, a proxy's) must not make the replicas unknown, and readiness with them.
    for (int attempt = 0; attempt < kSendAttempts; ++attempt) {
        std::string error;
        Pooled pooled = acquire(&error);
        if (!pooled.context) continue;
        ReplicaStatus status = readReplicaStatus(*pooled.context, maxLagSeconds);
        if (pooled.context->err) {
            connectionBroken();  // drop it and the idle ones, try a fresh one
            continue;
        }
        release(std::move(pooled));
        return status;
    }
    return {};
}

void RedisConnectionPool::connectionBroken() {
    {
        std::lock_guard lock(mutex_);
        idle_.clear();
    }
    primary_->suspect();
}

void RedisConnectionPool::release(Pooled pooled) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdleConnections && pooled.generation == primary_->generation())
        idle_.push_back(std::move(pooled));
}

RedisReplyPtr RedisConnectionPool::send(const std::vector<std::string>& args, Pooled* used,
                                        bool* unanswered) {
    // Two attempts: a pooled connection may have died with a Redis restart since its last use,
    // or reached a primary that was demoted since. (Callers' writes are idempotent: a second
    // attempt that finds the first applied answers as the first would have.)
    for (int attempt = 0; attempt < kSendAttempts; ++attempt) {
        std::string error;
        Pooled pooled = acquire(&error);
        if (!pooled.context) continue;
        errno = 0;
        RedisReplyPtr reply = sendCommand(pooled.context.get(), args);
        const int sendErrno = errno;
        if (!reply || pooled.context->err) {
            if (unanswered && sentWithoutAnswer(*pooled.context, sendErrno)) *unanswered = true;
            connectionBroken();  // drop it and the idle ones, try a fresh one
            continue;
        }
        if (unanswered) *unanswered = false;  // answered: the reply says what happened
        if (isReadOnlyError(reply.get())) {
            primary_->suspect();
            continue;
        }
        if (isNoReplicasError(reply.get())) ++guardRefusals_;
        *used = std::move(pooled);
        return reply;
    }
    return nullptr;
}

RedisReplyPtr RedisConnectionPool::command(const std::vector<std::string>& args) {
    Pooled used;
    RedisReplyPtr reply = send(args, &used);
    if (!reply) return nullptr;
    release(std::move(used));
    if (reply->type == REDIS_REPLY_ERROR) return nullptr;
    return reply;
}

int RedisConnectionPool::requiredAcks(redisContext& context, const ReplicationPolicy& policy,
                                      bool fresh) {
    // Acknowledged means replicated: the configured count, whatever the primary has online.
    if (!policy.capToOnline) return policy.minAcks;
    const auto now = std::chrono::steady_clock::now();
    const std::uint64_t generation = primary_->generation();
    {
        std::lock_guard lock(mutex_);
        if (!fresh && replicasOf_ == generation && now - replicasReadAt_ < kReplicaCountTtl)
            return std::min(policy.minAcks, onlineReplicas_);
    }
    const ReplicaStatus status = readReplicaStatus(context, policy.maxLagSeconds);
    // Unknown (the connection failed): ask for all, so nothing is acknowledged unreplicated.
    if (!status.known) return policy.minAcks;
    std::lock_guard lock(mutex_);
    onlineReplicas_ = status.online;
    replicasOf_ = generation;
    replicasReadAt_ = now;
    return std::min(policy.minAcks, status.online);
}

ReplicatedReply RedisConnectionPool::commandReplicated(const std::vector<std::string>& args,
                                                       const ReplicationPolicy& policy) {
    ReplicatedReply result;
    Pooled used;
    result.reply = send(args, &used, &result.outcomeUnknown);
    if (!result.reply) return result;
    if (result.reply->type == REDIS_REPLY_ERROR || policy.minAcks <= 0) {
        release(std::move(used));
        if (result.reply->type == REDIS_REPLY_ERROR) result.reply.reset();
        return result;
    }
    // WAIT blocks up to policy.timeout: the connection's read timeout must outlast it meanwhile.
    const bool longer = policy.timeout >= timeout_;
    if (longer) redisSetTimeout(used.context.get(), toTimeval(policy.timeout + timeout_));
    auto waitFor = [&](int acks) -> long long {
        if (acks <= 0) return 0;
        RedisReplyPtr wait =
            sendCommand(used.context.get(),
                        {"WAIT", std::to_string(acks), std::to_string(policy.timeout.count())});
        if (!wait || used.context->err || wait->type != REDIS_REPLY_INTEGER) return -1;
        return wait->integer;
    };
    int required = requiredAcks(*used.context, policy, false);
    long long acks = waitFor(required);
    if (policy.capToOnline && acks >= 0 && acks < required) {
        // Fewer than the cached count of online replicas: one may have gone since. Count again,
        // and wait for what the primary has now.
        required = requiredAcks(*used.context, policy, true);
        if (acks < required) acks = waitFor(required);
    }
    if (acks < 0 || acks < required) {
        // Too few acks in time, or the connection failed under WAIT: the write is on the
        // primary but not known to survive it.
        result.replicated = false;
        ++ackFailures_;
    } else if (required < policy.minAcks) {
        ++unreplicated_;
    }
    if (used.context->err) return result;
    if (longer) redisSetTimeout(used.context.get(), toTimeval(timeout_));
    release(std::move(used));
    return result;
}

}  // namespace outpost::server
