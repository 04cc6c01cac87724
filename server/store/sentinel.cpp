#include "store/sentinel.h"

#include <hiredis/hiredis.h>
#include <poll.h>

#include <cerrno>
#include <charconv>
#include <future>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace outpost::server {

namespace {

constexpr int kDefaultSentinelPort = 26379;
constexpr const char* kSwitchChannel = "+switch-master";

bool parsePort(std::string_view value, int* port) {
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), *port);
    return ec == std::errc() && end == value.data() + value.size() && *port > 0 && *port <= 65535;
}

std::string describe(const RedisEndpoint& endpoint) {
    return endpoint.host + ":" + std::to_string(endpoint.port);
}

}  // namespace

std::vector<RedisEndpoint> parseSentinelList(const std::string& list) {
    std::vector<RedisEndpoint> sentinels;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto first = item.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        item = item.substr(first, item.find_last_not_of(" \t") - first + 1);
        RedisEndpoint endpoint;
        endpoint.port = kDefaultSentinelPort;
        const auto colon = item.rfind(':');
        endpoint.host = item.substr(0, colon);
        if (colon != std::string::npos &&
            !parsePort(std::string_view(item).substr(colon + 1), &endpoint.port)) {
            throw std::invalid_argument("--redis-sentinels: bad port in '" + item + "'");
        }
        if (endpoint.host.empty())
            throw std::invalid_argument("--redis-sentinels: no host in '" + item + "'");
        sentinels.push_back(std::move(endpoint));
    }
    if (sentinels.empty()) throw std::invalid_argument("--redis-sentinels: no sentinel given");
    return sentinels;
}

namespace {

// One sentinel's answer: the address it names, or nullopt.
std::optional<RedisEndpoint> askOne(const RedisEndpoint& sentinel, const std::string& masterName,
                                    std::chrono::milliseconds timeout) {
    RedisContextPtr context = connectRedis(sentinel, timeout, nullptr);
    if (!context) return std::nullopt;
    RedisReplyPtr reply(
        static_cast<redisReply*>(redisCommand(context.get(), "SENTINEL get-master-addr-by-name %b",
                                              masterName.data(), masterName.size())));
    // [host, port]; nil when this sentinel does not know the name.
    if (!reply || reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) return std::nullopt;
    RedisEndpoint primary;
    primary.host = std::string(replyText(reply->element[0]));
    if (primary.host.empty() || !parsePort(replyText(reply->element[1]), &primary.port))
        return std::nullopt;
    return primary;
}

}  // namespace

SentinelVerdict askSentinelsForPrimary(const std::vector<RedisEndpoint>& sentinels,
                                       const std::string& masterName,
                                       std::chrono::milliseconds timeout) {
    // In parallel: a sentinel that hangs costs `timeout` once, not once per sentinel after it.
    std::vector<std::future<std::optional<RedisEndpoint>>> answers;
    answers.reserve(sentinels.size());
    for (const RedisEndpoint& sentinel : sentinels) {
        answers.push_back(std::async(std::launch::async, [&sentinel, &masterName, timeout] {
            return askOne(sentinel, masterName, timeout);
        }));
    }
    SentinelVerdict verdict;
    verdict.asked = sentinels.size();
    std::map<std::pair<std::string, int>, std::size_t> votes;
    for (auto& answer : answers) {
        const std::optional<RedisEndpoint> named = answer.get();
        if (!named) continue;
        ++verdict.answered;
        const std::size_t count = ++votes[{named->host, named->port}];
        if (count > verdict.agreeing) {
            verdict.agreeing = count;
            if (2 * count > verdict.asked) verdict.primary = named;
        }
    }
    return verdict;
}

RedisPrimary::RedisPrimary(RedisEndpoint endpoint) : endpoint_(std::move(endpoint)) {}

RedisPrimary::RedisPrimary(RedisEndpoint base, SentinelOptions sentinel, Log log)
    : sentinel_(std::move(sentinel)), log_(std::move(log)), endpoint_(std::move(base)) {
    endpoint_.unixSocket.clear();
    refresh("start");
    watcher_ = std::thread([this] { watch(); });
}

RedisPrimary::~RedisPrimary() {
    {
        std::lock_guard lock(stopMutex_);
        stopping_ = true;
    }
    stopCondition_.notify_all();
    if (watcher_.joinable()) watcher_.join();
}

RedisEndpoint RedisPrimary::endpoint() const {
    std::lock_guard lock(mutex_);
    return endpoint_;
}

bool RedisPrimary::stopping() const {
    std::lock_guard lock(stopMutex_);
    return stopping_;
}

std::uint64_t RedisPrimary::addListener(std::function<void()> listener) {
    std::lock_guard lock(listenersMutex_);
    listeners_.emplace(nextListener_, std::move(listener));
    return nextListener_++;
}

void RedisPrimary::removeListener(std::uint64_t handle) {
    std::lock_guard lock(listenersMutex_);
    listeners_.erase(handle);
}

void RedisPrimary::suspect() {
    if (!usesSentinel()) return;
    {
        std::lock_guard lock(askMutex_);
        if (std::chrono::steady_clock::now() - lastAsk_ < kMinAskInterval) return;
    }
    refresh("suspect");
}

