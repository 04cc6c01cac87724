// outpost-server-load: WebSocket load client for the benchmarks in docs/performance.md.
//
//   idle      open --connections WebSockets, check each with a ping, hold them --hold seconds;
//             meanwhile GET /healthz is probed on a keep-alive connection every 100 ms and the
//             slowest answer is reported (--healthz-max ms: the run fails above it)
//             (the server's memory is read meanwhile from /proc/<--pid>/status)
//   analysis  --connections clients, each running --per-client analyses one after another with
//             movetime --movetime; for every result it checks
//                 latency <= queueWaitMs + movetime + --slack
//             (latency: from sending `analyse` to receiving `bestmove`)
//   players   simulated browser players against the engine (load_players.h): --players,
//             --duration s, --think-min/--think-max ms, --seed, --high-level-percent,
//             --clock-percent, --target-p99 ms, --json 1, --pid
#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tools/load_players.h"

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string mode = "idle";
    std::string host = "127.0.0.1";
    std::string port = "8080";
    int connections = 100;
    int perClient = 5;
    int movetimeMs = 100;
    int slackMs = 25;
    int holdSeconds = 3;
    int pid = 0;
    int healthzMaxMs = 0;  // idle mode: fail when a /healthz probe takes longer (0: no check)
};

// Idle mode's probe: GET /healthz every kProbeEvery on one keep-alive connection until `stop`;
// returns the latencies in ms (a failed probe counts as -1).
constexpr auto kProbeEvery = std::chrono::milliseconds(100);
std::vector<double> probeHealthz(const Options& options, const std::atomic<bool>& stop) {
    std::vector<double> latencies;
    net::io_context io;
    beast::tcp_stream stream(io);
    tcp::resolver resolver(io);
    beast::error_code ec;
    stream.connect(resolver.resolve(options.host, options.port), ec);
    if (ec) return {-1};
    beast::http::request<beast::http::empty_body> request(beast::http::verb::get, "/healthz", 11);
    request.set(beast::http::field::host, options.host);
    while (!stop) {
        const auto start = Clock::now();
        beast::http::write(stream, request, ec);
        beast::flat_buffer buffer;
        beast::http::response<beast::http::string_body> response;
        if (!ec) beast::http::read(stream, buffer, response, ec);
        if (ec || response.result_int() != 200) {
            latencies.push_back(-1);
            break;
        }
        latencies.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        std::this_thread::sleep_for(kProbeEvery);
    }
    return latencies;
}

long rssKb(int pid) {
    if (pid <= 0) return -1;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    }
    return -1;
}

struct Sample {
    double latencyMs;
    double queueWaitMs;
    double searchMs;
};

class Client : public std::enable_shared_from_this<Client> {
  public:
    Client(net::io_context& io, const Options& options, std::vector<Sample>& samples, int& done,
           int& failures)
        : ws_(net::make_strand(io)),
          resolver_(io),
          options_(options),
          samples_(samples),
          done_(done),
          failures_(failures) {}

    void start() {
        resolver_.async_resolve(options_.host, options_.port,
                                [self = shared_from_this()](beast::error_code ec, auto results) {
                                    if (ec) return self->fail("resolve", ec);
                                    beast::get_lowest_layer(self->ws_).async_connect(
                                        results, [self](beast::error_code ec2, auto) {
                                            if (ec2) return self->fail("connect", ec2);
                                            self->handshake();
                                        });
                                });
    }

