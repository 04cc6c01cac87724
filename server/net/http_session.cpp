#include "net/http_session.h"

#include <array>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "errors/error_codes.h"
#include "http/body_limit.h"
#include "http/client_address.h"
#include "http/cors.h"
#include "http/host_field.h"
#include "http/json_response.h"
#include "http/request_target.h"
#include "http/transfer_coding.h"
#include "net/websocket_session.h"
#include "router.h"

namespace outpost::server {

namespace beast = boost::beast;

namespace {

// Pipelined requests read ahead of the one being answered; more wait in the socket.
constexpr std::size_t kMaxPipelined = 16;
constexpr std::string_view kNoSniffField = "X-Content-Type-Options";
// After a failed accept() (EMFILE and the like), how long the listener waits before the next.
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(100);

std::string chunk(std::string_view data) {
    std::ostringstream out;
    out << std::hex << data.size() << "\r\n";
    out << data << "\r\n";
    return out.str();
}

constexpr std::string_view kLastChunk = "0\r\n\r\n";
constexpr unsigned kHttp11 = 11;  // Beast's version number of HTTP/1.1
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

// Every X-Forwarded-For field, in order, as one list: a client may send several, and a proxy
// appends to the last.
std::string forwardedFor(const Request& request) {
    std::string joined;
    auto [begin, end] = request.equal_range("X-Forwarded-For");
    for (auto it = begin; it != end; ++it) {
        if (!joined.empty()) joined += ',';
        joined.append(it->value().data(), it->value().size());
    }
    return joined;
}

}  // namespace

// The handlers' view of one exchange: forwards everything to the session's strand, tagged with
// the exchange's sequence number so calls for an exchange that already ended are ignored.
class HttpSessionSink final : public ResponseSink {
  public:
    HttpSessionSink(std::weak_ptr<HttpSession> session, net::any_io_executor executor,
                    std::uint64_t seq)
        : session_(std::move(session)), executor_(std::move(executor)), seq_(seq) {}
    HttpSessionSink(const HttpSessionSink&) = delete;
    HttpSessionSink& operator=(const HttpSessionSink&) = delete;
    // Nobody can answer through this sink any more: if nobody did, the client would wait
    // forever (the session sets no deadline while an answer is being worked on).
    ~HttpSessionSink() override {
        if (answered_.load()) return;
        post([seq = seq_](HttpSession& s) { s.abandonedOnStrand(seq); });
    }

    void respond(Response response) override {
        answered_.store(true);
        post([seq = seq_, response = std::move(response)](HttpSession& s) mutable {
            s.respondOnStrand(seq, std::move(response), false);
        });
    }
    void respondShared(Response header, std::shared_ptr<const std::string> body) override {
        answered_.store(true);
        post([seq = seq_, header = std::move(header),
              body = std::move(body)](HttpSession& s) mutable {
            s.respondOnStrand(seq, std::move(header), false, std::move(body));
        });
    }
    void startStream(Response header) override {
        post([seq = seq_, header = std::move(header)](HttpSession& s) mutable {
            s.startStreamOnStrand(seq, std::move(header));
        });
    }
    void streamLine(std::string line, CoalesceKey coalesceKey) override {
        post([seq = seq_, line = std::move(line), coalesceKey](HttpSession& s) mutable {
            s.streamLineOnStrand(seq, std::move(line), coalesceKey);
        });
    }
    void endStream() override {
        answered_.store(true);
        post([seq = seq_](HttpSession& s) { s.endStreamOnStrand(seq); });
    }
    void onDisconnect(std::function<void()> callback) override {
        auto session = session_.lock();
        if (!session) {
            callback();
            return;
        }
        net::post(executor_, [session, seq = seq_, callback = std::move(callback)]() mutable {
            session->addDisconnectOnStrand(seq, std::move(callback));
        });
    }
    void onEnd(std::function<void()> callback) override {
        auto session = session_.lock();
        if (!session) {
            callback();
            return;
        }
        auto once = std::make_shared<EndCallback>(std::move(callback));
        net::post(executor_, [session, seq = seq_, once] {
            session->addEndOnStrand(seq, [once] { once->run(); });
        });
    }

