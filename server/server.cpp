#include "server.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <csignal>
#include <stdexcept>

#include "net/http_session.h"
#include "store/memory_game_store.h"

namespace outpost::server {

namespace {
// After the searches: how long queued answers and WebSocket close handshakes may take.
constexpr auto kFlushTimeout = std::chrono::seconds(2);
constexpr auto kFlushPoll = std::chrono::milliseconds(10);
// Stopped searches end within milliseconds; this bounds a search that ignores stop.
constexpr auto kStopTimeout = std::chrono::seconds(5);
// How far past the time cap a search may run before the pool's watchdog calls it overrun.
constexpr std::int64_t kOverrunSlackMs = 5000;
}  // namespace

Server::Server(ServerConfig config, ServerParts parts) {
    if (!parts.store) parts.store = std::make_shared<MemoryGameStore>();
    if (!parts.bus) parts.bus = std::make_shared<MemoryEventBus>();
    if (!parts.searchers) throw std::invalid_argument("Server needs a searcher factory");
    PoolOptions poolOptions;
    poolOptions.threads = config.effectiveSearchThreads();
    poolOptions.queueCapacity = config.queueSize;
    poolOptions.perClientLimit = config.perClientSearches;
    poolOptions.reviewsYield = config.reviewsYield;
    // Every search stops at the time cap (capSearchTime); one still running well past it is stuck.
    poolOptions.overrunAfter = std::chrono::milliseconds(config.maxMovetimeMs + kOverrunSlackMs);
    auto pool = std::make_unique<SearchPool>(poolOptions, parts.searchers);
    io_.emplace();
    context_ = std::make_unique<ServerContext>(std::move(config), std::move(parts.store),
                                               std::move(parts.bus), std::move(pool), parts.log);
    if (parts.analysisCache) context_->analysisCache = std::move(parts.analysisCache);
}

Server::~Server() {
    shutdown();
    wait();
    // No more flag events, searches or store work posting into sessions: the I/O context and the
    // sessions go next.
    context_->quiesce();
    listener_.reset();
    signals_.reset();
    io_.reset();
    context_.reset();
}

void Server::start() {
    const ServerConfig& config = context_->config;
    const auto address = boost::asio::ip::make_address(config.bind);
    listener_ = std::make_shared<Listener>(
        *io_, boost::asio::ip::tcp::endpoint(address, static_cast<unsigned short>(config.port)),
        *context_);
    port_ = listener_->port();
    listener_->start();
    for (int i = 0; i < config.ioThreads; ++i) {
        ioThreads_.emplace_back([this] { runIo(); });
    }
    // The cluster's time before any game is served (the sweep then keeps measuring it).
    context_->measureClock();
    context_->clockSweep.start();
    context_->ready = true;
    context_->logger.log({{"event", "listening"},
                          {"bind", config.bind},
                          {"port", port_},
                          {"searchThreads", context_->pool->threads()},
                          {"ioThreads", config.ioThreads}});
}

// One I/O thread. A handler that throws unwinds out of run(); Asio allows run() to be called
// again, so the thread logs, counts and goes back to serving instead of taking the process down.
void Server::runIo() {
    for (;;) {
        try {
            io_->run();
            return;  // stopped: the drain is over
        } catch (const std::exception& error) {
            context_->metrics.internalError("io");
            context_->logger.log(
                {{"event", "internal_error"}, {"where", "io"}, {"error", error.what()}});
        } catch (...) {
            context_->metrics.internalError("io");
            context_->logger.log(
                {{"event", "internal_error"}, {"where", "io"}, {"error", "unknown exception"}});
        }
    }
}

void Server::post(std::function<void()> task) {
    boost::asio::post(*io_, std::move(task));
}

void Server::handleSignals() {
    signals_.emplace(*io_, SIGTERM, SIGINT);
    signals_->async_wait([this](const boost::system::error_code& error, int signal) {
        if (error) return;
        context_->logger.log({{"event", "signal"}, {"signal", signal}});
        shutdown();
    });
}

void Server::shutdown() {
    std::lock_guard lock(mutex_);
    if (shutdownStarted_) return;
    shutdownStarted_ = true;
    drainThread_ = std::thread([this] { drain(); });
}

void Server::drain() {
    ServerContext& context = *context_;
    const auto started = std::chrono::steady_clock::now();
    context.ready = false;
    context.draining = true;
    context.pool->beginDrain();
    context.logger.log({{"event", "draining"},
                        {"running", context.pool->running()},
                        {"queued", context.pool->queued()}});
    bool finished = context.pool->waitIdle(std::chrono::milliseconds(context.config.drainGraceMs));
    if (!finished) {
        context.pool->stopAll();
        finished = context.pool->waitIdle(kStopTimeout);
    }
    // Results are posted to the sessions before the closes below, so they go out first.
    if (listener_) listener_->stop();
    context.webSockets.closeAll();
    context.httpSessions.closeAll();
    const auto flushDeadline = std::chrono::steady_clock::now() + kFlushTimeout;
    while ((context.webSockets.size() > 0 || context.httpSessions.size() > 0) &&
           std::chrono::steady_clock::now() < flushDeadline) {
        std::this_thread::sleep_for(kFlushPoll);
    }
    if (signals_) {
        boost::asio::post(*io_, [this] {
            boost::system::error_code ignored;
            signals_->cancel(ignored);
        });
    }
    io_->stop();
    context.logger.log({{"event", "stopped"},
                        {"searchesFinished", finished},
                        {"ms", std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now() - started)
                                   .count()}});
}

void Server::wait() {
    std::thread drainThread;
    {
        std::lock_guard lock(mutex_);
        if (!shutdownStarted_) {
            // Serve until someone calls shutdown(): wait for the I/O threads, which end then.
        }
    }
    for (auto& thread : ioThreads_) {
        if (thread.joinable()) thread.join();
    }
    {
        std::lock_guard lock(mutex_);
        drainThread = std::move(drainThread_);
    }
    if (drainThread.joinable()) drainThread.join();
}

}  // namespace outpost::server