  private:
    void handshake() {
        ws_.async_handshake(options_.host, "/api/v1/ws",
                            [self = shared_from_this()](beast::error_code ec) {
                                if (ec) return self->fail("handshake", ec);
                                if (self->options_.mode == "idle") {
                                    self->send(R"({"type":"ping"})");
                                } else {
                                    self->nextAnalysis();
                                }
                                self->read();
                            });
    }
    void nextAnalysis() {
        if (sent_ >= options_.perClient) {
            ++done_;
            ws_.async_close(websocket::close_code::normal,
                            [self = shared_from_this()](beast::error_code) {});
            return;
        }
        ++sent_;
        sentAt_ = Clock::now();
        nlohmann::json message = {
            {"type", "analyse"}, {"id", sent_}, {"limits", {{"movetime", options_.movetimeMs}}}};
        send(message.dump());
    }
    void send(std::string text) {
        auto buffer = std::make_shared<std::string>(std::move(text));
        ws_.async_write(net::buffer(*buffer),
                        [self = shared_from_this(), buffer](beast::error_code ec, std::size_t) {
                            if (ec) self->fail("write", ec);
                        });
    }
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) {
                // The read pending when we close our own finished connection ends cancelled.
                const bool finished = self->sent_ >= self->options_.perClient;
                if (ec != websocket::error::closed && self->options_.mode != "idle" && !finished)
                    self->fail("read", ec);
                return;
            }
            auto message = nlohmann::json::parse(beast::buffers_to_string(self->buffer_.data()),
                                                 nullptr, false);
            self->buffer_.consume(self->buffer_.size());
            const std::string type = message.is_object() ? message.value("type", "") : "";
            if (type == "pong") {
                ++self->done_;  // idle mode: connected and answering; keep it open
            } else if (type == "bestmove") {
                const double latency =
                    std::chrono::duration<double, std::milli>(Clock::now() - self->sentAt_).count();
                self->samples_.push_back(
                    {latency, message.value("queueWaitMs", 0.0), message.value("searchMs", 0.0)});
                self->nextAnalysis();
            } else if (type == "error") {
                ++self->failures_;
                std::cerr << "error: " << message.dump() << "\n";
                self->nextAnalysis();
            }
            self->read();
        });
    }
    void fail(const char* what, beast::error_code ec) {
        ++failures_;
        std::cerr << what << ": " << ec.message() << "\n";
    }

    websocket::stream<beast::tcp_stream> ws_;
    tcp::resolver resolver_;
    const Options& options_;
    std::vector<Sample>& samples_;
    int& done_;
    int& failures_;
    beast::flat_buffer buffer_;
    int sent_ = 0;
    Clock::time_point sentAt_;
};

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
    return values[index];
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    outpost::load::PlayerOptions players;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--players")
            players.players = std::stoi(value);
        else if (flag == "--duration")
            players.durationSeconds = std::stoi(value);
        else if (flag == "--think-min")
            players.thinkMinMs = std::stoi(value);
        else if (flag == "--think-max")
            players.thinkMaxMs = std::stoi(value);
        else if (flag == "--seed")
            players.seed = std::stoi(value);
        else if (flag == "--high-level-percent")
            players.highLevelPercent = std::stoi(value);
        else if (flag == "--clock-percent")
            players.clockPercent = std::stoi(value);
        else if (flag == "--target-p99")
            players.targetP99Ms = std::stoi(value);
        else if (flag == "--json")
            players.json = value == "1" || value == "true";
        else if (flag == "--mode")
            options.mode = value;
        else if (flag == "--host")
            options.host = value;
        else if (flag == "--port")
            options.port = value;
        else if (flag == "--connections")
            options.connections = std::stoi(value);
        else if (flag == "--per-client")
            options.perClient = std::stoi(value);
        else if (flag == "--movetime")
            options.movetimeMs = std::stoi(value);
        else if (flag == "--slack")
            options.slackMs = std::stoi(value);
        else if (flag == "--hold")
            options.holdSeconds = std::stoi(value);
        else if (flag == "--pid")
            options.pid = std::stoi(value);
        else if (flag == "--healthz-max")
            options.healthzMaxMs = std::stoi(value);
        else {
            std::cerr << "unknown flag " << flag << "\n";
            return 2;
        }
    }
    if (options.mode == "players") {
        players.host = options.host;
        players.port = options.port;
        players.pid = options.pid;
        if (players.players < 1 || players.thinkMinMs < 0 ||
            players.thinkMaxMs < players.thinkMinMs) {
            std::cerr << "players mode: --players >= 1 and 0 <= --think-min <= --think-max\n";
            return 2;
        }
        return outpost::load::runPlayers(players);
    }
    net::io_context io;
    std::vector<Sample> samples;
    int done = 0;
    int failures = 0;
    const long rssBefore = rssKb(options.pid);
    const auto started = Clock::now();
    for (int i = 0; i < options.connections; ++i) {
        std::make_shared<Client>(io, options, samples, done, failures)->start();
    }
    if (options.mode == "idle") {
        while (done + failures < options.connections) io.run_for(std::chrono::milliseconds(50));
        const double connectSeconds = std::chrono::duration<double>(Clock::now() - started).count();
        std::atomic<bool> stopProbe{false};
        std::vector<double> probes;
        std::thread prober([&] { probes = probeHealthz(options, stopProbe); });
        io.run_for(std::chrono::seconds(options.holdSeconds));
        stopProbe = true;
        prober.join();
        const long rssAfter = rssKb(options.pid);
        const bool probeFailed = std::find(probes.begin(), probes.end(), -1.0) != probes.end();
        const double slowest = probes.empty() ? 0 : *std::max_element(probes.begin(), probes.end());
        std::cout << "idle websockets: " << done << " open (" << failures << " failed) in "
                  << connectSeconds << " s; server RSS " << rssBefore << " kB -> " << rssAfter
                  << " kB";
        if (rssBefore > 0 && done > 0) {
            std::cout << " (" << static_cast<double>(rssAfter - rssBefore) / done
                      << " kB per connection)";
        }
        std::cout << "\n/healthz while held: " << probes.size() << " probes, p50 "
                  << percentile(probes, 0.5) << " ms, slowest " << slowest << " ms"
                  << (probeFailed ? " (a probe failed)" : "") << "\n";
        const bool slow = options.healthzMaxMs > 0 && slowest > options.healthzMaxMs;
        return failures == 0 && !probeFailed && !slow ? 0 : 1;
    }
    io.run();
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    std::vector<double> overhead, queueWait, latency;
    int late = 0;
    for (const Sample& s : samples) {
        latency.push_back(s.latencyMs);
        queueWait.push_back(s.queueWaitMs);
        const double extra = s.latencyMs - s.queueWaitMs - options.movetimeMs;
        overhead.push_back(extra);
        if (extra > options.slackMs) ++late;
    }
    std::cout << "analyses: " << samples.size() << " in " << seconds << " s (" << failures
              << " failed), movetime " << options.movetimeMs << " ms, " << options.connections
              << " clients\n"
              << "latency ms p50 " << percentile(latency, 0.5) << " p95 "
              << percentile(latency, 0.95) << " max " << percentile(latency, 1.0) << "\n"
              << "queue wait ms p50 " << percentile(queueWait, 0.5) << " max "
              << percentile(queueWait, 1.0) << "\n"
              << "latency - queueWait - movetime ms: p50 " << percentile(overhead, 0.5) << " p95 "
              << percentile(overhead, 0.95) << " max " << percentile(overhead, 1.0) << "\n"
              << "over the " << options.slackMs << " ms slack: " << late << "\n";
    return failures == 0 && late == 0 ? 0 : 1;
}
