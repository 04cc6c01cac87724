// WebSocket messages through the connection's message handler, in process (no sockets).
//
// Input: up to kMaxMessages text messages, one per line, to one connection (so sequences such as
// analyse then stop, or subscribe then move, are reached); placeholders as in
// server_fuzz_support.h. The connection then closes and the context finishes its work.
//
// Invariants: no crash or sanitizer report; every answer is JSON; never an `internal` error (the
// WebSocket's 5xx); the store changes only by moves that were answered with the game.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "server_fuzz_support.h"
#include "ws/ws_connection.h"

namespace {

using namespace outpost;

constexpr std::size_t kMaxMessages = 16;

class FuzzOutbox final : public server::WsOutbox {
  public:
    void send(std::string text, server::CoalesceKey) override {
        std::lock_guard lock(mutex_);
        messages_.push_back(std::move(text));
    }
    std::vector<std::string> messages() {
        std::lock_guard lock(mutex_);
        return messages_;
    }

  private:
    std::mutex mutex_;
    std::vector<std::string> messages_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzServer server;
    const std::string text =
        server.substitute(std::string_view(reinterpret_cast<const char*>(data), size));

    auto outbox = std::make_shared<FuzzOutbox>();
    const std::uint64_t writesBefore = server.store->writes();
    {
        auto connection = std::make_shared<server::WsConnection>(
            server.fixture.context, server::ClientInfo{"127.0.0.1"}, outbox);
        std::string_view rest = text;
        for (std::size_t i = 0; i < kMaxMessages && !rest.empty(); ++i) {
            const std::size_t end = rest.find('\n');
            connection->onMessage(rest.substr(0, end));
            rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        }
        server.fixture.context.quiesce();  // the searches and the store work it started
        connection->onClose();
    }

    std::uint64_t gamesAnswered = 0;
    for (const std::string& message : outbox->messages()) {
        const auto json = nlohmann::json::parse(message, nullptr, false);
        if (json.is_discarded() || !json.is_object()) fuzz::broken("answers are JSON", message);
        if (json.value("type", "") == "error" && json.value("code", "") == "internal")
            fuzz::broken("no internal error", text + "\n=> " + message);
        if (json.value("type", "") == "game") ++gamesAnswered;
    }
    if (server.store->writes() - writesBefore > gamesAnswered)
        fuzz::broken("the store changes only by accepted moves", text);
    return 0;
}
