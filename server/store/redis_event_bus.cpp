#include "store/redis_event_bus.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <stdexcept>
#include <utility>
#include <vector>

namespace outpost::server {

namespace {

constexpr char kGameChangedTag = 'G';
constexpr char kEngineInfoTag = 'I';
constexpr char kPresenceTag = 'P';
constexpr std::chrono::milliseconds kFirstReconnectDelay{50};

}  // namespace

RedisEventBus::RedisEventBus(RedisBusOptions options)
    : options_(std::move(options)),
      publisher_(options_.primary
                     ? options_.primary
                     : std::make_shared<RedisPrimary>(parseRedisUrlOrThrow(options_.url)),
                 options_.timeout),
      channelPrefix_(options_.keyPrefix + "events:") {
    wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wakeFd_ < 0) throw std::runtime_error("eventfd failed for the Redis event bus");
    // A new primary: leave the old one (or stop waiting to reconnect to it) at once.
    primaryListener_ = publisher_.primary()->addListener([this] {
        wakeListener();
        std::lock_guard lock(listenerMutex_);
        stopCondition_.notify_all();
    });
    listener_ = std::thread([this] { listen(); });
    publisherThread_ = std::thread([this] { publishLoop(); });
}

RedisEventBus::~RedisEventBus() {
    publisher_.primary()->removeListener(primaryListener_);
    {
        std::lock_guard lock(listenerMutex_);
        stopping_ = true;
    }
    stopCondition_.notify_all();
    confirmed_.notify_all();
    wakeListener();
    listener_.join();
    {
        std::lock_guard lock(publishMutex_);
        publishStopping_ = true;
    }
    publishReady_.notify_all();
    publisherThread_.join();
    ::close(wakeFd_);
}

void RedisEventBus::wakeListener() {
    const std::uint64_t one = 1;
    // A full counter (never, in practice) still wakes the listener: nothing to handle.
    [[maybe_unused]] const auto written = ::write(wakeFd_, &one, sizeof one);
}

std::string RedisEventBus::encode(const GameEvent& event) {
    std::string message;
    message.reserve(event.payload.size() + 24);
    message += event.kind == GameEvent::Kind::GameChanged ? kGameChangedTag
               : event.kind == GameEvent::Kind::Presence  ? kPresenceTag
                                                          : kEngineInfoTag;
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
    } else if (message[0] == kPresenceTag) {
        event->kind = GameEvent::Kind::Presence;
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
    const SubscriptionId id = subscribers_.add(gameId, std::move(handler));
    wakeListener();
    // Wait until Redis confirmed the channel, so no event published from now on is missed; not
    // while the subscriber connection is down (the client reloads the game when it comes back).
    std::unique_lock lock(listenerMutex_);
    confirmed_.wait_for(lock, options_.timeout, [&] {
        return stopping_ || !listening_.load() || confirmedGames_.count(gameId) > 0;
    });
    return id;
}

void RedisEventBus::unsubscribe(SubscriptionId id) {
    subscribers_.remove(id);
    wakeListener();
}

std::set<std::string> RedisEventBus::subscribedGames() const {
    std::lock_guard lock(listenerMutex_);
    return confirmedGames_;
}

void RedisEventBus::publish(const GameEvent& event) {
    // Never waits for Redis: the publisher thread sends it. A lost event is tolerable (see the
    // header); a full queue drops progress before game changes.
    {
        std::lock_guard lock(publishMutex_);
        if (publishStopping_) return;
        if (publishQueue_.size() >= options_.maxQueuedEvents) {
            if (event.kind == GameEvent::Kind::EngineInfo) {
                ++dropped_;
                return;
            }
            auto info = std::find_if(publishQueue_.begin(), publishQueue_.end(), [](const auto& e) {
                return e.kind == GameEvent::Kind::EngineInfo;
            });
            publishQueue_.erase(info != publishQueue_.end() ? info : publishQueue_.begin());
            ++dropped_;
        }
        publishQueue_.push_back(event);
    }
    publishReady_.notify_one();
}

void RedisEventBus::publishLoop() {
    for (;;) {
        GameEvent event;
        {
            std::unique_lock lock(publishMutex_);
            publishReady_.wait(lock, [&] { return publishStopping_ || !publishQueue_.empty(); });
            if (publishStopping_) return;
            event = std::move(publishQueue_.front());
            publishQueue_.pop_front();
        }
        publisher_.command({"PUBLISH", channelPrefix_ + event.gameId, encode(event)});
    }
}

bool RedisEventBus::sleepUnlessStopping(std::chrono::milliseconds delay, std::uint64_t generation) {
    std::unique_lock lock(listenerMutex_);
    stopCondition_.wait_for(
        lock, delay, [&] { return stopping_ || publisher_.primary()->generation() != generation; });
    return !stopping_;
}