  private:
    // An onEnd callback on its way to the session's strand. It runs exactly once: when the session
    // runs it, or, if the posted handler is destroyed unrun (the I/O context shut down first), when
    // the last copy goes.
    class EndCallback {
      public:
        explicit EndCallback(std::function<void()> callback) : callback_(std::move(callback)) {}
        EndCallback(const EndCallback&) = delete;
        EndCallback& operator=(const EndCallback&) = delete;
        ~EndCallback() { run(); }
        void run() {
            if (auto callback = std::exchange(callback_, nullptr)) callback();
        }

      private:
        std::function<void()> callback_;
    };

    template <typename F>
    void post(F&& f) {
        auto session = session_.lock();
        if (!session) return;
        net::post(executor_, [session, f = std::forward<F>(f)]() mutable { f(*session); });
    }

    std::weak_ptr<HttpSession> session_;
    net::any_io_executor executor_;
    std::uint64_t seq_;
    std::atomic<bool> answered_{false};
};

HttpSession::HttpSession(tcp::socket&& socket, ServerContext& context)
    : socket_(std::move(socket)), context_(context), timer_(socket_.get_executor()) {
    beast::error_code error;
    auto endpoint = socket_.remote_endpoint(error);
    peerAddress_ = error ? "unknown" : endpoint.address().to_string();
    client_.address = peerAddress_;
}

// Destroyed with an exchange still open only when the I/O context shuts down with the session's
// handlers unrun: what the exchange holds elsewhere is released all the same.
HttpSession::~HttpSession() {
    releaseExchange();
}

void HttpSession::start() {
    // A trusted proxy's connections carry many clients: only direct clients are counted.
    if (!isTrustedProxy(peerAddress_, context_.config.trustedProxies)) {
        connectionLease_ = context_.quotas.tryAcquire(Quota::Connections, peerAddress_);
        overConnectionQuota_ = connectionLease_ == nullptr;
    }
    std::weak_ptr<HttpSession> weak = weak_from_this();
    registryId_ = context_.httpSessions.add([weak, executor = socket_.get_executor()] {
        net::post(executor, [weak] {
            if (auto self = weak.lock()) self->onDrain();
        });
    });
    net::dispatch(socket_.get_executor(), [self = shared_from_this()] { self->doRead(); });
}

// Shutdown, after the searches ended: answers already queued still go out, then the connection
// closes. A stream still open here follows a game, a review or a seek (searches' streams have
// ended): its last line says why it ends, so a client tells this from the game's end and opens it
// again (on another replica), as a WebSocket client does on close code 1001.
void HttpSession::onDrain() {
    if (closed_) return;
    drained_ = true;
    pending_.clear();
    if (exchange_ && exchange_->streaming) {
        exchange_->keepAlive = false;
        const nlohmann::json goingAway{
            {"type", "error"},
            {"code", errors::shutting_down},
            {"message",
             "this replica is shutting down: open the stream again (another replica "
             "serves it)"},
            {"retryAfter", context_.config.retryAfterSeconds}};
        streamLineOnStrand(exchange_->seq, goingAway.dump(), kNoCoalescing);
        endStreamOnStrand(exchange_->seq);
    } else if (!exchange_ && writeQueue_.empty()) {
        close();
    }
}

void HttpSession::doRead() {
    if (reading_ || closed_ || peerFinished_ || pending_.size() >= kMaxPipelined) return;
    reading_ = true;
    parser_.emplace();
    // The route's limit is known once the header is in (onHeader); until then the largest.
    parser_->body_limit(largestBodyLimit(context_.config.bodyLimitBytes));
    bodyLimit_ = context_.config.bodyLimitBytes;
    updateTimer();
    http::async_read_header(socket_, buffer_, *parser_,
                            [self = shared_from_this()](beast::error_code error, std::size_t) {
                                self->onHeader(error);
                            });
}

void HttpSession::onHeader(beast::error_code error) {
    if (closed_) return onRead(error);
    const auto& header = parser_->get();
    if (!error || error == http::error::body_limit) {
        const std::string_view target(header.target().data(), header.target().size());
        const auto form = originFormOf(target);
        bodyLimit_ = bodyLimitFor(header.method(), form ? std::string_view(form->target) : target,
                                  context_.config.bodyLimitBytes);
    }
    if (error) return onRead(error);
    // Before the parser decides the body is empty (a Transfer-Encoding not ending in chunked):
    // what follows the header must not be read as the next request.
    std::vector<std::string> codings;
    auto [first, last] = header.equal_range(http::field::transfer_encoding);
    for (auto it = first; it != last; ++it) codings.emplace_back(it->value());
    if (auto problem = transferCodingProblem(header.version(), codings)) {
        reading_ = false;
        pending_.emplace_back(errorResponse(http::status::bad_request, errors::bad_request,
                                            *problem, header.version(), false));
        dispatchNext();
        return;
    }
    if (const auto length = parser_->content_length(); length && *length > bodyLimit_)
        return onRead(http::error::body_limit);
    if (parser_->is_done()) return onRead(error);
    parser_->body_limit(bodyLimit_);
    // Sent only between exchanges: an interim answer must not come before the final answers
    // to requests ahead of this one (a client that waits for it does not pipeline anyway; one
    // that did gets no 100 and sends its body after its own timeout, as without this). An
    // HTTP/1.0 request's expectation is ignored (RFC 9110 10.1.1).
    if (header.version() < kHttp11 ||
        !beast::iequals(header[http::field::expect], "100-continue") || exchange_ ||
        !pending_.empty() || writing_ || !writeQueue_.empty()) {
        return readBody();
    }
    writing_ = true;
    updateTimer();
    net::async_write(socket_, net::buffer(kContinue),
                     [self = shared_from_this()](beast::error_code writeError, std::size_t) {
                         self->writing_ = false;
                         if (self->closed_) return;
                         if (writeError) return self->close();
                         self->readBody();
                         self->doWrite();  // anything queued meanwhile (a drain's close)
                     });
}

void HttpSession::readBody() {
    updateTimer();
    http::async_read(
        socket_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code error, std::size_t) { self->onRead(error); });
}

