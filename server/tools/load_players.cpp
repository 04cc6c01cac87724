#include "tools/load_players.h"

#include <unistd.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace outpost::load {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

// The level mix: levels 1-5 (most games), 6-8, and clock games (blitz 3+2 at full strength).
constexpr int kLowLevels = 5;
constexpr int kHighLevelFirst = 6;
constexpr int kHighLevels = 3;
constexpr int kClockInitialMs = 180000;
constexpr int kClockIncrementMs = 2000;
constexpr int kClockLevel = 8;
// A refused creation without Retry-After waits this long before trying again.
constexpr int kDefaultRetryMs = 1000;
// A reply that has not come after this long is counted as failed (the run goes on).
constexpr auto kReplyTimeout = std::chrono::seconds(30);

struct Totals {
    std::vector<double> overheadMs;  // reply time - the engine's search time
    std::vector<double> replyMs;     // from sending the move to the reply's arrival
    std::vector<double> queueWaitMs;
    int gamesCreated = 0;
    int gamesFinished = 0;
    int movesSent = 0;
    std::map<std::string, int> refused;  // creations refused, by error code
    std::map<std::string, int> failures;
};

// Plies played: a Game's move list, or a gameState event's moveCount (it carries no list).
std::size_t pliesOf(const json& game) {
    if (game.contains("moves") && game.at("moves").is_array()) return game.at("moves").size();
    return game.value("moveCount", std::size_t{0});
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
    return values[index];
}

struct ProcessSample {
    double cpuSeconds = -1;
    long rssKb = -1;
};

ProcessSample sampleProcess(int pid) {
    ProcessSample sample;
    if (pid <= 0) return sample;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close != std::string::npos) {
        std::istringstream fields(text.substr(close + 2));
        std::vector<std::string> values;
        std::string value;
        while (fields >> value) values.push_back(value);
        // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted from the state (field 3).
        constexpr std::size_t kUtime = 14 - 3, kStime = 15 - 3;
        if (values.size() > kStime) {
            const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
            sample.cpuSeconds = (std::stod(values[kUtime]) + std::stod(values[kStime])) / ticks;
        }
    }
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) sample.rssKb = std::stol(line.substr(6));
    }
    return sample;
}

class Player : public std::enable_shared_from_this<Player> {
  public:
    Player(net::io_context& io, const PlayerOptions& options, Totals& totals, unsigned seed,
           Clock::time_point endAt)
        : io_(io),
          ws_(net::make_strand(io)),
          resolver_(io),
          timer_(io),
          options_(options),
          totals_(totals),
          rng_(seed),
          endAt_(endAt) {}

    void start() {
        resolver_.async_resolve(options_.host, options_.port,
                                [self = shared_from_this()](beast::error_code ec, auto results) {
                                    if (ec) return self->fail("resolve");
                                    self->endpoints_ = results;
                                    self->connectSocket();
                                });
    }

  private:
    bool over() const { return Clock::now() >= endAt_; }

    void connectSocket() {
        beast::get_lowest_layer(ws_).async_connect(
            endpoints_, [self = shared_from_this()](beast::error_code ec, auto) {
                if (ec) return self->fail("connect");
                beast::get_lowest_layer(self->ws_).expires_never();
                self->ws_.async_handshake(self->options_.host, "/api/v1/ws",
                                          [self](beast::error_code ec2) {
                                              if (ec2) return self->fail("handshake");
                                              self->read();
                                              self->createGame();
                                          });
            });
    }