bool RedisEventBus::reconcile(redisContext& context, std::set<std::string>& requested) {
    const std::set<std::string> wanted = subscribers_.games();
    std::vector<std::string> subscribe{"SUBSCRIBE"};
    std::vector<std::string> unsubscribe{"UNSUBSCRIBE"};
    for (const std::string& game : wanted)
        if (!requested.count(game)) subscribe.push_back(channelPrefix_ + game);
    for (const std::string& game : requested)
        if (!wanted.count(game)) unsubscribe.push_back(channelPrefix_ + game);
    for (const auto* command : {&subscribe, &unsubscribe}) {
        if (command->size() == 1) continue;
        std::vector<const char*> argv;
        std::vector<std::size_t> lengths;
        for (const std::string& arg : *command) {
            argv.push_back(arg.data());
            lengths.push_back(arg.size());
        }
        if (redisAppendCommandArgv(&context, static_cast<int>(argv.size()), argv.data(),
                                   lengths.data()) != REDIS_OK) {
            return false;
        }
    }
    for (const std::string& game : unsubscribe) {
        if (game.rfind(channelPrefix_, 0) == 0) {
            requested.erase(game.substr(channelPrefix_.size()));
            std::lock_guard lock(listenerMutex_);
            confirmedGames_.erase(game.substr(channelPrefix_.size()));
        }
    }
    for (std::size_t i = 1; i < subscribe.size(); ++i)
        requested.insert(subscribe[i].substr(channelPrefix_.size()));
    int done = 0;
    while (!done) {
        if (redisBufferWrite(&context, &done) != REDIS_OK) return false;
    }
    return true;
}

void RedisEventBus::onResync(Resync resync) {
    std::lock_guard lock(resyncMutex_);
    resync_ = std::move(resync);
}

bool RedisEventBus::serve(redisContext& context, std::uint64_t generation) {
    std::set<std::string> requested;
    // The games this connection subscribes to first: their events since the last connection
    // (or since subscribe() gave up waiting for one) may be lost, so each is resynced once its
    // subscription is confirmed.
    std::set<std::string> resyncPending;
    bool firstReconcile = true;
    listening_ = true;
    for (;;) {
        if (!reconcile(context, requested)) return true;
        if (std::exchange(firstReconcile, false)) resyncPending = requested;
        pollfd fds[2] = {{context.fd, POLLIN, 0}, {wakeFd_, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return true;
        }
        if (fds[1].revents & POLLIN) {
            std::uint64_t count = 0;
            [[maybe_unused]] const auto read = ::read(wakeFd_, &count, sizeof count);
            {
                std::lock_guard lock(listenerMutex_);
                if (stopping_) return false;
            }
            if (publisher_.primary()->generation() != generation) return true;
        }
        if (!(fds[0].revents & (POLLIN | POLLERR | POLLHUP))) continue;
        if (redisBufferRead(&context) != REDIS_OK) return true;
        void* raw = nullptr;
        while (redisGetReplyFromReader(&context, &raw) == REDIS_OK && raw) {
            RedisReplyPtr reply(static_cast<redisReply*>(raw));
            raw = nullptr;
            // ["message", channel, data] or ["subscribe" | "unsubscribe", channel, count]
            if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3) continue;
            const std::string_view kind = replyText(reply->element[0]);
            const std::string_view channel = replyText(reply->element[1]);
            if (channel.rfind(channelPrefix_, 0) != 0) continue;
            const std::string_view gameId = channel.substr(channelPrefix_.size());
            if (kind == "message") {
                GameEvent event;
                if (decode(gameId, replyText(reply->element[2]), &event)) {
                    subscribers_.dispatch(event);
                }
            } else if (kind == "subscribe") {
                {
                    std::lock_guard lock(listenerMutex_);
                    confirmedGames_.insert(std::string(gameId));
                }
                confirmed_.notify_all();
                if (resyncPending.erase(std::string(gameId)) > 0) {
                    std::lock_guard lock(resyncMutex_);
                    if (resync_) resync_(std::string(gameId));
                }
            }
        }
        if (context.err) return true;
    }
}

void RedisEventBus::listen() {
    std::chrono::milliseconds delay = kFirstReconnectDelay;
    while (true) {
        {
            std::lock_guard lock(listenerMutex_);
            if (stopping_) return;
        }
        std::string error;
        const std::uint64_t generation = publisher_.primary()->generation();
        RedisContextPtr context = publisher_.primary()->connect(options_.timeout, &error);
        if (context) {
            delay = kFirstReconnectDelay;
            const bool goOn = serve(*context, generation);
            listening_ = false;
            {
                std::lock_guard lock(listenerMutex_);
                confirmedGames_.clear();
            }
            confirmed_.notify_all();
            if (!goOn) return;
        }
        if (!sleepUnlessStopping(delay, generation)) return;
        delay = publisher_.primary()->generation() != generation
                    ? kFirstReconnectDelay
                    : std::min(delay * 2, options_.maxReconnectDelay);
    }
}

}  // namespace outpost::server
