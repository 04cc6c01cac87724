// Helpers for the store tests: temporary folders, free ports, a private redis-server process,
// and a collector for events delivered on other threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "config.h"
#include "store/game_record.h"
#include "store/game_store.h"
#include "store/redis_connection.h"

namespace outpost::test {

// A fresh folder under the system temp folder, removed with its contents at the end.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// The configuration of a live replica in these tests: loopback on an ephemeral port, one
// searcher, a 1 MB table, no request log, a short drain. Tests set the store and what they test.
server::ServerConfig liveReplicaConfig();

// A loopback TCP port that was free a moment ago.
int freeLoopbackPort();

// Full path of a program on PATH (or in /usr/sbin, /usr/bin), or empty.
std::string findProgram(const std::string& name);

// A redis-server of its own on a free loopback port, its data in a temp folder (AOF on, fsync
// always, so stop()+start() shows what survives a restart). Stops it in the destructor.
class RedisServerProcess {
  public:
    RedisServerProcess();
    ~RedisServerProcess();
    RedisServerProcess(const RedisServerProcess&) = delete;
    RedisServerProcess& operator=(const RedisServerProcess&) = delete;

    bool available() const { return !program_.empty(); }  // false: redis-server not installed
    bool start();                                         // true once it answers PING
    void kill();                                          // SIGKILL, like a crash
    void pause();                                         // SIGSTOP: Redis hangs, sockets open
    void resume();                                        // SIGCONT
    std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    int port() const { return port_; }

  private:
    std::string program_;
    TempDir dir_;
    int port_ = 0;
    int pid_ = -1;
};

// A TCP forwarder on a free loopback port to targetPort, which the test can cut (every connection
// closed, new ones refused: a network partition) and restore, to take one replica away from a
// shared Redis while the others keep it.
class TcpProxy {
  public:
    explicit TcpProxy(int targetPort);
    ~TcpProxy();
    TcpProxy(const TcpProxy&) = delete;
    TcpProxy& operator=(const TcpProxy&) = delete;

    int port() const { return port_; }
    std::string redisUrl() const { return "redis://127.0.0.1:" + std::to_string(port_); }
    void cut();      // returns once every connection is closed and the port refuses
    void restore();  // returns once the port accepts again

  private:
    void run();
    void command(int wanted);  // hands the thread a state and waits until it is in it

    const int targetPort_;
    int port_ = 0;
    int wakeFd_ = -1;
    std::mutex mutex_;
    std::condition_variable applied_;
    int wanted_ = 0;  // kOpen, kCut or kStop (test_support.cpp)
    int state_ = 0;
    std::thread thread_;
};

// One command to the Redis on loopback `port`, on a connection of its own; null when it cannot
// be reached.
server::RedisReplyPtr runRedis(int port, const std::vector<std::string>& args);

// A game record with sensible defaults for store tests.
server::GameRecord sampleGame(const std::string& id);

// A seek for store tests; each (version, open, created) gives a different document, since a
// store may take a replay of the very same write for applied.
server::SeekDoc seekDoc(const std::string& id, std::uint64_t version, bool open,
                        std::int64_t created, std::int64_t expires);

// Collects events delivered by a bus on its own thread, and lets the test wait for them.
class EventCollector {
  public:
    void add(const server::GameEvent& event);
    // Waits until at least `count` events arrived (or the timeout passed); returns them.
    std::vector<server::GameEvent> waitFor(std::size_t count, std::chrono::milliseconds timeout);

  private:
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::vector<server::GameEvent> events_;
};

// Polls `condition` every few milliseconds until it holds or the timeout passes.
template <typename Condition>
bool eventually(Condition condition,
                std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return condition();
}

}  // namespace outpost::test
