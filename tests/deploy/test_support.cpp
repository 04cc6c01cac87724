#include "test_support.h"

#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "ops/tokens.h"
#include "store/redis_connection.h"

namespace outpost::test {

TempDir::TempDir() {
    std::random_device random;
    auto base = std::filesystem::temp_directory_path();
    for (;;) {
        path_ = base / ("outpost-test-" + std::to_string(random()));
        if (std::filesystem::create_directory(path_)) break;
    }
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

server::ServerConfig liveReplicaConfig() {
    server::ServerConfig config;
    config.bind = "127.0.0.1";
    config.port = 0;
    config.searchThreads = 1;
    config.hashMb = 1;
    config.logRequests = false;
    config.drainGraceMs = 100;
    return config;
}

int freeLoopbackPort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof(address);
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
        port = ntohs(address.sin_port);
    }
    ::close(fd);
    return port;
}

std::string findProgram(const std::string& name) {
    std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    path += ":/usr/sbin:/usr/bin:/sbin:/bin";
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        std::filesystem::path candidate =
            std::filesystem::path(path.substr(start, end - start)) / name;
        if (!candidate.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return {};
}

RedisServerProcess::RedisServerProcess() : program_(findProgram("redis-server")) {
    port_ = freeLoopbackPort();
}

RedisServerProcess::~RedisServerProcess() {
    kill();
}

bool RedisServerProcess::start() {
    if (program_.empty() || pid_ > 0) return false;
    const std::string port = std::to_string(port_);
    const std::string dir = dir_.path().string();
    pid_ = ::fork();
    if (pid_ == 0) {
        const char* argv[] = {program_.c_str(), "--port",     port.c_str(),
                              "--bind",         "127.0.0.1",  "--dir",
                              dir.c_str(),      "--save",     "",
                              "--appendonly",   "yes",        "--appendfsync",
                              "always",         "--loglevel", "warning",
                              nullptr};
        ::execv(program_.c_str(), const_cast<char* const*>(argv));
        ::_exit(127);
    }
    server::RedisEndpoint endpoint;
    endpoint.port = port_;
    return eventually([&] {
        std::string error;
        return connectRedis(endpoint, std::chrono::milliseconds(200), &error) != nullptr;
    });
}

void RedisServerProcess::kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

void RedisServerProcess::pause() {
    if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void RedisServerProcess::resume() {
    if (pid_ > 0) ::kill(pid_, SIGCONT);
}

namespace {
constexpr int kProxyOpen = 0;
constexpr int kProxyCut = 1;
constexpr int kProxyStop = 2;
constexpr std::size_t kProxyChunk = 16 * 1024;

sockaddr_in loopback(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    return address;
}

int listenOn(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address = loopback(port);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(fd, 64) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

int connectTo(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = loopback(port);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Copies what `from` has to `to`; false when either side is done.
bool forward(int from, int to) {
    char buffer[kProxyChunk];
    const ssize_t got = ::read(from, buffer, sizeof buffer);
    if (got <= 0) return false;
    for (ssize_t sent = 0; sent < got;) {
        const ssize_t written = ::write(to, buffer + sent, static_cast<std::size_t>(got - sent));
        if (written <= 0) return false;
        sent += written;
    }
    return true;
}
}  // namespace

TcpProxy::TcpProxy(int targetPort) : targetPort_(targetPort), port_(freeLoopbackPort()) {
    wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    thread_ = std::thread([this] { run(); });
    command(kProxyOpen);
}

TcpProxy::~TcpProxy() {
    command(kProxyStop);
    thread_.join();
    ::close(wakeFd_);
}

void TcpProxy::cut() {
    command(kProxyCut);
}

void TcpProxy::restore() {
    command(kProxyOpen);
}

void TcpProxy::command(int wanted) {
    std::unique_lock lock(mutex_);
    wanted_ = wanted;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wakeFd_, &one, sizeof one);
    applied_.wait(lock, [&] { return state_ == wanted || state_ == kProxyStop; });
}

void TcpProxy::run() {
    int listener = -1;
    std::map<int, int> peers;  // each end of a forwarded connection to the other end
    auto closeAll = [&] {
        for (const auto& [fd, peer] : peers) ::close(fd);
        peers.clear();
    };
    std::unique_lock lock(mutex_);
    state_ = -1;
    for (;;) {
        const int wanted = wanted_;
        if (wanted != state_) {
            if (wanted != kProxyOpen) {
                closeAll();
                if (listener >= 0) ::close(listener);
                listener = -1;
            } else if (listener < 0) {
                listener = listenOn(port_);
            }
            state_ = wanted;
            applied_.notify_all();
            if (wanted == kProxyStop) return;
        }
        lock.unlock();
        std::vector<pollfd> fds{{wakeFd_, POLLIN, 0}};
        if (listener >= 0) fds.push_back({listener, POLLIN, 0});
        for (const auto& [fd, peer] : peers) fds.push_back({fd, POLLIN, 0});
        ::poll(fds.data(), fds.size(), -1);
        for (const pollfd& entry : fds) {
            if (!entry.revents) continue;
            if (entry.fd == wakeFd_) {
                std::uint64_t count = 0;
                [[maybe_unused]] const auto got = ::read(wakeFd_, &count, sizeof count);
            } else if (entry.fd == listener) {
                const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
                const int upstream = client >= 0 ? connectTo(targetPort_) : -1;
                if (upstream < 0) {
                    if (client >= 0) ::close(client);
                    continue;
                }
                peers[client] = upstream;
                peers[upstream] = client;
            } else if (peers.count(entry.fd) && !forward(entry.fd, peers[entry.fd])) {
                const int peer = peers[entry.fd];
                ::close(entry.fd);
                ::close(peer);
                peers.erase(entry.fd);
                peers.erase(peer);
            }
        }
        lock.lock();
    }
}

server::GameRecord sampleGame(const std::string& id) {
    server::GameRecord game;
    game.id = id;
    game.whiteTokenHash = server::tokenHash("token-" + id);
    game.initialFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    game.engine.side = "black";
    game.engine.level = 3;
    game.createdAtMs = 1'700'000'000'000;
    game.updatedAtMs = game.createdAtMs;
    return game;
}

void EventCollector::add(const server::GameEvent& event) {
    // Notified under the lock: the waiting test may destroy the collector as soon as it wakes.
    std::lock_guard lock(mutex_);
    events_.push_back(event);
    arrived_.notify_all();
}

std::vector<server::GameEvent> EventCollector::waitFor(std::size_t count,
                                                       std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, timeout, [&] { return events_.size() >= count; });
    return events_;
}

server::RedisReplyPtr runRedis(int port, const std::vector<std::string>& args) {
    server::RedisEndpoint endpoint;
    endpoint.port = port;
    server::RedisContextPtr context =
        server::connectRedis(endpoint, std::chrono::milliseconds(1000), nullptr);
    if (!context) return nullptr;
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const std::string& arg : args) {
        argv.push_back(arg.data());
        lengths.push_back(arg.size());
    }
    return server::RedisReplyPtr(static_cast<redisReply*>(redisCommandArgv(
        context.get(), static_cast<int>(argv.size()), argv.data(), lengths.data())));
}

server::SeekDoc seekDoc(const std::string& id, std::uint64_t version, bool open,
                        std::int64_t created, std::int64_t expires) {
    server::SeekDoc seek;
    seek.id = id;
    seek.version = version;
    seek.open = open;
    seek.createdAtMs = created;
    seek.expiresAtMs = expires;
    seek.doc = nlohmann::json{{"v", version}, {"open", open}, {"created", created}}.dump();
    return seek;
}

}  // namespace outpost::test
