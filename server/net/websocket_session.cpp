#include "net/websocket_session.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/buffers_to_string.hpp>

#include "ws/ws_connection.h"

namespace outpost::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;

namespace {

constexpr auto kHandshakeTimeout = std::chrono::seconds(30);

class SessionOutbox final : public WsOutbox {
  public:
    explicit SessionOutbox(std::weak_ptr<WebSocketSession> session)
        : session_(std::move(session)) {}
    void send(std::string text, CoalesceKey coalesceKey) override {
        if (auto session = session_.lock()) session->send(std::move(text), coalesceKey);
    }

  private:
    std::weak_ptr<WebSocketSession> session_;
};

}  // namespace

WebSocketSession::WebSocketSession(net::ip::tcp::socket&& socket, ServerContext& context,
                                   ClientInfo client,
                                   std::vector<std::shared_ptr<ClientQuotas::Lease>> leases)
    : ws_(std::move(socket)),
      context_(context),
      client_(std::move(client)),
      leases_(std::move(leases)) {}

WebSocketSession::~WebSocketSession() {
    // Destroyed unfinished only when the I/O context shut down with our handlers unrun: end the
    // connection's searches and subscriptions all the same.
    finish();
    if (accepted_) context_.metrics.webSocketClosed();
}

void WebSocketSession::start(Request&& upgrade) {
    beast::get_lowest_layer(ws_).expires_never();
    websocket::stream_base::timeout timeout;
    timeout.handshake_timeout = kHandshakeTimeout;
    timeout.idle_timeout = std::chrono::milliseconds(context_.config.wsIdleTimeoutMs);
    timeout.keep_alive_pings = true;
    ws_.set_option(timeout);
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& response) {
        response.set(http::field::server, "outpost");
        response.set("X-Content-Type-Options", "nosniff");
    }));
    ws_.read_message_max(context_.config.bodyLimitBytes);
    auto request = std::make_shared<Request>(std::move(upgrade));
    net::dispatch(ws_.get_executor(), [self = shared_from_this(), request] {
        self->ws_.async_accept(*request,
                               [self, request](beast::error_code error) { self->onAccept(error); });
    });
}

void WebSocketSession::onAccept(beast::error_code error) {
    if (error) return;
    accepted_ = true;
    context_.metrics.webSocketOpened();
    connection_ = std::make_shared<WsConnection>(context_, client_,
                                                 std::make_shared<SessionOutbox>(weak_from_this()));
    std::weak_ptr<WebSocketSession> weak = weak_from_this();
    registryId_ = context_.webSockets.add([weak] {
        if (auto self = weak.lock()) self->closeGoingAway();
    });
    if (context_.draining.load()) closeGoingAway();
    doRead();
}

void WebSocketSession::doRead() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code error, std::size_t) {
        self->onRead(error);
    });
}

void WebSocketSession::onRead(beast::error_code error) {
    if (error) {
        // Closed by the peer, timed out (no pong), or a protocol violation: the connection is
        // gone, and so are its searches and subscriptions.
        finish();
        return;
    }
    try {
        if (ws_.got_text()) {
            std::string text = beast::buffers_to_string(buffer_.data());
            buffer_.consume(buffer_.size());
            connection_->onMessage(text);
        } else {
            buffer_.consume(buffer_.size());
            connection_->onBinaryMessage();
        }
    } catch (const std::exception& caught) {
        // WsConnection answers its own errors; this catches what escapes it (out of memory
        // building a reply): the message is lost, the connection goes on.
        buffer_.consume(buffer_.size());
        context_.metrics.internalError("websocket");
        context_.logger.log(
            {{"event", "internal_error"}, {"where", "websocket"}, {"error", caught.what()}});
    }
    doRead();
}

void WebSocketSession::send(std::string text, CoalesceKey coalesceKey) {
    net::post(ws_.get_executor(),
              [self = shared_from_this(), text = std::move(text), coalesceKey]() mutable {
                  self->enqueue({std::move(text), coalesceKey});
              });
}

void WebSocketSession::enqueue(Outgoing outgoing) {
    if (finished_ || closing_) return;
    // A slow reader: a progress message takes the place of the waiting one of its own line
    // (coalesce.h).
    dropSupersededProgress(queue_, writing_, outgoing.coalesceKey, queuedBytes_,
                           coalesceThreshold(context_.config.maxQueuedBytes),
                           [](const Outgoing& o) { return o.text.size(); });
    queuedBytes_ += outgoing.text.size();
    queue_.push_back(std::move(outgoing));
    if (queuedBytes_ > context_.config.maxQueuedBytes) {
        // The client does not read: drop it rather than grow memory.
        context_.metrics.slowClientDropped();
        beast::get_lowest_layer(ws_).close();
        finish();
        return;
    }
    doWrite();
}

void WebSocketSession::doWrite() {
    if (writing_ || queue_.empty() || finished_) return;
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front().text),
                    [self = shared_from_this()](beast::error_code error, std::size_t) {
                        self->onWrite(error);
                    });
}

void WebSocketSession::onWrite(beast::error_code error) {
    writing_ = false;
    if (error) {
        finish();
        return;
    }
    queuedBytes_ -= queue_.front().text.size();
    queue_.pop_front();
    if (queue_.empty() && closing_ && !finished_) {
        ws_.async_close(websocket::close_code::going_away,
                        [self = shared_from_this()](beast::error_code) { self->finish(); });
        return;
    }
    doWrite();
}

void WebSocketSession::closeGoingAway() {
    net::post(ws_.get_executor(), [self = shared_from_this()] {
        if (self->closing_ || self->finished_ || !self->accepted_) return;
        self->closing_ = true;
        if (!self->writing_ && self->queue_.empty()) {
            self->ws_.async_close(websocket::close_code::going_away,
                                  [self](beast::error_code) { self->finish(); });
        }
    });
}

void WebSocketSession::finish() {
    if (finished_) return;
    finished_ = true;
    queue_.clear();
    queuedBytes_ = 0;
    if (registryId_) context_.webSockets.remove(registryId_);
    if (connection_) connection_->onClose();
}

}  // namespace outpost::server
