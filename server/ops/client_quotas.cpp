#include "ops/client_quotas.h"

#include <algorithm>
#include <array>

#include "errors/error_codes.h"

namespace outpost::server {

namespace {
constexpr std::size_t kQuotas = 4;
constexpr auto kGameWindow = std::chrono::minutes(1);
// Windows of addresses that stopped creating games are swept once the table is this big.
constexpr std::size_t kSweepAbove = 4096;

std::size_t indexOf(Quota quota) {
    return static_cast<std::size_t>(quota);
}
}  // namespace

const char* quotaName(Quota quota) {
    switch (quota) {
        case Quota::Connections:
            return "connections";
        case Quota::Streams:
            return "streams";
        case Quota::WebSockets:
            return "websockets";
        case Quota::Subscriptions:
            return "subscriptions";
    }
    return "unknown";
}

const char* quotaErrorCode(Quota quota) {
    switch (quota) {
        case Quota::Connections:
            return errors::too_many_connections;
        case Quota::Streams:
            return errors::too_many_streams;
        case Quota::WebSockets:
            return errors::too_many_websockets;
        case Quota::Subscriptions:
            return errors::too_many_subscriptions;
    }
    return errors::rate_limited;
}

struct ClientQuotas::Lease::State {
    struct GameWindow {
        std::chrono::steady_clock::time_point start;
        int count = 0;
    };
    std::mutex mutex;
    std::array<std::unordered_map<std::string, int>, kQuotas> held;
    std::unordered_map<std::string, GameWindow> gameWindows;
};

ClientQuotas::Lease::Lease(std::shared_ptr<State> state, Quota quota, std::string address)
    : state_(std::move(state)), quota_(quota), address_(std::move(address)) {}

ClientQuotas::Lease::~Lease() {
    std::lock_guard lock(state_->mutex);
    auto& counts = state_->held[indexOf(quota_)];
    auto it = counts.find(address_);
    if (it != counts.end() && --it->second <= 0) counts.erase(it);
}

ClientQuotas::ClientQuotas(QuotaLimits limits)
    : limits_(limits), state_(std::make_shared<Lease::State>()) {}

std::shared_ptr<ClientQuotas::Lease> ClientQuotas::tryAcquire(Quota quota,
                                                              const std::string& address) {
    int limit = 0;
    switch (quota) {
        case Quota::Connections:
            limit = limits_.connections;
            break;
        case Quota::Streams:
            limit = limits_.streams;
            break;
        case Quota::WebSockets:
            limit = limits_.webSockets;
            break;
        case Quota::Subscriptions:
            limit = limits_.subscriptions;
            break;
    }
    {
        std::lock_guard lock(state_->mutex);
        int& count = state_->held[indexOf(quota)][address];
        if (limit > 0 && count >= limit) return nullptr;
        ++count;
    }
    return std::shared_ptr<Lease>(new Lease(state_, quota, address));
}

int ClientQuotas::held(Quota quota, const std::string& address) const {
    std::lock_guard lock(state_->mutex);
    const auto& counts = state_->held[indexOf(quota)];
    auto it = counts.find(address);
    return it == counts.end() ? 0 : it->second;
}

std::optional<int> ClientQuotas::tryCreateGame(const std::string& address) {
    if (limits_.gamesPerMinute <= 0) return std::nullopt;
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(state_->mutex);
    auto& windows = state_->gameWindows;
    if (windows.size() > kSweepAbove) {
        for (auto it = windows.begin(); it != windows.end();) {
            it = now - it->second.start >= kGameWindow ? windows.erase(it) : std::next(it);
        }
    }
    auto& window = windows[address];
    if (window.count == 0 || now - window.start >= kGameWindow) {
        window.start = now;
        window.count = 0;
    }
    if (window.count >= limits_.gamesPerMinute) {
        const auto left =
            std::chrono::ceil<std::chrono::seconds>(kGameWindow - (now - window.start));
        return std::max<int>(1, static_cast<int>(left.count()));
    }
    ++window.count;
    return std::nullopt;
}

void ClientQuotas::returnGame(const std::string& address) {
    if (limits_.gamesPerMinute <= 0) return;
    std::lock_guard lock(state_->mutex);
    auto it = state_->gameWindows.find(address);
    if (it != state_->gameWindows.end() && it->second.count > 0) --it->second.count;
}

}  // namespace outpost::server