void HttpSession::onRead(beast::error_code error) {
    reading_ = false;
    if (closed_) return;
    if (error == http::error::body_limit || error == http::error::buffer_overflow ||
        error == http::error::header_limit) {
        const bool body = error == http::error::body_limit;
        Response response = errorResponse(
            body ? http::status::payload_too_large : http::status::request_header_fields_too_large,
            errors::too_large,
            body ? "request body exceeds " + std::to_string(bodyLimit_) + " bytes"
                 : "request header too large",
            11, false);
        pending_.emplace_back(std::move(response));
        dispatchNext();
        return;
    }
    if (error && error.category() == beast::error_code(http::error::bad_target).category() &&
        error != http::error::end_of_stream && error != http::error::partial_message) {
        pending_.emplace_back(errorResponse(http::status::bad_request, errors::bad_request,
                                            "malformed HTTP request: " + error.message(), 11,
                                            false));
        dispatchNext();
        return;
    }
    if (error == http::error::partial_message) {
        // The client ended its side in the middle of a request (a body shorter than its
        // Content-Length or chunks said, a header cut short). It may still read: it is told why
        // nothing was done (after the answers to its whole requests), then the connection closes.
        peerFinished_ = true;
        watchForReset();
        pending_.emplace_back(errorResponse(
            http::status::bad_request, errors::bad_request,
            parser_->is_header_done()
                ? "the request ended before its body was complete (the connection was shut "
                  "down before the bytes its Content-Length or chunks announce came)"
                : "the request ended before its header was complete (the connection was shut "
                  "down before the blank line that ends the header)",
            11, false));
        dispatchNext();
        return;
    }
    if (error == http::error::end_of_stream && (exchange_ || !pending_.empty())) {
        // The client shut down its sending side after whole requests (shutdown(SHUT_WR), `nc
        // -N`): it still reads, so what it asked for is answered, then the connection closes. A
        // client that closed altogether looks the same until something is written to it: its
        // reset then ends the session (watchForReset), and a stream writes a line at once.
        peerFinished_ = true;
        watchForReset();
        if (exchange_ && exchange_->streaming) {
            enqueue({framed("\n"), progressKey("keep-alive", 0), false, false, nullptr});
        } else if (exchange_ && exchange_->status == 0 && exchange_->version >= 11 &&
                   !exchange_->onDisconnect.empty()) {
            // An answer still being worked out that a client gone would stop (a search answered
            // in one piece registers its stop in onDisconnect): an interim
            // `100 Continue`, which every HTTP/1.1 client must read past, is the probe. A client
            // that closed altogether answers it with a reset, and its search stops at once; one
            // that only half-closed reads past it to the answer. (HTTP/1.0 knows no 1xx: its
            // search runs on to its limits.)
            enqueue({std::string(kContinue), kNoCoalescing, false, false, nullptr});
        }
        return;
    }
    if (error) {
        // End of stream, reset, or our own timeout: the client is gone.
        close();
        return;
    }
    Request request = parser_->release();
    if (overConnectionQuota_) {
        // Read the request before answering, so the client sees the answer rather than a reset.
        context_.metrics.quotaRefused(quotaName(Quota::Connections));
        pending_.emplace_back(
            errorFor(request, http::status::too_many_requests, quotaErrorCode(Quota::Connections),
                     "this address has " + std::to_string(context_.config.perClientConnections) +
                         " connections open already (see docs/security.md)",
                     context_.config.retryAfterSeconds));
        std::get<Response>(pending_.back()).keep_alive(false);
        dispatchNext();
        return;
    }
    // RFC 9112 3.2: an HTTP/1.1 request without Host, or any with two or a malformed one, is
    // answered 400 (and the connection closed: what else it sent cannot be trusted either).
    if (auto problem = hostFieldProblem(request)) {
        pending_.emplace_back(errorResponse(http::status::bad_request, errors::bad_request,
                                            *problem, request.version(), false));
        dispatchNext();
        return;
    }
    // Absolute-form ("GET http://host/healthz"), which a server must accept (RFC 9112 3.2.2):
    // the router reads the path, and the authority is the Host.
    if (auto form =
            originFormOf(std::string_view(request.target().data(), request.target().size()))) {
        request.target(form->target);
        request.set(http::field::host, form->authority);
    }
    if (request.target().empty() || request.target().front() != '/') {
        if (request.target() != "*" || request.method() != http::verb::options) {
            pending_.emplace_back(errorResponse(http::status::bad_request, errors::bad_request,
                                                "request target must be a path", 11, false));
            dispatchNext();
            return;
        }
    }
    if (beast::websocket::is_upgrade(request)) {
        upgradeToWebSocket(std::move(request));
        return;
    }
    pending_.emplace_back(std::move(request));
    dispatchNext();
    doRead();
}