    // A new game over HTTP (its own short connection, as a page's fetch would be).
    void createGame() {
        if (over()) return finish();
        json body;
        const int draw = std::uniform_int_distribution<int>(0, 99)(rng_);
        if (draw < options_.clockPercent) {
            body = {{"engine", {{"side", "black"}, {"level", kClockLevel}}},
                    {"clock", {{"initial", kClockInitialMs}, {"increment", kClockIncrementMs}}}};
        } else if (draw < options_.clockPercent + options_.highLevelPercent) {
            body = {{"engine",
                     {{"side", "black"},
                      {"level", kHighLevelFirst + std::uniform_int_distribution<int>(
                                                      0, kHighLevels - 1)(rng_)}}}};
        } else {
            body = {{"engine",
                     {{"side", "black"},
                      {"level", std::uniform_int_distribution<int>(1, kLowLevels)(rng_)}}}};
        }
        auto stream = std::make_shared<beast::tcp_stream>(io_);
        auto request = std::make_shared<http::request<http::string_body>>(http::verb::post,
                                                                          "/api/v1/games", 11);
        request->set(http::field::host, options_.host);
        request->set(http::field::content_type, "application/json");
        request->keep_alive(false);
        request->body() = body.dump();
        request->prepare_payload();
        stream->expires_after(std::chrono::seconds(30));
        stream->async_connect(
            endpoints_, [self = shared_from_this(), stream, request](beast::error_code ec, auto) {
                if (ec) return self->fail("create: connect");
                http::async_write(
                    *stream, *request, [self, stream, request](beast::error_code ec2, std::size_t) {
                        if (ec2) return self->fail("create: write");
                        auto buffer = std::make_shared<beast::flat_buffer>();
                        auto response = std::make_shared<http::response<http::string_body>>();
                        http::async_read(
                            *stream, *buffer, *response,
                            [self, stream, buffer, response](beast::error_code ec3, std::size_t) {
                                if (ec3) return self->fail("create: read");
                                self->created(*response);
                            });
                    });
            });
    }

    void created(const http::response<http::string_body>& response) {
        const json body = json::parse(response.body(), nullptr, false);
        const auto status = response.result_int();
        if (status == 429 || status == 503) {
            const std::string code =
                body.is_object() && body.contains("error") ? body["error"].value("code", "?") : "?";
            ++totals_.refused[std::to_string(status) + " " + code];
            int retryMs = kDefaultRetryMs;
            if (auto it = response.find(http::field::retry_after); it != response.end()) {
                retryMs = std::max(1, std::atoi(std::string(it->value()).c_str())) * 1000;
            }
            return after(retryMs, [self = shared_from_this()] { self->createGame(); });
        }
        if (status != 201 || !body.is_object() || !body.contains("id")) {
            return fail("create: status " + std::to_string(status));
        }
        ++totals_.gamesCreated;
        gameId_ = body["id"].get<std::string>();
        token_ = body.value("playerToken", "");
        game_ = body;
        game_.erase("playerToken");
        send({{"type", "subscribe"}, {"gameId", gameId_}});
        think();
    }

    void think() {
        if (over()) return finish();
        const int ms =
            std::uniform_int_distribution<int>(options_.thinkMinMs, options_.thinkMaxMs)(rng_);
        after(ms, [self = shared_from_this()] { self->move(); });
    }

