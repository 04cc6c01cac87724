// Beast clients for the integration tests: HTTP (one connection, keep-alive, streaming reads)
// and WebSocket. Every operation runs asynchronously with a deadline, so a broken server fails
// a test instead of hanging it.
#pragma once

#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace outpost::server::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

inline constexpr auto kClientTimeout = std::chrono::seconds(20);

// Runs io until `done` is set or the deadline passes; throws on timeout.
inline void runUntil(net::io_context& io, const bool& done,
                     std::chrono::steady_clock::duration timeout = kClientTimeout) {
    io.restart();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done) {
        if (io.run_one_until(deadline) == 0 && !done) {
            if (std::chrono::steady_clock::now() >= deadline)
                throw std::runtime_error("client timeout");
            io.restart();
        }
    }
}

struct HttpResult {
    unsigned status = 0;
    std::string body;
    bhttp::fields headers;
    nlohmann::json json() const { return nlohmann::json::parse(body); }
    std::string header(const std::string& name) const {
        auto it = headers.find(name);
        return it == headers.end() ? std::string() : std::string(it->value());
    }
};

class HttpClient {
  public:
    explicit HttpClient(unsigned short port) : socket_(io_) {
        socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    }

    void sendRaw(const std::string& bytes) {
        bool done = false;
        beast::error_code error;
        net::async_write(socket_, net::buffer(bytes), [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        runUntil(io_, done);
        if (error) throw beast::system_error(error);
    }

    void send(bhttp::verb method, const std::string& target, const std::string& body = "",
              const std::map<std::string, std::string>& headers = {}) {
        bhttp::request<bhttp::string_body> request{method, target, 11};
        request.set(bhttp::field::host, "localhost");
        if (!body.empty()) request.set(bhttp::field::content_type, "application/json");
        for (const auto& [name, value] : headers) request.set(name, value);
        request.body() = body;
        request.prepare_payload();
        bool done = false;
        beast::error_code error;
        bhttp::async_write(socket_, request, [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        runUntil(io_, done);
        if (error) throw beast::system_error(error);
    }

    // Reads one complete response. Throws on a closed connection or a timeout.
    // `headResponse`: the answer to a HEAD request, which has headers only (whatever its
    // Content-Length says); bytes after them belong to the next response.
    HttpResult read(std::chrono::steady_clock::duration timeout = kClientTimeout,
                    bool headResponse = false) {
        bhttp::response_parser<bhttp::string_body> parser;
        parser.body_limit(64 * 1024 * 1024);
        parser.skip(headResponse);
        bool done = false;
        beast::error_code error;
        bhttp::async_read(socket_, buffer_, parser, [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        runUntil(io_, done, timeout);
        if (error) throw beast::system_error(error);
        auto response = parser.release();
        HttpResult result;
        result.status = response.result_int();
        result.body = response.body();
        for (const auto& field : response) result.headers.set(field.name_string(), field.value());
        return result;
    }

    // The final answer: interim 1xx answers before it (`100 Continue`) are read past, as
    // every HTTP/1.1 client must.
    HttpResult readFinal(std::chrono::steady_clock::duration timeout = kClientTimeout) {
        for (;;) {
            HttpResult result = read(timeout);
            if (result.status >= 200) return result;
        }
    }

    HttpResult request(bhttp::verb method, const std::string& target, const std::string& body = "",
                       const std::map<std::string, std::string>& headers = {}) {
        send(method, target, body, headers);
        return read();
    }

    // Streaming: reads the header, then NDJSON lines one by one as chunks arrive.
    void readStreamHeader() {
        streamParser_.emplace();
        streamParser_->body_limit(64 * 1024 * 1024);
        chunkBody_ = [this](std::uint64_t, beast::string_view body, beast::error_code&) {
            pendingText_.append(body.data(), body.size());
            return body.size();
        };
        streamParser_->on_chunk_body(chunkBody_);
        bool done = false;
        beast::error_code error;
        bhttp::async_read_header(socket_, buffer_, *streamParser_,
                                 [&](beast::error_code ec, std::size_t) {
                                     error = ec;
                                     done = true;
                                 });
        runUntil(io_, done);
        if (error) throw beast::system_error(error);
        streamStatus_ = streamParser_->get().result_int();
        streamContentType_ = std::string(streamParser_->get()[bhttp::field::content_type]);
    }
    unsigned streamStatus() const { return streamStatus_; }
    const std::string& streamContentType() const { return streamContentType_; }

    // The next non-empty line; nullopt when the stream ended.
    std::optional<std::string> readLine(
        std::chrono::steady_clock::duration timeout = kClientTimeout) {
        for (;;) {
            auto newline = pendingText_.find('\n');
            while (newline != std::string::npos) {
                std::string line = pendingText_.substr(0, newline);
                pendingText_.erase(0, newline + 1);
                if (!line.empty()) return line;
                ++keepAliveLines_;
                newline = pendingText_.find('\n');
            }
            if (streamParser_->is_done()) return std::nullopt;
            bool done = false;
            beast::error_code error;
            bhttp::async_read_some(socket_, buffer_, *streamParser_,
                                   [&](beast::error_code ec, std::size_t) {
                                       error = ec;
                                       done = true;
                                   });
            runUntil(io_, done, timeout);
            if (error == bhttp::error::end_of_chunk) continue;
            if (error) throw beast::system_error(error);
        }
    }
    int keepAliveLines() const { return keepAliveLines_; }

    // Every byte the server sends until it closes the connection, unparsed (throws on a
    // timeout).
    std::string readUntilClosed(std::chrono::steady_clock::duration timeout = kClientTimeout) {
        std::string bytes = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            std::array<char, 4096> block;
            bool done = false;
            beast::error_code error;
            std::size_t got = 0;
            socket_.async_read_some(net::buffer(block), [&](beast::error_code ec, std::size_t n) {
                error = ec;
                got = n;
                done = true;
            });
            runUntil(io_, done, deadline - std::chrono::steady_clock::now());
            bytes.append(block.data(), got);
            if (error) return bytes;
        }
    }

    // True when the server closed the connection within the timeout.
    bool waitClosed(std::chrono::steady_clock::duration timeout) {
        char byte;
        bool done = false;
        beast::error_code error;
        socket_.async_read_some(net::buffer(&byte, 1), [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        try {
            runUntil(io_, done, timeout);
        } catch (const std::runtime_error&) {
            socket_.cancel();
            bool cancelled = false;
            (void)cancelled;
            io_.restart();
            io_.run_for(std::chrono::milliseconds(100));
            return false;
        }
        return static_cast<bool>(error);
    }

    // Ends what the client sends (a half-close, as `nc -N` does); it still reads.
    void shutdownSend() {
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
    }

    void close() {
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
    }

  private:
    net::io_context io_;
    tcp::socket socket_;
    beast::flat_buffer buffer_;
    std::optional<bhttp::response_parser<bhttp::string_body>> streamParser_;
    std::function<std::size_t(std::uint64_t, beast::string_view, beast::error_code&)> chunkBody_;
    std::string pendingText_;
    unsigned streamStatus_ = 0;
    std::string streamContentType_;
    int keepAliveLines_ = 0;
};

class WsClient {
  public:
    explicit WsClient(unsigned short port, const std::string& target = "/api/v1/ws",
                      const std::map<std::string, std::string>& headers = {})
        : ws_(io_) {
        ws_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
        if (!headers.empty()) {
            ws_.set_option(websocket::stream_base::decorator([headers](websocket::request_type& r) {
                for (const auto& [name, value] : headers) r.set(name, value);
            }));
        }
        bool done = false;
        beast::error_code error;
        ws_.async_handshake("localhost", target, [&](beast::error_code ec) {
            error = ec;
            done = true;
        });
        runUntil(io_, done);
        if (error) throw beast::system_error(error);
    }

    void sendText(const std::string& text) {
        bool done = false;
        beast::error_code error;
        ws_.text(true);
        ws_.async_write(net::buffer(text), [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        runUntil(io_, done);
        if (error) throw beast::system_error(error);
    }
    void sendBinary(const std::string& bytes) {
        bool done = false;
        beast::error_code error;
        ws_.binary(true);
        ws_.async_write(net::buffer(bytes), [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        runUntil(io_, done);
        if (error) throw beast::system_error(error);
    }
    void send(const nlohmann::json& message) { sendText(message.dump()); }

    // The next message; throws when the connection closed (closeCode() then tells why).
    nlohmann::json read(std::chrono::steady_clock::duration timeout = kClientTimeout) {
        beast::flat_buffer buffer;
        bool done = false;
        beast::error_code error;
        ws_.async_read(buffer, [&](beast::error_code ec, std::size_t) {
            error = ec;
            done = true;
        });
        runUntil(io_, done, timeout);
        if (error) throw beast::system_error(error);
        return nlohmann::json::parse(beast::buffers_to_string(buffer.data()));
    }
    // Reads until a message of `type` arrives (others are collected in `skipped`).
    nlohmann::json readType(const std::string& type,
                            std::vector<nlohmann::json>* skipped = nullptr) {
        for (;;) {
            nlohmann::json message = read();
            if (message.value("type", "") == type) return message;
            if (skipped) skipped->push_back(message);
        }
    }
    int closeCode() const { return ws_.reason().code; }
    void close() {
        bool done = false;
        ws_.async_close(websocket::close_code::normal, [&](beast::error_code) { done = true; });
        runUntil(io_, done);
    }
    void dropConnection() {
        beast::error_code ignored;
        ws_.next_layer().shutdown(tcp::socket::shutdown_both, ignored);
        ws_.next_layer().close(ignored);
    }

  private:
    net::io_context io_;
    websocket::stream<tcp::socket> ws_;
};

}  // namespace outpost::server::testing
