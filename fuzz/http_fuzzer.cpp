// HTTP requests through the router and its handlers, in process (no sockets).
//
// Input: a request line `METHOD TARGET`, header lines `Name: value`, an empty line, the body;
// placeholders as in server_fuzz_support.h. Lines a real HTTP parser would refuse (a header name
// that is not a token, control characters) are left out, as the session never hands them on.
//
// Invariants: no crash or sanitizer report; every request is answered (a response or a stream);
// never a 5xx; a request answered with an error leaves the store unchanged.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

#include "router.h"
#include "server_fuzz_support.h"

namespace {

using namespace outpost;
namespace http = boost::beast::http;

constexpr auto kAnswerWait = std::chrono::seconds(10);

// Records the status and whether the exchange was answered or a stream started.
class FuzzSink final : public server::ResponseSink {
  public:
    void respond(server::Response response) override { settle(response.result_int(), true); }
    void respondShared(server::Response header, std::shared_ptr<const std::string>) override {
        settle(header.result_int(), true);
    }
    void startStream(server::Response header) override { settle(header.result_int(), false); }
    void streamLine(std::string, server::CoalesceKey) override {}
    void endStream() override { end(); }
    void onDisconnect(std::function<void()> callback) override {
        std::lock_guard lock(mutex_);
        if (!ended_) disconnect_.push_back(std::move(callback));
    }
    void onEnd(std::function<void()> callback) override {
        {
            std::lock_guard lock(mutex_);
            if (!ended_) {
                end_.push_back(std::move(callback));
                return;
            }
        }
        callback();
    }
    // The status once answered (or the stream started); 0 if nothing came within the wait.
    unsigned waitStatus() {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, kAnswerWait, [&] { return status_ != 0; });
        return status_;
    }
    // The client goes away: a stream that would run on ends here.
    void disconnect() {
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(mutex_);
            if (ended_) return;
            callbacks.swap(disconnect_);
        }
        for (auto& callback : callbacks) callback();
        end();
    }

  private:
    void settle(unsigned status, bool ends) {
        {
            std::lock_guard lock(mutex_);
            status_ = status;
        }
        changed_.notify_all();
        if (ends) end();
    }
    void end() {
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(mutex_);
            if (ended_) return;
            ended_ = true;
            callbacks.swap(end_);
            disconnect_.clear();
        }
        for (auto& callback : callbacks) callback();
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    unsigned status_ = 0;
    bool ended_ = false;
    std::vector<std::function<void()>> disconnect_;
    std::vector<std::function<void()>> end_;
};

bool isTokenChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return false;
    return std::string_view("()<>@,;:\\\"/[]?={}").find(c) == std::string_view::npos;
}
bool isToken(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), isTokenChar);
}
bool isFieldValue(std::string_view s) {
    return std::none_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return (u < 0x20 && c != '\t') || u == 0x7f;
    });
}
bool isTarget(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u > 0x20 && u < 0x7f;
    });
}
std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Splits off the next line (without its newline).
std::string_view nextLine(std::string_view& rest) {
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzServer server;
    const std::string text =
        server.substitute(std::string_view(reinterpret_cast<const char*>(data), size));
    std::string_view rest = text;

    const std::string_view requestLine = nextLine(rest);
    const std::size_t space = requestLine.find(' ');
    if (space == std::string_view::npos) return 0;
    const std::string_view method = requestLine.substr(0, space);
    const std::string_view target = trim(requestLine.substr(space + 1));
    if (!isToken(method) || !isTarget(target)) return 0;

    server::Request request;
    request.version(11);
    request.method_string(method);
    request.target(target);
    while (!rest.empty()) {
        const std::string_view line = nextLine(rest);
        if (line.empty()) break;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string_view name = line.substr(0, colon);
        const std::string_view value = trim(line.substr(colon + 1));
        if (!isToken(name) || !isFieldValue(value)) continue;
        // The session frames the body itself; framing headers from the input would lie about it.
        if (boost::beast::iequals(name, "content-length") ||
            boost::beast::iequals(name, "transfer-encoding"))
            continue;
        request.insert(name, value);
    }
    request.body() = std::string(rest);
    request.prepare_payload();

    const std::uint64_t writesBefore = server.store->writes();
    auto sink = std::make_shared<FuzzSink>();
    server::handleHttp(server.fixture.context, std::move(request), server::ClientInfo{"127.0.0.1"},
                       sink);
    const unsigned status = sink->waitStatus();
    sink->disconnect();
    server.fixture.context.quiesce();
    // Replaying an input by hand: OUTPOST_FUZZ_VERBOSE=1 prints the status it got.
    if (std::getenv("OUTPOST_FUZZ_VERBOSE") != nullptr) std::fprintf(stderr, "status %u\n", status);
    if (status == 0) fuzz::broken("every request is answered", text);
    if (status >= 500) fuzz::broken("no 5xx", text);
    if (status >= 400 && server.store->writes() != writesBefore)
        fuzz::broken("a rejected request leaves the store unchanged", text);
    return 0;
}
