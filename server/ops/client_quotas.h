// Per-address quotas: what one client address may hold at once (connections, NDJSON game
// streams, WebSockets, game subscriptions) and how many games it may create per minute. Beyond
// a quota the server answers 429 with Retry-After and a code naming the quota.
//
// The address is the client's as ClientInfo has it (see http/client_address.h), except for the
// connection quota, which counts the TCP peer and leaves trusted proxies out (a proxy's
// connections carry many clients; limit them in the proxy, docs/security.md).
//
// Thread-safety: every method may be called from any thread. A Lease may outlive the
// ClientQuotas that granted it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace outpost::server {

enum class Quota { Connections, Streams, WebSockets, Subscriptions };

// The metric label and the error code of each quota.
const char* quotaName(Quota quota);       // "connections", "streams", ...
const char* quotaErrorCode(Quota quota);  // "too_many_connections", ...

struct QuotaLimits {
    // Zero: no limit.
    int connections = 0;
    int streams = 0;
    int webSockets = 0;
    int subscriptions = 0;
    int gamesPerMinute = 0;
};

class ClientQuotas {
  public:
    // One unit of a quota held by an address; released when the last copy goes.
    class Lease {
      public:
        ~Lease();
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

      private:
        friend class ClientQuotas;
        struct State;
        Lease(std::shared_ptr<State> state, Quota quota, std::string address);
        std::shared_ptr<State> state_;
        Quota quota_;
        std::string address_;
    };

    explicit ClientQuotas(QuotaLimits limits);

    // A lease on one more unit of `quota` for `address`, or null when the address holds its
    // limit already.
    std::shared_ptr<Lease> tryAcquire(Quota quota, const std::string& address);
    // How many units `address` holds now (tests, metrics).
    int held(Quota quota, const std::string& address) const;

    // Counts a game creation; nullopt when allowed, else the seconds until the address may
    // create again (the per-minute window restarts then).
    std::optional<int> tryCreateGame(const std::string& address);
    // Gives back the creation counted by tryCreateGame when the game was not made after all (a
    // refused body, a full engine): the quota counts games created, not requests.
    void returnGame(const std::string& address);

    const QuotaLimits& limits() const { return limits_; }

  private:
    QuotaLimits limits_;
    std::shared_ptr<Lease::State> state_;
};

}  // namespace outpost::server
