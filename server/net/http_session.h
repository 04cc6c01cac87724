// One HTTP connection: reads requests (keep-alive, pipelined), hands each to the router in order,
// and writes the answers from a bounded queue. Everything runs on the connection's strand.
//
// While a request is being answered the session keeps reading, so a pipelined request waits in
// line and a client that disconnects mid-search is noticed at once (its search is stopped). An
// end of stream after whole requests is a half-close (shutdown(SHUT_WR)): those requests are
// answered, then the connection closes; a client that had closed altogether is noticed by the
// reset that what is written to it brings.
// Timeouts: an idle connection (or one too slow to send its request) is closed after
// idleTimeoutMs; a client that does not read what we write is dropped after writeTimeoutMs or
// when more than maxQueuedBytes wait for it.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "http/http_types.h"
#include "server_context.h"

namespace outpost::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(tcp::socket&& socket, ServerContext& context);
    ~HttpSession();
    HttpSession(const HttpSession&) = delete;
    HttpSession& operator=(const HttpSession&) = delete;
    void start();

  private:
    friend class HttpSessionSink;

    // A complete request to route, or an answer decided while reading (413, 400) that closes.
    using Pending = std::variant<Request, Response>;

    struct Outgoing {
        std::string bytes;
        CoalesceKey coalesceKey = kNoCoalescing;  // progress: replaced by a newer one (coalesce.h)
        bool endsExchange = false;                // the last bytes of the current answer
        bool closeAfter = false;                  // Connection: close
        // Written after `bytes`: a body shared with the static table (not counted in
        // queuedBytes_, which bounds the memory a slow client holds; the write timeout bounds
        // how long it holds this).
        std::shared_ptr<const std::string> shared;
    };

    struct Exchange {
        std::uint64_t seq = 0;
        std::string route;
        std::string method;
        std::string target;
        std::string origin;
        unsigned version = 11;
        bool keepAlive = true;
        bool streaming = false;
        // A stream's lines go out as chunks; to an HTTP/1.0 client, which knows no chunked
        // encoding, as they are, and the end of the stream closes the connection.
        bool chunked = true;
        bool head = false;  // a HEAD request: headers only
        int status = 0;
        std::chrono::steady_clock::time_point startedAt;
        std::vector<std::function<void()>> onDisconnect;
        std::vector<std::function<void()>> onEnd;
    };

    void doRead();
    // The header is in: a client that sent `Expect: 100-continue` waits for `100 Continue`
    // before it sends the body.
    void onHeader(boost::beast::error_code error);
    void readBody();
    void onRead(boost::beast::error_code error);
    void dispatchNext();
    void dispatch(Request&& request);
    void failExchange(ResponseSink& sink, const char* where, const std::string& what,
                      unsigned version);
    // The exchange's sink was dropped by everyone without an answer (a callback that threw):
    // 500, or the end of a stream that had started.
    void abandonedOnStrand(std::uint64_t seq);
    void respondOnStrand(std::uint64_t seq, Response response, bool closeAfter,
                         std::shared_ptr<const std::string> shared = nullptr);
    void startStreamOnStrand(std::uint64_t seq, Response header);
    // The CORS headers of the exchange's answer (or stream header), by the request's Origin.
    void applyExchangeCors(const Exchange& exchange, Response& response) const;
    // One piece of the exchange's stream as it goes out: a chunk, or bare to HTTP/1.0.
    std::string framed(std::string data) const;
    void streamLineOnStrand(std::uint64_t seq, std::string line, CoalesceKey coalesceKey);
    void endStreamOnStrand(std::uint64_t seq);
    void addDisconnectOnStrand(std::uint64_t seq, std::function<void()> callback);
    void addEndOnStrand(std::uint64_t seq, std::function<void()> callback);
    void enqueue(Outgoing outgoing);
    void doWrite();
    void onWrite(boost::beast::error_code error);
    void finishExchange();
    // Drops the exchange, then runs its onEnd callbacks (from finishExchange and the destructor).
    void releaseExchange();
    void armTimer(std::chrono::milliseconds after, bool keepAliveLine);
    void updateTimer();
    void close();
    // After the client's end of stream: a reset (it had closed altogether, and something was
    // written to it) or any other error on the socket closes the session.
    void watchForReset();
    void upgradeToWebSocket(Request&& request);
    void onDrain();

    tcp::socket socket_;
    ServerContext& context_;
    ClientInfo client_;
    std::string peerAddress_;
    boost::beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    net::steady_timer timer_;
    std::uint64_t timerGeneration_ = 0;

    std::deque<Pending> pending_;
    std::optional<Exchange> exchange_;
    std::uint64_t nextSeq_ = 1;
    std::deque<Outgoing> writeQueue_;
    std::size_t queuedBytes_ = 0;
    bool reading_ = false;
    std::size_t bodyLimit_ = 0;  // the request being read may send this much (http/body_limit.h)
    bool writing_ = false;
    bool closed_ = false;
    bool handedOff_ = false;
    bool drained_ = false;
    // The client ended its side (end of stream) after whole requests: they are answered, nothing
    // more is read, and the connection closes after the last answer.
    bool peerFinished_ = false;
    std::uint64_t registryId_ = 0;
    // This connection's unit of the peer's connection quota (none for a trusted proxy).
    std::shared_ptr<ClientQuotas::Lease> connectionLease_;
    bool overConnectionQuota_ = false;  // every request gets 429, then the connection closes
};

// Accepts connections and starts an HttpSession for each.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(net::io_context& io, tcp::endpoint endpoint, ServerContext& context);
    void start();
    void stop();
    unsigned short port() const;

  private:
    void doAccept();
    net::io_context& io_;
    tcp::acceptor acceptor_;
    net::steady_timer retryTimer_;  // the pause after a failed accept
    ServerContext& context_;
};

}  // namespace outpost::server
