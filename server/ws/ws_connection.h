// The WebSocket protocol of one connection, without sockets: messages in, messages out through
// an outbox. Keeps the connection's searches (by client id) and game subscriptions, and ends
// them all when the connection closes.
//
// Thread-safety: onMessage and onClose are called on the session's strand; search and bus
// callbacks arrive on other threads, and the messages that read or write the store (subscribe,
// move) run on the store executor, one at a time and in order (a strand of this connection's),
// never on the I/O thread. So the state below is guarded by a mutex.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "http/http_types.h"
#include "review/review_run.h"
#include "server_context.h"

namespace outpost::server {

class WsOutbox {
  public:
    virtual ~WsOutbox() = default;
    // Any thread. A message with a key (engine progress) may be replaced by a newer one with the
    // same key when the client reads slowly (net/coalesce.h).
    virtual void send(std::string text, CoalesceKey coalesceKey) = 0;
};

class WsConnection : public std::enable_shared_from_this<WsConnection> {
  public:
    WsConnection(ServerContext& context, ClientInfo client, std::shared_ptr<WsOutbox> outbox);

    // Never throws: an exception from a handler is answered with an `internal` error message.
    void onMessage(std::string_view text);
    void onBinaryMessage();
    void onClose();

    // Sends {"type":"error", id?, code, message}.
    void sendError(const nlohmann::json& id, std::string_view code, std::string_view message);

  private:
    void handleMessage(std::string_view text);
    void failMessage(std::string_view text, const std::string& what);
    void analyse(const nlohmann::json& message);
    void stop(const nlohmann::json& message);
    void subscribe(const nlohmann::json& message);
    void unsubscribe(const nlohmann::json& message);
    void move(const nlohmann::json& message);
    // Starts or joins a review and streams it (on the store strand: it reads the store).
    void review(const nlohmann::json& message);
    void send(const nlohmann::json& message, CoalesceKey coalesceKey = kNoCoalescing);
    // Runs `task` on this connection's store strand; an exception goes to failMessage().
    void offload(void (WsConnection::*task)(const nlohmann::json&), nlohmann::json message);

    ServerContext& context_;
    const ClientInfo client_;
    const std::shared_ptr<WsOutbox> outbox_;
    StoreExecutor::Strand storeStrand_;

    std::mutex mutex_;
    bool closed_ = false;
    // Running searches by the client's id (dumped JSON, so 1 and "1" differ).
    std::map<std::string, std::shared_ptr<SearchJob>> searches_;
    std::map<std::string, GameEventBus::SubscriptionId> subscriptions_;
    // Reviews this connection follows, by the client's id: the run and the listener's token.
    std::map<std::string, std::pair<std::shared_ptr<ReviewRun>, std::uint64_t>> reviews_;
    // One unit of the client's subscription quota per subscription, by game id.
    std::map<std::string, std::shared_ptr<ClientQuotas::Lease>> subscriptionLeases_;
    // A player's presence in each game it subscribed to with its token (games/presence.h).
    std::map<std::string, PresenceTracker::Lease> presenceLeases_;
};

}  // namespace outpost::server
