// Connections to Redis for the shared store and the event bus (hiredis, synchronous API).
//
// A hiredis context is not thread-safe, so RedisConnectionPool hands each caller a context of its
// own for one command and takes it back afterwards. A context that saw an error is discarded,
// never returned: the next caller connects afresh, which is how the pool recovers from a Redis
// restart.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
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

struct RedisContextDeleter {
    void operator()(redisContext* context) const;
};
using RedisContextPtr = std::unique_ptr<redisContext, RedisContextDeleter>;

// Connects, authenticates and selects the database. Returns null (and sets `error`) on failure.
RedisContextPtr connectRedis(const RedisEndpoint& endpoint, std::chrono::milliseconds timeout,
                             std::string* error);

class RedisConnectionPool {
  public:
    RedisConnectionPool(RedisEndpoint endpoint, std::chrono::milliseconds timeout);

    // Sends one command (binary-safe arguments) and returns its reply. On a connection error the
    // command is retried once on a fresh connection (callers make their commands idempotent);
    // returns null when Redis cannot be reached or answers with an error.
    RedisReplyPtr command(const std::vector<std::string>& args);

    const RedisEndpoint& endpoint() const { return endpoint_; }

  private:
    static constexpr std::size_t kMaxIdleConnections = 16;

    RedisContextPtr acquire(std::string* error);
    void release(RedisContextPtr context);

    RedisEndpoint endpoint_;
    std::chrono::milliseconds timeout_;
    std::mutex mutex_;
    std::vector<RedisContextPtr> idle_;
};

}  // namespace outpost::server