void HttpSession::upgradeToWebSocket(Request&& request) {
    const std::string_view target(request.target().data(), request.target().size());
    const bool wsRoute = target.substr(0, target.find('?')) == "/api/v1/ws";
    if (!wsRoute || exchange_ || !pending_.empty() || !writeQueue_.empty() ||
        context_.draining.load()) {
        Response response =
            !wsRoute ? errorFor(request, http::status::not_found, errors::not_found,
                                "WebSocket upgrades are served at /api/v1/ws")
            : context_.draining.load()
                ? errorFor(request, http::status::service_unavailable, errors::shutting_down,
                           "server is shutting down", context_.config.retryAfterSeconds)
                : errorFor(request, http::status::bad_request, errors::bad_request,
                           "WebSocket upgrade while requests are pending");
        response.keep_alive(false);
        pending_.emplace_back(std::move(response));
        dispatchNext();
        return;
    }
    const std::string client =
        clientAddress(peerAddress_, forwardedFor(request), context_.config.trustedProxies);
    std::shared_ptr<ClientQuotas::Lease> webSocketLease;
    std::optional<Response> refusal;
    if (!webSocketOriginAllowed(request, context_.config.corsOrigins)) {
        refusal = errorFor(request, http::status::forbidden, errors::forbidden,
                           "WebSocket connections from this Origin are not allowed (see "
                           "--cors-origins)");
    } else if (!(webSocketLease = context_.quotas.tryAcquire(Quota::WebSockets, client))) {
        context_.metrics.quotaRefused(quotaName(Quota::WebSockets));
        refusal =
            errorFor(request, http::status::too_many_requests, quotaErrorCode(Quota::WebSockets),
                     "this client has " + std::to_string(context_.config.perClientWebSockets) +
                         " WebSockets open already (see docs/security.md)",
                     context_.config.retryAfterSeconds);
    }
    if (refusal) {
        refusal->keep_alive(false);
        pending_.emplace_back(std::move(*refusal));
        dispatchNext();
        return;
    }
    handedOff_ = true;
    closed_ = true;
    if (registryId_) context_.httpSessions.remove(registryId_);
    ++timerGeneration_;
    timer_.cancel();
    client_.address = client;
    // The connection lives on as the WebSocket, and holds its quotas.
    std::vector<std::shared_ptr<ClientQuotas::Lease>> leases = {std::move(webSocketLease)};
    if (connectionLease_) leases.push_back(std::move(connectionLease_));
    auto session = std::make_shared<WebSocketSession>(std::move(socket_), context_, client_,
                                                      std::move(leases));
    session->start(std::move(request));
}