    void move() {
        if (over()) return finish();
        if (game_.value("status", "") != "ongoing") return nextGame();
        const auto& legal = game_["legalMoves"];
        if (!legal.is_array() || legal.empty()) return nextGame();
        const auto pick = std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng_);
        awaitPlies_ = pliesOf(game_) + 2;  // my move and the engine's reply
        sentAt_ = Clock::now();
        arrivedAt_.reset();
        engineTimeMs_.reset();
        ++totals_.movesSent;
        // "wait": the answer comes with the engine's reply and its search time.
        send({{"type", "move"},
              {"id", ++messageId_},
              {"gameId", gameId_},
              {"token", token_},
              {"move", legal[pick]},
              {"version", game_["version"]},
              {"wait", true}});
        const auto sent = messageId_;
        timer_.expires_after(kReplyTimeout);
        timer_.async_wait([self = shared_from_this(), sent](beast::error_code ec) {
            if (ec || self->messageId_ != sent || self->awaitPlies_ == 0) return;
            self->fail("no engine reply within 30 s");
            self->awaitPlies_ = 0;
            self->think();
        });
    }

    void nextGame() {
        if (!gameId_.empty()) {
            ++totals_.gamesFinished;
            send({{"type", "unsubscribe"}, {"gameId", gameId_}});
            gameId_.clear();
        }
        createGame();
    }

    // A Game (the move's answer, the subscription's gameFull) or a gameState event: the newest
    // version wins.
    void onGame(const json& game, const json* engineMove, bool deferred) {
        if (!game.is_object() || game.value("id", game.value("gameId", "")) != gameId_) return;
        if (game.value("version", 0ULL) >= game_.value("version", 0ULL)) game_ = game;
        if (deferred) {
            // The move was stored but the engine's reply was deferred (202 enginePending): a
            // degraded answer, counted as a failure; its time counts in full when it comes.
            ++totals_.failures["engine reply deferred"];
            engineTimeMs_ = 0;
        }
        if (engineMove && engineMove->is_object() && engineMove->contains("timeMs")) {
            engineTimeMs_ = (*engineMove)["timeMs"].get<double>();
            if (engineMove->contains("queueWaitMs"))
                totals_.queueWaitMs.push_back((*engineMove)["queueWaitMs"].get<double>());
        }
        if (awaitPlies_ == 0) return;
        const bool replied = pliesOf(game) >= awaitPlies_;
        const bool ended = game.value("status", "") != "ongoing";
        if ((replied || ended) && !arrivedAt_) arrivedAt_ = Clock::now();
        if (ended && !replied) {  // my move ended the game: no reply to wait for
            awaitPlies_ = 0;
            timer_.cancel();
            return nextGame();
        }
        if (!arrivedAt_ || !engineTimeMs_) return;  // the answer with the search time follows
        const double replyMs =
            std::chrono::duration<double, std::milli>(*arrivedAt_ - sentAt_).count();
        totals_.replyMs.push_back(replyMs);
        totals_.overheadMs.push_back(replyMs - *engineTimeMs_);
        awaitPlies_ = 0;
        timer_.cancel();
        think();
    }

    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) {
                if (!self->closing_) self->fail("read");
                return;
            }
            const json message =
                json::parse(beast::buffers_to_string(self->buffer_.data()), nullptr, false);
            self->buffer_.consume(self->buffer_.size());
            const std::string type = message.is_object() ? message.value("type", "") : "";
            if ((type == "game" || type == "gameFull") && message.contains("game")) {
                self->onGame(message.at("game"),
                             message.contains("engineMove") ? &message.at("engineMove") : nullptr,
                             message.value("enginePending", false));
            } else if (type == "gameState") {
                self->onGame(message, nullptr, false);
            } else if (type == "error") {
                self->fail("error " + message.value("code", "?"));
                if (self->awaitPlies_ != 0) {  // the move was refused: think and try again
                    self->awaitPlies_ = 0;
                    self->timer_.cancel();
                    self->think();
                }
            }
            self->read();
        });
    }

    void send(const json& message) {
        queue_.push_back(message.dump());
        if (queue_.size() == 1) writeNext();
    }
    void writeNext() {
        ws_.async_write(net::buffer(queue_.front()),
                        [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec) return self->fail("write");
                            self->queue_.pop_front();
                            if (!self->queue_.empty()) self->writeNext();
                        });
    }

    template <typename F>
    void after(int ms, F then) {
        timer_.expires_after(std::chrono::milliseconds(ms));
        timer_.async_wait([then = std::move(then)](beast::error_code ec) {
            if (!ec) then();
        });
    }

    void finish() {
        if (closing_) return;
        closing_ = true;
        timer_.cancel();
        ws_.async_close(websocket::close_code::normal,
                        [self = shared_from_this()](beast::error_code) {});
    }

    void fail(const std::string& what) {
        ++totals_.failures[what];
        if (what.rfind("create", 0) == 0 || what == "connect" || what == "handshake" ||
            what == "resolve" || what == "write") {
            finish();  // without a game or a socket this player cannot go on
        }
    }

    net::io_context& io_;
    websocket::stream<beast::tcp_stream> ws_;
    tcp::resolver resolver_;
    net::steady_timer timer_;
    const PlayerOptions& options_;
    Totals& totals_;
    std::mt19937 rng_;
    const Clock::time_point endAt_;
    tcp::resolver::results_type endpoints_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    std::string gameId_;
    std::string token_;
    json game_;
    std::size_t awaitPlies_ = 0;
    int messageId_ = 0;
    Clock::time_point sentAt_;
    std::optional<Clock::time_point> arrivedAt_;
    std::optional<double> engineTimeMs_;
    bool closing_ = false;
};

}  // namespace

