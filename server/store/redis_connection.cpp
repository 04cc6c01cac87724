#include "store/redis_connection.h"

#include <hiredis/hiredis.h>

#include <charconv>
#include <stdexcept>

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

}  // namespace

RedisEndpoint parseRedisUrlOrThrow(const std::string& url) {
    std::string error;
    std::optional<RedisEndpoint> endpoint = parseRedisUrl(url, &error);
    if (!endpoint) throw std::invalid_argument(error);
    return *endpoint;
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
    : endpoint_(std::move(endpoint)), timeout_(timeout) {}

RedisContextPtr RedisConnectionPool::acquire(std::string* error) {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            RedisContextPtr context = std::move(idle_.back());
            idle_.pop_back();
            return context;
        }
    }
    return connectRedis(endpoint_, timeout_, error);
}

void RedisConnectionPool::release(RedisContextPtr context) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdleConnections) idle_.push_back(std::move(context));
}

RedisReplyPtr RedisConnectionPool::command(const std::vector<std::string>& args) {
    // Two attempts: a pooled connection may have died with a Redis restart since its last use.
    constexpr int kAttempts = 2;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        std::string error;
        RedisContextPtr context = acquire(&error);
        if (!context) continue;
        RedisReplyPtr reply = sendCommand(context.get(), args);
        if (!reply || context->err) continue;  // connection broken: drop it, try a fresh one
        release(std::move(context));
        if (reply->type == REDIS_REPLY_ERROR) return nullptr;
        return reply;
    }
    return nullptr;
}

}  // namespace outpost::server