void HttpSession::dispatchNext() {
    if (exchange_ || closed_ || pending_.empty()) return;
    Pending next = std::move(pending_.front());
    pending_.pop_front();
    if (auto* response = std::get_if<Response>(&next)) {
        exchange_ = Exchange{};  // not emplace(): clang sees no default constructor (NSDMI)
        exchange_->seq = nextSeq_++;
        exchange_->route = "invalid";
        exchange_->method = "?";
        exchange_->startedAt = std::chrono::steady_clock::now();
        respondOnStrand(exchange_->seq, std::move(*response), true);
        return;
    }
    dispatch(std::move(std::get<Request>(next)));
    doRead();
}

void HttpSession::dispatch(Request&& request) {
    exchange_ = Exchange{};
    Exchange& exchange = *exchange_;
    exchange.seq = nextSeq_++;
    exchange.method = std::string(request.method_string());
    exchange.head = request.method() == http::verb::head;
    exchange.target = std::string(request.target());
    exchange.origin = std::string(request[http::field::origin]);
    exchange.version = request.version();
    exchange.keepAlive = request.keep_alive() && !context_.draining.load();
    exchange.startedAt = std::chrono::steady_clock::now();
    updateTimer();
    client_.address =
        clientAddress(peerAddress_, forwardedFor(request), context_.config.trustedProxies);
    auto sink =
        std::make_shared<HttpSessionSink>(weak_from_this(), socket_.get_executor(), exchange.seq);
    const std::uint64_t seq = exchange.seq;
    std::string route = "error";
    const unsigned version = exchange.version;
    try {
        route = handleHttp(context_, std::move(request), client_, sink);
    } catch (const std::exception& error) {
        failExchange(*sink, "http", error.what(), version);
    } catch (...) {
        failExchange(*sink, "http", "unknown exception", version);
    }
    // The handler answers through posts, so the exchange is still ours here.
    if (exchange_ && exchange_->seq == seq) exchange_->route = std::move(route);
}

// A handler threw: the client gets 500 `internal` (or, if its stream had started, the end of
// the stream), the error is logged and counted, and the connection goes on.
void HttpSession::failExchange(ResponseSink& sink, const char* where, const std::string& what,
                               unsigned version) {
    context_.metrics.internalError(where);
    context_.logger.log({{"event", "internal_error"},
                         {"where", where},
                         {"error", what},
                         {"client", client_.address}});
    sink.respond(errorResponse(http::status::internal_server_error, errors::internal,
                               "the server failed to answer this request", version, true));
    sink.endStream();  // ignored unless a stream had started
}

