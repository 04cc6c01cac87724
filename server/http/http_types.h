// The HTTP vocabulary shared by handlers and sessions.
#pragma once

#include <boost/beast/http.hpp>
#include <functional>
#include <memory>
#include <string>

#include "errors/client_info.h"
#include "net/coalesce.h"

namespace outpost::server {

namespace http = boost::beast::http;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// Where a handler writes its answer. A handler either calls respond() once, or startStream()
// followed by any number of streamLine() and one endStream(). Every method may be called from
// any thread (the session posts to its strand), and after the client has gone (then the calls
// are ignored).
class ResponseSink {
  public:
    virtual ~ResponseSink() = default;

    virtual void respond(Response response) = 0;
    // Like respond(), for a body that is shared and never changes (a static file in memory):
    // `header` carries the status and headers (its own body is ignored; Content-Length is
    // body's size); `body` is written after it as it is, without a copy, and held until then.
    virtual void respondShared(Response header, std::shared_ptr<const std::string> body) = 0;

    // `header` carries the status and headers (its body is ignored); the body is sent chunked.
    virtual void startStream(Response header) = 0;
    // One line of NDJSON (the newline is added). A line with a key (engine progress) may be
    // replaced by a later line with the same key when the client reads slower than we write
    // (net/coalesce.h).
    virtual void streamLine(std::string line, CoalesceKey coalesceKey) = 0;
    virtual void endStream() = 0;

    // Runs `callback` once if the client disconnects before the exchange ends (at once if it
    // already has). Used to stop searches nobody waits for.
    virtual void onDisconnect(std::function<void()> callback) = 0;

    // Runs `callback` once when the exchange ends for any reason: answered, stream ended, client
    // gone, or the session destroyed at shutdown (at once if it already ended). Used to release
    // what the exchange holds elsewhere, such as an event-bus subscription: a subscription that
    // outlived its exchange would keep the session's strand alive after its I/O context.
    virtual void onEnd(std::function<void()> callback) = 0;
};

}  // namespace outpost::server
