// One WebSocket connection (after the HTTP upgrade): reads text messages and hands them to its
// WsConnection; writes from a bounded queue that coalesces engine progress. Beast's suggested
// server timeouts: pings when idle, closed when the peer stops answering.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

class WsConnection;

class WebSocketSession : public std::enable_shared_from_this<WebSocketSession> {
  public:
    // `leases`: the client's quota units this connection holds until it ends.
    WebSocketSession(boost::asio::ip::tcp::socket&& socket, ServerContext& context,
                     ClientInfo client,
                     std::vector<std::shared_ptr<ClientQuotas::Lease>> leases = {});
    ~WebSocketSession();
    void start(Request&& upgrade);

    // Any thread: queue a text message.
    void send(std::string text, CoalesceKey coalesceKey);
    // Any thread: close with 1001 (going away), after what is queued.
    void closeGoingAway();

  private:
    struct Outgoing {
        std::string text;
        CoalesceKey coalesceKey = kNoCoalescing;
    };
    void onAccept(boost::beast::error_code error);
    void doRead();
    void onRead(boost::beast::error_code error);
    void enqueue(Outgoing outgoing);
    void doWrite();
    void onWrite(boost::beast::error_code error);
    void finish();

    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
    ServerContext& context_;
    const ClientInfo client_;
    boost::beast::flat_buffer buffer_;
    std::shared_ptr<WsConnection> connection_;
    std::deque<Outgoing> queue_;
    std::size_t queuedBytes_ = 0;
    bool writing_ = false;
    bool closing_ = false;
    bool finished_ = false;
    bool accepted_ = false;
    std::uint64_t registryId_ = 0;
    std::vector<std::shared_ptr<ClientQuotas::Lease>> leases_;
};

}  // namespace outpost::server
