#include "fake_sentinel.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>

namespace outpost::test {

namespace {

constexpr int kBacklog = 16;
constexpr std::size_t kReadChunk = 4096;

std::string bulk(const std::string& text) {
    return "$" + std::to_string(text.size()) + "\r\n" + text + "\r\n";
}

// One RESP array of bulk strings from the front of `buffer` (consumed), or nullopt when it is
// not complete yet.
std::optional<std::vector<std::string>> takeCommand(std::string& buffer) {
    std::size_t at = 0;
    auto readLine = [&](char kind, long long* value) {
        if (at >= buffer.size() || buffer[at] != kind) return false;
        const std::size_t end = buffer.find("\r\n", at);
        if (end == std::string::npos) return false;
        std::from_chars(buffer.data() + at + 1, buffer.data() + end, *value);
        at = end + 2;
        return true;
    };
    long long count = 0;
    if (!readLine('*', &count)) return std::nullopt;
    std::vector<std::string> command;
    for (long long i = 0; i < count; ++i) {
        long long size = 0;
        if (!readLine('$', &size) || at + static_cast<std::size_t>(size) + 2 > buffer.size())
            return std::nullopt;
        command.push_back(buffer.substr(at, static_cast<std::size_t>(size)));
        at += static_cast<std::size_t>(size) + 2;
    }
    buffer.erase(0, at);
    return command;
}

void sendAll(int fd, const std::string& data) {
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return;
        sent += static_cast<std::size_t>(n);
    }
}

}  // namespace

struct FakeSentinel::Client {
    std::string buffer;
    bool authenticated = false;
    bool subscribed = false;
};

FakeSentinel::FakeSentinel(std::string primaryHost, int primaryPort, std::string password)
    : password_(std::move(password)), host_(std::move(primaryHost)), primaryPort_(primaryPort) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(listener_, kBacklog) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        throw std::runtime_error("fake sentinel: cannot listen on loopback");
    }
    port_ = ntohs(address.sin_port);
    wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    thread_ = std::thread([this] { run(); });
}

FakeSentinel::~FakeSentinel() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wakeFd_, &one, sizeof one);
    thread_.join();
    ::close(wakeFd_);
    ::close(listener_);
}

void FakeSentinel::name(std::string primaryHost, int primaryPort) {
    std::lock_guard lock(mutex_);
    host_ = std::move(primaryHost);
    primaryPort_ = primaryPort;
}

void FakeSentinel::announce(const std::string& payload) {
    {
        std::lock_guard lock(mutex_);
        pending_.push_back(payload);
    }
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wakeFd_, &one, sizeof one);
}

std::vector<std::vector<std::string>> FakeSentinel::commands() const {
    std::lock_guard lock(mutex_);
    return commands_;
}

std::string FakeSentinel::answer(Client& client, const std::vector<std::string>& command) {
    std::lock_guard lock(mutex_);
    commands_.push_back(command);
    const std::string name = command.empty() ? std::string() : command[0];
    if (name == "AUTH") {
        if (password_.empty()) return "-ERR AUTH called without any password configured\r\n";
        client.authenticated = command.size() == 2 && command[1] == password_;
        return client.authenticated ? "+OK\r\n" : "-WRONGPASS invalid password\r\n";
    }
    if (!password_.empty() && !client.authenticated) return "-NOAUTH Authentication required.\r\n";
    if (name == "SENTINEL" && command.size() == 3 && command[1] == "get-master-addr-by-name") {
        if (primaryPort_ == 0) return "*-1\r\n";
        return "*2\r\n" + bulk(host_) + bulk(std::to_string(primaryPort_));
    }
    if (name == "SUBSCRIBE" && command.size() == 2) {
        client.subscribed = true;
        return "*3\r\n" + bulk("subscribe") + bulk(command[1]) + ":1\r\n";
    }
    if (name == "PING") return "+PONG\r\n";
    return "-ERR unknown command\r\n";
}

void FakeSentinel::run() {
    std::map<int, Client> clients;
    for (;;) {
        std::vector<pollfd> fds{{listener_, POLLIN, 0}, {wakeFd_, POLLIN, 0}};
        for (const auto& [fd, client] : clients) fds.push_back({fd, POLLIN, 0});
        if (::poll(fds.data(), fds.size(), -1) < 0) continue;
        std::vector<std::string> announcements;
        {
            std::lock_guard lock(mutex_);
            if (stopping_) break;
            announcements.swap(pending_);
        }
        if (fds[1].revents != 0) {
            std::uint64_t count = 0;
            [[maybe_unused]] const auto read = ::read(wakeFd_, &count, sizeof count);
        }
        for (const std::string& payload : announcements) {
            for (const auto& [fd, client] : clients) {
                if (client.subscribed) {
                    sendAll(fd,
                            "*3\r\n" + bulk("message") + bulk("+switch-master") + bulk(payload));
                }
            }
        }
        if (fds[0].revents & POLLIN) {
            const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd >= 0) clients.emplace(fd, Client{});
        }
        for (std::size_t i = 2; i < fds.size(); ++i) {
            if (fds[i].revents == 0) continue;
            const int fd = fds[i].fd;
            char chunk[kReadChunk];
            const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
            if (n <= 0) {
                ::close(fd);
                clients.erase(fd);
                continue;
            }
            Client& client = clients[fd];
            client.buffer.append(chunk, static_cast<std::size_t>(n));
            while (auto command = takeCommand(client.buffer)) sendAll(fd, answer(client, *command));
        }
    }
    for (const auto& [fd, client] : clients) ::close(fd);
}

}  // namespace outpost::test