bool RedisPrimary::refresh(const char* why) {
    std::lock_guard ask(askMutex_);
    lastAsk_ = std::chrono::steady_clock::now();
    const SentinelVerdict verdict =
        askSentinelsForPrimary(sentinel_.sentinels, sentinel_.masterName, sentinel_.timeout);
    if (!verdict.primary) {
        if (log_)
            log_(verdict.answered == 0 ? "redis_sentinel_unanswered" : "redis_sentinel_no_majority",
                 std::to_string(verdict.answered) + " of " + std::to_string(verdict.asked) +
                     " sentinels named a primary, at most " + std::to_string(verdict.agreeing) +
                     " the same one (" + std::string(why) + ")");
        return false;
    }
    adopt(verdict.primary->host, verdict.primary->port, why);
    return true;
}

void RedisPrimary::adopt(const std::string& host, int port, const char* why) {
    std::string from;
    {
        std::lock_guard lock(mutex_);
        if (generation_.load() > 0 && endpoint_.host == host && endpoint_.port == port) return;
        from = generation_.load() > 0 ? describe(endpoint_) : std::string();
        endpoint_.host = host;
        endpoint_.port = port;
        // The first answer is where we start, not a change.
        if (generation_.fetch_add(1) > 0) ++changes_;
    }
    if (log_) {
        log_(from.empty() ? "redis_primary" : "redis_primary_changed",
             (from.empty() ? "" : from + " -> ") + host + ":" + std::to_string(port) + " (" + why +
                 ")");
    }
    // Called under the lock, so that removeListener() waits for a call in progress and the
    // listener's owner may go once it returns.
    std::lock_guard lock(listenersMutex_);
    for (const auto& [handle, listener] : listeners_) listener();
}

RedisContextPtr RedisPrimary::connect(std::chrono::milliseconds timeout, std::string* error) {
    if (usesSentinel() && generation() == 0) {
        // No majority of the sentinels has named a primary yet: nowhere to send the password.
        if (error) *error = "no majority of the sentinels names the primary yet";
        suspect();
        return RedisContextPtr();
    }
    RedisContextPtr context = connectRedis(endpoint(), timeout, error);
    if (!context) {
        suspect();
        return context;
    }
    if (!usesSentinel()) return context;
    RedisReplyPtr role(static_cast<redisReply*>(redisCommand(context.get(), "ROLE")));
    if (!role || role->type != REDIS_REPLY_ARRAY || role->elements == 0 ||
        replyText(role->element[0]) != "master") {
        if (error) *error = "the Redis at " + describe(endpoint()) + " is not the primary";
        suspect();
        return RedisContextPtr();
    }
    return context;
}

void RedisPrimary::watch() {
    std::size_t next = 0;
    while (!stopping()) {
        watchOne(sentinel_.sentinels[next]);
        next = (next + 1) % sentinel_.sentinels.size();
        std::unique_lock lock(stopMutex_);
        stopCondition_.wait_for(lock, kWatchPoll, [this] { return stopping_; });
    }
}

void RedisPrimary::watchOne(const RedisEndpoint& sentinel) {
    RedisContextPtr context = connectRedis(sentinel, sentinel_.timeout, nullptr);
    if (!context) return;
    if (redisAppendCommand(context.get(), "SUBSCRIBE %s", kSwitchChannel) != REDIS_OK) return;
    int done = 0;
    while (!done) {
        if (redisBufferWrite(context.get(), &done) != REDIS_OK) return;
    }
    // A switch announced while no sentinel was watched: ask once subscribed.
    refresh("watch");
    auto lastCheck = std::chrono::steady_clock::now();
    // A switch announced by this sentinel that a majority has not confirmed yet (the others learn
    // it from the new primary's hello messages, within seconds): asked again every poll.
    std::optional<std::pair<std::string, int>> announced;
    auto announcedAt = lastCheck;
    while (!stopping()) {
        pollfd fd{context->fd, POLLIN, 0};
        const int ready = ::poll(&fd, 1, static_cast<int>(kWatchPoll.count()));
        if (ready < 0 && errno != EINTR) return;
        const auto now = std::chrono::steady_clock::now();
        if (announced) {
            const RedisEndpoint current = endpoint();
            if ((current.host == announced->first && current.port == announced->second) ||
                now - announcedAt >= kSwitchFollowUp) {
                announced.reset();
            } else {
                lastCheck = now;
                refresh("switch-master");
            }
        }
        if (now - lastCheck >= kRecheckInterval) {
            lastCheck = now;
            refresh("recheck");
        }
        if (ready <= 0) continue;
        if (redisBufferRead(context.get()) != REDIS_OK) return;
        void* raw = nullptr;
        while (redisGetReplyFromReader(context.get(), &raw) == REDIS_OK && raw) {
            RedisReplyPtr reply(static_cast<redisReply*>(raw));
            raw = nullptr;
            // ["message", "+switch-master", "<name> <old-ip> <old-port> <new-ip> <new-port>"]
            if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3 ||
                replyText(reply->element[0]) != "message") {
                continue;
            }
            std::istringstream words{std::string(replyText(reply->element[2]))};
            std::string name, oldHost, oldPort, newHost, newPort;
            int port = 0;
            if (!(words >> name >> oldHost >> oldPort >> newHost >> newPort)) continue;
            if (name != sentinel_.masterName || !parsePort(newPort, &port)) continue;
            // One sentinel's word: followed once a majority names the same primary.
            announced.emplace(newHost, port);
            announcedAt = std::chrono::steady_clock::now();
            lastCheck = announcedAt;
            refresh("switch-master");
        }
        if (context->err) return;
    }
}

}  // namespace outpost::server
