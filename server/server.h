// The whole server: I/O threads running the listener and sessions, the search pool, the store,
// and the graceful drain (SIGTERM or shutdown()): /readyz turns 503, no new searches, running
// ones get drainGraceMs to finish (then are stopped, results still delivered), WebSockets close
// with 1001, then the I/O threads end.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

#include "config.h"
#include "search/searcher.h"
#include "server_context.h"

namespace outpost::server {

class Listener;

struct ServerParts {
    std::shared_ptr<GameStore> store;   // default: in memory
    std::shared_ptr<GameEventBus> bus;  // default: in memory
    // Finished analyses for GET /api/v1/analysis; default: in memory (--analysis-cache-entries).
    std::shared_ptr<AnalysisCacheStore> analysisCache;
    SearcherFactory searchers;    // required (main: engines sharing one table)
    std::ostream* log = nullptr;  // JSON log lines; null: none
};

class Server {
  public:
    Server(ServerConfig config, ServerParts parts);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds and starts serving; throws when the address cannot be bound.
    void start();
    // Drain on SIGTERM and SIGINT.
    void handleSignals();
    unsigned short port() const { return port_; }
    // Starts the drain (any thread; later calls do nothing).
    void shutdown();
    // Blocks until the drain finished and every thread ended.
    void wait();

    ServerContext& context() { return *context_; }
    // Runs `task` on an I/O thread (tests, tools).
    void post(std::function<void()> task);

  private:
    void drain();
    void runIo();

    // Destruction order matters, and ~Server() spells it out: after the I/O threads ended, the
    // listener and signal set go, then the I/O context (destroying the handlers it still holds,
    // and with them any sessions, which release their subscriptions and searches into a context
    // that is still alive), and only then the context. Nothing in the context may hold an
    // executor of io_ by then: a strand outliving its I/O context is a use-after-free.
    std::unique_ptr<ServerContext> context_;
    std::optional<boost::asio::io_context> io_;
    std::optional<boost::asio::signal_set> signals_;
    std::shared_ptr<Listener> listener_;
    std::vector<std::thread> ioThreads_;
    unsigned short port_ = 0;
    std::mutex mutex_;
    std::thread drainThread_;
    bool shutdownStarted_ = false;
};

}  // namespace outpost::server
