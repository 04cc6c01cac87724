// A WebSocket outbox that keeps what a WsConnection sends, for tests that drive a connection
// without a socket.
#pragma once

#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"
#include "ws/ws_connection.h"

namespace outpost::server::testing {

class RecordingOutbox final : public WsOutbox {
  public:
    void send(std::string text, CoalesceKey) override {
        std::lock_guard lock(mutex_);
        messages_.push_back(nlohmann::json::parse(text));
    }
    std::vector<nlohmann::json> messages() {
        std::lock_guard lock(mutex_);
        return messages_;
    }
    // Waits until `done(messages)` holds (or kWait); true when it did.
    template <class Predicate>
    bool waitUntil(Predicate done) {
        const auto deadline = std::chrono::steady_clock::now() + kWait;
        while (!done(messages())) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return true;
    }
    // Waits until at least `count` messages were sent (or kWait); true when they were.
    bool waitFor(std::size_t count) {
        return waitUntil(
            [count](const std::vector<nlohmann::json>& sent) { return sent.size() >= count; });
    }

  private:
    std::mutex mutex_;
    std::vector<nlohmann::json> messages_;
};

}  // namespace outpost::server::testing