void HttpSession::abandonedOnStrand(std::uint64_t seq) {
    if (closed_ || !exchange_ || exchange_->seq != seq) return;
    if (!exchange_->streaming && exchange_->status != 0) return;  // answered after all
    context_.metrics.internalError("unanswered");
    context_.logger.log({{"event", "internal_error"},
                         {"where", "unanswered"},
                         {"route", exchange_->route},
                         {"client", client_.address}});
    if (exchange_->streaming) {
        endStreamOnStrand(seq);
        return;
    }
    respondOnStrand(
        seq,
        errorResponse(http::status::internal_server_error, errors::internal,
                      "the server failed to answer this request", exchange_->version, true),
        false);
}

void HttpSession::applyExchangeCors(const Exchange& exchange, Response& response) const {
    Request originOnly;
    if (!exchange.origin.empty()) originOnly.set(http::field::origin, exchange.origin);
    applyCors(originOnly, response, context_.config.corsOrigins);
}

std::string HttpSession::framed(std::string data) const {
    return exchange_->chunked ? chunk(data) : data;
}

void HttpSession::respondOnStrand(std::uint64_t seq, Response response, bool closeAfter,
                                  std::shared_ptr<const std::string> shared) {
    if (closed_ || !exchange_ || exchange_->seq != seq || exchange_->streaming || exchange_->status)
        return;
    Exchange& exchange = *exchange_;
    exchange.status = static_cast<int>(response.result_int());
    applyExchangeCors(exchange, response);
    response.version(exchange.version);
    const bool keepAlive =
        exchange.keepAlive && !closeAfter && response.keep_alive() && !context_.draining.load();
    response.keep_alive(keepAlive);
    response.set(http::field::server, "outpost");
    // Browsers must take every answer as the type it says (no sniffing a JSON error into HTML).
    response.set(kNoSniffField, "nosniff");
    if (shared) {
        // The header alone is serialized; the shared body follows it unchanged.
        response.body().clear();
        response.content_length(shared->size());
    }
    if (exchange.head) {
        // The headers GET would send, Content-Length included, and no body: a body here would
        // be read as the start of the next response on this connection.
        if (!response.has_content_length() && !response.chunked())
            response.content_length(response.body().size());
        response.body().clear();
        shared.reset();
    }
    std::ostringstream out;
    if (shared) {
        out << response.base();
    } else {
        out << response;
    }
    enqueue({out.str(), kNoCoalescing, true, !keepAlive, std::move(shared)});
}

void HttpSession::startStreamOnStrand(std::uint64_t seq, Response header) {
    if (closed_ || !exchange_ || exchange_->seq != seq || exchange_->status) return;
    Exchange& exchange = *exchange_;
    exchange.status = static_cast<int>(header.result_int());
    exchange.streaming = true;
    applyExchangeCors(exchange, header);
    header.version(exchange.version);
    // HTTP/1.0 has no chunked encoding (RFC 9112 6.1: no Transfer-Encoding in an answer to
    // it): the lines go out bare and the stream's end is the connection's.
    exchange.chunked = exchange.version >= kHttp11;
    if (!exchange.chunked) exchange.keepAlive = false;
    header.keep_alive(exchange.keepAlive);
    header.set(http::field::server, "outpost");
    header.set(kNoSniffField, "nosniff");
    header.set(http::field::cache_control, "no-store");
    header.body().clear();
    if (exchange.chunked) header.chunked(true);
    std::ostringstream out;
    out << header.base();
    if (exchange.head) {
        // HEAD of a stream: the header alone ends the exchange; later lines are ignored.
        exchange.streaming = false;
        enqueue({out.str(), kNoCoalescing, true, !exchange.keepAlive, nullptr});
        return;
    }
    enqueue({out.str(), kNoCoalescing, false, false, nullptr});
}

