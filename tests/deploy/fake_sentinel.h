// A stand-in for one Redis Sentinel (or any Redis-speaking host) on a free loopback port, for
// the quorum tests: it answers SENTINEL get-master-addr-by-name with the address the test sets,
// asks a password when given one, lets clients SUBSCRIBE and can announce a +switch-master, and
// records every command it receives (so a test can say that no password reached it).
#pragma once

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace outpost::test {

class FakeSentinel {
  public:
    // Names `primaryHost:primaryPort` (port 0: answers nil, the name unknown); asks `password`
    // (AUTH) before anything else when it is not empty.
    FakeSentinel(std::string primaryHost, int primaryPort, std::string password = {});
    ~FakeSentinel();
    FakeSentinel(const FakeSentinel&) = delete;
    FakeSentinel& operator=(const FakeSentinel&) = delete;

    int port() const { return port_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
    // From now on names this address.
    void name(std::string primaryHost, int primaryPort);
    // Publishes `+switch-master <payload>` to the clients subscribed to it.
    void announce(const std::string& payload);
    // Every command received so far, its arguments in order (AUTH's password included).
    std::vector<std::vector<std::string>> commands() const;

  private:
    struct Client;
    void run();
    std::string answer(Client& client, const std::vector<std::string>& command);

    const std::string password_;
    int port_ = 0;
    int listener_ = -1;
    int wakeFd_ = -1;
    mutable std::mutex mutex_;
    std::string host_;
    int primaryPort_ = 0;
    std::vector<std::string> pending_;  // announcements for run() to send
    bool stopping_ = false;
    std::vector<std::vector<std::string>> commands_;
    std::thread thread_;
};

}  // namespace outpost::test
