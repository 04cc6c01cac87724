#include "store/redis_event_bus.h"

#include <hiredis/hiredis.h>
#include <sys/socket.h>

#include <charconv>
#include <stdexcept>

namespace outpost::server {

namespace {

constexpr char kGameChangedTag = 'G';
constexpr char kEngineInfoTag = 'I';
constexpr std::chrono::milliseconds kFirstReconnectDelay{50};

std::string_view replyText(const redisReply* reply) {
    return reply && reply->type == REDIS_REPLY_STRING ? std::string_view(reply->str, reply->len)
                                                      : std::string_view();
}

}  // namespace

RedisEventBus::RedisEventBus(RedisBusOptions options)
    : options_(std::move(options)),
      publisher_(parseRedisUrlOrThrow(options_.url), options_.timeout),
      channelPrefix_(options_.keyPrefix + "events:") {
    listener_ = std::thread([this] { listen(); });
}

RedisEventBus::~RedisEventBus() {
    {
        std::lock_guard lock(listenerMutex_);
        stopping_ = true;
        // Wakes the reader blocked in redisGetReply; it owns (and frees) the context.
        if (listenerFd_ >= 0) ::shutdown(listenerFd_, SHUT_RDWR);
    }
    stopCondition_.notify_all();
    listener_.join();
}

std::string RedisEventBus::encode(const GameEvent& event) {
    std::string message;
    message.reserve(event.payload.size() + 24);
    message += event.kind == GameEvent::Kind::GameChanged ? kGameChangedTag : kEngineInfoTag;
    message += std::to_string(event.version);
    message += '\n';
    message += event.payload;
    return message;
}

bool RedisEventBus::decode(std::string_view gameId, std::string_view message, GameEvent* event) {
    std::size_t newline = message.find('\n');
    if (message.size() < 2 || newline == std::string_view::npos) return false;
    if (message[0] == kGameChangedTag) {
        event->kind = GameEvent::Kind::GameChanged;
    } else if (message[0] == kEngineInfoTag) {
        event->kind = GameEvent::Kind::EngineInfo;
    } else {
        return false;
    }
    const char* first = message.data() + 1;
    const char* last = message.data() + newline;
    auto [end, ec] = std::from_chars(first, last, event->version);
    if (ec != std::errc() || end != last) return false;
    event->gameId = std::string(gameId);
    event->payload = std::string(message.substr(newline + 1));
    return true;
}

GameEventBus::SubscriptionId RedisEventBus::subscribe(const std::string& gameId, Handler handler) {
    return subscribers_.add(gameId, std::move(handler));
}

void RedisEventBus::unsubscribe(SubscriptionId id) {
    subscribers_.remove(id);
}

void RedisEventBus::publish(const GameEvent& event) {
    // A lost event is tolerable (see the header); a failed publish must not fail the move.
    publisher_.command({"PUBLISH", channelPrefix_ + event.gameId, encode(event)});
}

bool RedisEventBus::sleepUnlessStopping(std::chrono::milliseconds delay) {
    std::unique_lock lock(listenerMutex_);
    stopCondition_.wait_for(lock, delay, [this] { return stopping_; });
    return !stopping_;
}

void RedisEventBus::listen() {
    std::chrono::milliseconds delay = kFirstReconnectDelay;
    const std::string pattern = channelPrefix_ + "*";
    while (true) {
        {
            std::lock_guard lock(listenerMutex_);
            if (stopping_) return;
        }
        std::string error;
        RedisContextPtr context = connectRedis(publisher_.endpoint(), options_.timeout, &error);
        if (context) {
            {
                std::lock_guard lock(listenerMutex_);
                if (stopping_) return;
                listenerFd_ = context->fd;
            }
            // No read timeout: the connection idles until an event arrives (TCP keep-alive
            // notices a dead peer); the destructor wakes it with shutdown().
            redisSetTimeout(context.get(), timeval{0, 0});
            RedisReplyPtr reply(static_cast<redisReply*>(
                redisCommand(context.get(), "PSUBSCRIBE %b", pattern.data(), pattern.size())));
            if (reply && !context->err) {
                listening_ = true;
                delay = kFirstReconnectDelay;
                void* raw = nullptr;
                while (redisGetReply(context.get(), &raw) == REDIS_OK) {
                    RedisReplyPtr message(static_cast<redisReply*>(raw));
                    // ["pmessage", pattern, channel, data]
                    if (!message || message->type != REDIS_REPLY_ARRAY || message->elements != 4) {
                        continue;
                    }
                    std::string_view channel = replyText(message->element[2]);
                    if (channel.rfind(channelPrefix_, 0) != 0) continue;
                    GameEvent event;
                    if (decode(channel.substr(channelPrefix_.size()),
                               replyText(message->element[3]), &event)) {
                        subscribers_.dispatch(event);
                    }
                }
                listening_ = false;
            }
            // Unregister before the context (and its socket) is freed at the end of this block.
            std::lock_guard lock(listenerMutex_);
            listenerFd_ = -1;
        }
        if (!sleepUnlessStopping(delay)) return;
        delay = std::min(delay * 2, options_.maxReconnectDelay);
    }
}

}  // namespace outpost::server
