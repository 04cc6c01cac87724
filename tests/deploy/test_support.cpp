#include "test_support.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
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

}  // namespace outpost::test
