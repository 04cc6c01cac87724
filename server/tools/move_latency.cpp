// outpost-move-latency: how long a move's answer takes while level-8 engines think
// (docs/performance.md, "Move answers while the engine thinks"). A benchmark, not a test.
//
// --games players each play a game against the engine at --level (8: a second a move without a
// clock) over HTTP keep-alive: POST /moves without "wait" (timed: from sending to the whole
// answer), then GET the game every --poll ms until the engine has replied, then the next move,
// --moves moves each (a finished game is followed by a new one). With several games the
// engines of the others think while a move is answered, and the game's own engine starts
// thinking as its answer leaves. Prints p50/p90/p99/max of the answers; exits 1 when p99 is over
// --target-p99 ms, or when an answer was not 200 with engineThinking.
//
//   outpost-move-latency --port 8080 --games 4 --moves 20 --level 8 --poll 20 --target-p99 20
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr int kHttpVersion = 11;
// An engine reply that has not come after this long fails the run (the server is stuck).
constexpr auto kReplyTimeout = std::chrono::seconds(30);
// A creation refused with 503/429 is tried again this many times.
constexpr int kCreateRetries = 30;

struct Options {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    int games = 4;
    int moves = 20;
    int level = 8;
    int pollMs = 20;
    double targetP99Ms = 20;
    int seed = 1;
};

struct Results {
    std::mutex mutex;
    std::vector<double> answerMs;
    int failures = 0;
    void add(double ms) {
        std::lock_guard lock(mutex);
        answerMs.push_back(ms);
    }
    void fail(const std::string& why) {
        std::lock_guard lock(mutex);
        ++failures;
        std::cerr << "failure: " << why << "\n";
    }
};

// One keep-alive HTTP connection, used by one player thread.
class Connection {
  public:
    explicit Connection(const Options& options) : options_(options), stream_(io_) { connect(); }
    // Sends a request; a connection the server closed meanwhile (an idle keep-alive) is opened
    // again once. A move sent twice is refused by its version, never played twice.
    http::response<http::string_body> request(http::verb verb, const std::string& target,
                                              const std::string& body = "",
                                              const std::string& token = "") {
        try {
            return send(verb, target, body, token);
        } catch (const boost::system::system_error&) {
            beast::error_code ignored;
            stream_.socket().close(ignored);
            buffer_.clear();
            connect();
            return send(verb, target, body, token);
        }
    }

  private:
    void connect() {
        tcp::resolver resolver(io_);
        stream_.connect(resolver.resolve(options_.host, options_.port));
    }
    http::response<http::string_body> send(http::verb verb, const std::string& target,
                                           const std::string& body, const std::string& token) {
        http::request<http::string_body> request{verb, target, kHttpVersion};
        request.set(http::field::host, "localhost");
        request.set(http::field::content_type, "application/json");
        if (!token.empty()) request.set(http::field::authorization, "Bearer " + token);
        request.body() = body;
        request.prepare_payload();
        http::write(stream_, request);
        http::response<http::string_body> response;
        http::read(stream_, buffer_, response);
        return response;
    }

    const Options& options_;
    net::io_context io_;
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
};

void play(const Options& options, int player, Results& results) {
    Connection connection(options);
    std::mt19937 rng(static_cast<unsigned>(options.seed * 1000 + player));
    json game;
    std::string token;
    auto newGame = [&] {
        const json body = {{"engine", {{"side", "black"}, {"level", options.level}}}};
        auto created = connection.request(http::verb::post, "/api/v1/games", body.dump());
        // Refused while the engine's replies fall behind (at_capacity) or over a quota: try
        // again after Retry-After, as a browser would.
        for (int retry = 0;
             retry < kCreateRetries && (created.result_int() == 503 || created.result_int() == 429);
             ++retry) {
            int seconds = 1;
            if (auto it = created.find(http::field::retry_after); it != created.end())
                seconds = std::max(1, std::atoi(std::string(it->value()).c_str()));
            std::this_thread::sleep_for(std::chrono::seconds(seconds));
            created = connection.request(http::verb::post, "/api/v1/games", body.dump());
        }
        if (created.result_int() != 201) {
            results.fail("create: " + std::to_string(created.result_int()));
            return false;
        }
        game = json::parse(created.body());
        token = game.value("playerToken", "");
        return true;
    };
    if (!newGame()) return;
    for (int move = 0; move < options.moves; ++move) {
        if (game.value("status", "") != "ongoing" && !newGame()) return;
        const json& legal = game["legalMoves"];
        const auto pick = std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng);
        const json body = {{"move", legal[pick]}, {"version", game["version"]}};
        const std::string target = "/api/v1/games/" + game["id"].get<std::string>();
        const auto sent = Clock::now();
        auto answer = connection.request(http::verb::post, target + "/moves", body.dump(), token);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - sent).count();
        results.add(ms);
        if (answer.result_int() != 200) {
            results.fail("move: " + std::to_string(answer.result_int()) + " " + answer.body());
            return;
        }
        game = json::parse(answer.body());
        if (game.value("status", "") != "ongoing") continue;  // the move ended the game
        if (!game.value("engineThinking", false)) {
            results.fail("move answered without engineThinking");
            return;
        }
        // Wait for the engine's reply (a browser would read it from the stream).
        const auto deadline = Clock::now() + kReplyTimeout;
        while (game.value("engineThinking", false)) {
            if (Clock::now() > deadline) {
                results.fail("no engine reply within 30 s");
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(options.pollMs));
            game = json::parse(connection.request(http::verb::get, target).body());
        }
    }
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
    return values[index];
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--host")
            options.host = value;
        else if (flag == "--port")
            options.port = value;
        else if (flag == "--games")
            options.games = std::stoi(value);
        else if (flag == "--moves")
            options.moves = std::stoi(value);
        else if (flag == "--level")
            options.level = std::stoi(value);
        else if (flag == "--poll")
            options.pollMs = std::stoi(value);
        else if (flag == "--target-p99")
            options.targetP99Ms = std::stod(value);
        else if (flag == "--seed")
            options.seed = std::stoi(value);
        else {
            std::cerr << "unknown flag " << flag << "\n";
            return 2;
        }
    }
    if (options.games < 1 || options.moves < 1 || options.pollMs < 1) {
        std::cerr << "--games, --moves and --poll must be at least 1\n";
        return 2;
    }
    Results results;
    const auto started = Clock::now();
    std::vector<std::thread> players;
    for (int i = 0; i < options.games; ++i) {
        players.emplace_back([&, i] {
            try {
                play(options, i, results);
            } catch (const std::exception& error) {
                results.fail(std::string("player: ") + error.what());
            }
        });
    }
    for (auto& player : players) player.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    const double p99 = percentile(results.answerMs, 0.99);
    std::printf(
        "move answers: %zu in %.1f s, %d games at level %d (%d failures)\n"
        "answer ms: p50 %.2f p90 %.2f p99 %.2f max %.2f (target p99 <= %.0f)\n",
        results.answerMs.size(), seconds, options.games, options.level, results.failures,
        percentile(results.answerMs, 0.5), percentile(results.answerMs, 0.9), p99,
        percentile(results.answerMs, 1.0), options.targetP99Ms);
    return results.failures == 0 && p99 <= options.targetP99Ms ? 0 : 1;
}