void HttpSession::streamLineOnStrand(std::uint64_t seq, std::string line, CoalesceKey coalesceKey) {
    if (closed_ || !exchange_ || exchange_->seq != seq || !exchange_->streaming) return;
    line += '\n';
    enqueue({framed(std::move(line)), coalesceKey, false, false, nullptr});
}

void HttpSession::endStreamOnStrand(std::uint64_t seq) {
    if (closed_ || !exchange_ || exchange_->seq != seq || !exchange_->streaming) return;
    exchange_->streaming = false;  // no more lines
    enqueue({exchange_->chunked ? std::string(kLastChunk) : std::string(), kNoCoalescing, true,
             !exchange_->keepAlive, nullptr});
}

void HttpSession::addDisconnectOnStrand(std::uint64_t seq, std::function<void()> callback) {
    if (closed_ || !exchange_ || exchange_->seq != seq) {
        // Gone already (or the exchange is over: nothing left to stop).
        if (closed_ && !handedOff_) callback();
        return;
    }
    exchange_->onDisconnect.push_back(std::move(callback));
}

void HttpSession::addEndOnStrand(std::uint64_t seq, std::function<void()> callback) {
    if (!exchange_ || exchange_->seq != seq) {
        callback();  // that exchange is over already
        return;
    }
    exchange_->onEnd.push_back(std::move(callback));
}

void HttpSession::enqueue(Outgoing outgoing) {
    // A slow reader: a progress line takes the place of the waiting one of its own line rather
    // than queue behind it (coalesce.h).
    dropSupersededProgress(writeQueue_, writing_, outgoing.coalesceKey, queuedBytes_,
                           coalesceThreshold(context_.config.maxQueuedBytes),
                           [](const Outgoing& o) { return o.bytes.size(); });
    queuedBytes_ += outgoing.bytes.size();
    writeQueue_.push_back(std::move(outgoing));
    if (queuedBytes_ > context_.config.maxQueuedBytes) {
        context_.metrics.slowClientDropped();
        close();
        return;
    }
    doWrite();
}

void HttpSession::doWrite() {
    if (writing_ || closed_ || writeQueue_.empty()) return;
    writing_ = true;
    updateTimer();
    const Outgoing& front = writeQueue_.front();
    const std::array<net::const_buffer, 2> buffers = {
        net::buffer(front.bytes), front.shared ? net::buffer(*front.shared) : net::const_buffer()};
    net::async_write(socket_, buffers,
                     [self = shared_from_this()](beast::error_code error, std::size_t) {
                         self->onWrite(error);
                     });
}

void HttpSession::onWrite(beast::error_code error) {
    writing_ = false;
    if (closed_) return;
    if (error) {
        close();
        return;
    }
    Outgoing done = std::move(writeQueue_.front());
    writeQueue_.pop_front();
    queuedBytes_ -= done.bytes.size();
    if (done.endsExchange) finishExchange();
    if (done.closeAfter) {
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
        close();
        return;
    }
    if (drained_ && !exchange_ && writeQueue_.empty()) {
        close();
        return;
    }
    doWrite();
    dispatchNext();
    if (peerFinished_ && !exchange_ && pending_.empty() && writeQueue_.empty()) {
        // Every request the half-closed client sent is answered.
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
        close();
        return;
    }
    doRead();
    updateTimer();
}

void HttpSession::watchForReset() {
    socket_.async_wait(tcp::socket::wait_error, [self = shared_from_this()](beast::error_code) {
        if (!self->closed_) self->close();
    });
}

void HttpSession::finishExchange() {
    if (!exchange_) return;
    const Exchange& exchange = *exchange_;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - exchange.startedAt)
            .count();
    context_.metrics.observeRequest(exchange.route, exchange.method, exchange.status, seconds);
    if (context_.config.logRequests && context_.logger.enabled()) {
        context_.logger.log({{"event", "request"},
                             {"method", exchange.method},
                             {"target", exchange.target},
                             {"route", exchange.route},
                             {"status", exchange.status},
                             {"client", client_.address},
                             {"ms", seconds * 1000.0}});
    }
    releaseExchange();
}