int runPlayers(const PlayerOptions& options) {
    net::io_context io;
    Totals totals;
    const ProcessSample before = sampleProcess(options.pid);
    const auto started = Clock::now();
    const auto endAt = started + std::chrono::seconds(options.durationSeconds);
    for (int i = 0; i < options.players; ++i) {
        const auto seed = static_cast<unsigned>(options.seed * 100003 + i);
        auto player = std::make_shared<Player>(io, options, totals, seed, endAt);
        // Players arrive spread over the first think time, not all in the same millisecond.
        auto timer = std::make_shared<net::steady_timer>(
            io, std::chrono::milliseconds(options.thinkMaxMs * i / std::max(1, options.players)));
        timer->async_wait([player, timer](beast::error_code) { player->start(); });
    }
    io.run_until(endAt + kReplyTimeout);
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    const ProcessSample after = sampleProcess(options.pid);

    int failed = 0;
    for (const auto& [what, count] : totals.failures) failed += count;
    int refused = 0;
    for (const auto& [code, count] : totals.refused) refused += count;
    const double p99 = percentile(totals.overheadMs, 0.99);
    const bool met = failed == 0 && p99 < options.targetP99Ms;
    json report = {
        {"players", options.players},
        {"seconds", seconds},
        {"replies", totals.overheadMs.size()},
        {"repliesPerSecond", static_cast<double>(totals.overheadMs.size()) / seconds},
        {"movesSent", totals.movesSent},
        {"gamesCreated", totals.gamesCreated},
        {"gamesFinished", totals.gamesFinished},
        {"overheadMs",
         {{"p50", percentile(totals.overheadMs, 0.5)},
          {"p90", percentile(totals.overheadMs, 0.9)},
          {"p99", p99},
          {"max", percentile(totals.overheadMs, 1.0)}}},
        {"replyMs",
         {{"p50", percentile(totals.replyMs, 0.5)}, {"p99", percentile(totals.replyMs, 0.99)}}},
        {"queueWaitMs",
         {{"p50", percentile(totals.queueWaitMs, 0.5)},
          {"p99", percentile(totals.queueWaitMs, 0.99)}}},
        {"refused", totals.refused},
        {"failures", totals.failures},
        {"met", met},
    };
    if (before.cpuSeconds >= 0 && after.cpuSeconds >= 0) {
        report["serverCpuPercent"] = 100.0 * (after.cpuSeconds - before.cpuSeconds) / seconds;
    }
    if (before.rssKb >= 0)
        report["serverRssKb"] = {{"before", before.rssKb}, {"after", after.rssKb}};
    if (options.json) {
        std::cout << report.dump() << "\n";
        return met ? 0 : 1;
    }
    std::cout << std::fixed << std::setprecision(1) << options.players << " players, " << seconds
              << " s: " << totals.overheadMs.size() << " engine replies ("
              << report["repliesPerSecond"].get<double>() << "/s), " << totals.gamesCreated
              << " games created, " << refused << " creations refused, " << failed << " failures\n"
              << "reply - search time ms: p50 " << percentile(totals.overheadMs, 0.5) << " p90 "
              << percentile(totals.overheadMs, 0.9) << " p99 " << p99 << " max "
              << percentile(totals.overheadMs, 1.0) << " (target p99 < " << options.targetP99Ms
              << ": " << (met ? "met" : "missed") << ")\n";
    if (report.contains("serverCpuPercent")) {
        std::cout << "server CPU " << report["serverCpuPercent"].get<double>() << "%, RSS "
                  << before.rssKb << " -> " << after.rssKb << " kB\n";
    }
    for (const auto& [what, count] : totals.failures)
        std::cout << "  failure " << what << ": " << count << "\n";
    for (const auto& [code, count] : totals.refused)
        std::cout << "  refused " << code << ": " << count << "\n";
    return met ? 0 : 1;
}

}  // namespace outpost::load