void HttpSession::releaseExchange() {
    if (!exchange_) return;
    auto callbacks = std::move(exchange_->onEnd);
    exchange_.reset();
    for (auto& callback : callbacks) callback();
}

void HttpSession::armTimer(std::chrono::milliseconds after, bool keepAliveLine) {
    const std::uint64_t generation = ++timerGeneration_;
    timer_.expires_after(after);
    timer_.async_wait(
        [self = shared_from_this(), generation, keepAliveLine](beast::error_code error) {
            if (error || generation != self->timerGeneration_ || self->closed_) return;
            if (!keepAliveLine) {
                self->close();
                return;
            }
            // An empty NDJSON line: keeps proxies from timing the stream out, and finds dead
            // clients (the write fails).
            if (self->exchange_ && self->exchange_->streaming) {
                self->enqueue(
                    {self->framed("\n"), progressKey("keep-alive", 0), false, false, nullptr});
            }
        });
}

// Writing: the client must read within writeTimeoutMs. Idle (no exchange): the next request must
// arrive within idleTimeoutMs. Streaming: a keep-alive line when nothing was sent for a while.
// Working on an answer: no deadline (the search limits bound it).
void HttpSession::updateTimer() {
    if (closed_) return;
    if (writing_) {
        armTimer(std::chrono::milliseconds(context_.config.writeTimeoutMs), false);
    } else if (exchange_ && exchange_->streaming) {
        armTimer(std::chrono::milliseconds(context_.config.streamKeepAliveMs), true);
    } else if (!exchange_ && pending_.empty()) {
        armTimer(std::chrono::milliseconds(context_.config.idleTimeoutMs), false);
    } else {
        ++timerGeneration_;
        timer_.cancel();
    }
}

void HttpSession::close() {
    if (closed_) return;
    closed_ = true;
    if (registryId_) context_.httpSessions.remove(registryId_);
    ++timerGeneration_;
    timer_.cancel();
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    pending_.clear();
    writeQueue_.clear();
    queuedBytes_ = 0;
    if (exchange_) {
        auto callbacks = std::move(exchange_->onDisconnect);
        if (exchange_->status == 0) exchange_->status = 499;  // client closed before the answer
        finishExchange();
        for (auto& callback : callbacks) callback();
    }
}

Listener::Listener(net::io_context& io, tcp::endpoint endpoint, ServerContext& context)
    : io_(io),
      acceptor_(net::make_strand(io)),
      retryTimer_(acceptor_.get_executor()),
      context_(context) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(net::socket_base::max_listen_connections);
}

void Listener::start() {
    net::dispatch(acceptor_.get_executor(), [self = shared_from_this()] { self->doAccept(); });
}

void Listener::stop() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
        beast::error_code ignored;
        self->acceptor_.close(ignored);
        self->retryTimer_.cancel();
    });
}

unsigned short Listener::port() const {
    return acceptor_.local_endpoint().port();
}

void Listener::doAccept() {
    acceptor_.async_accept(net::make_strand(io_), [self = shared_from_this()](
                                                      beast::error_code error, tcp::socket socket) {
        if (error == net::error::operation_aborted || !self->acceptor_.is_open()) return;
        if (error) self->context_.metrics.acceptFailed();
        if (error && error != net::error::connection_aborted) {
            // Out of file descriptors (EMFILE, ENFILE) or memory: accepting again at once would
            // fail the same way, in a loop that takes a core. Pause, then try again; the
            // connections wait in the backlog meanwhile.
            self->retryTimer_.expires_after(kAcceptRetryDelay);
            self->retryTimer_.async_wait([self](beast::error_code waitError) {
                if (waitError || !self->acceptor_.is_open()) return;
                self->doAccept();
            });
            return;
        }
        if (!error) std::make_shared<HttpSession>(std::move(socket), self->context_)->start();
        self->doAccept();
    });
}

}  // namespace outpost::server
