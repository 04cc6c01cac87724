// The real server on an ephemeral port, over real HTTP and WebSocket connections.
#include <catch2/catch.hpp>
#include <sstream>
#include <thread>

#include "http/body_limit.h"
#include "http/host_field.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using bhttp::verb;

namespace {
std::map<std::string, std::string> bearer(const std::string& token) {
    return {{"Authorization", "Bearer " + token}};
}
std::pair<std::string, std::string> createGame(
    HttpClient& client, const nlohmann::json& body = nlohmann::json::object()) {
    auto created = client.request(verb::post, "/api/v1/games", body.dump());
    REQUIRE(created.status == 201);
    auto json = created.json();
    return {json["id"], json["playerToken"]};
}
}  // namespace

TEST_CASE("live server: every route over HTTP, keep-alive", "[server][live]") {
    LiveServer live;
    HttpClient client(live.port());
    REQUIRE(client.request(verb::get, "/healthz").json()["status"] == "ok");
    REQUIRE(client.request(verb::get, "/readyz").status == 200);
    REQUIRE(client.request(verb::get, "/api/v1/openapi.yaml").status == 200);
    REQUIRE(client.request(verb::get, "/api/v1/nope").status == 404);
    REQUIRE(client.request(verb::post, "/healthz").status == 405);

    const auto created = client.request(verb::post, "/api/v1/games", "{}").json();
    const std::string id = created["id"], token = created["playerToken"];
    const std::string blackToken = created["inviteToken"];  // between people: a token per side
    REQUIRE(client.request(verb::get, "/api/v1/games/" + id).json()["id"] == id);
    REQUIRE(client
                .request(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e2e4"})",
                         bearer(token))
                .status == 200);
    REQUIRE(client
                .request(verb::post, "/api/v1/games/" + id + "/engine-move",
                         R"({"limits":{"depth":2}})", bearer(blackToken))
                .json()["moves"]
                .size() == 2);
    // Between people a takeback is asked for and accepted (docs/play.md).
    REQUIRE(
        client.request(verb::post, "/api/v1/games/" + id + "/takeback/yes", "", bearer(blackToken))
            .json()["takebackOffer"] == "black");
    REQUIRE(client.request(verb::post, "/api/v1/games/" + id + "/takeback/yes", "", bearer(token))
                .json()["moves"]
                .size() == 1);
    REQUIRE(client.request(verb::get, "/api/v1/games/" + id + "/pgn").body.find("1. e4") !=
            std::string::npos);
    REQUIRE(client.request(verb::post, "/api/v1/games/" + id + "/resign", "", bearer(token))
                .json()["status"] == "resigned");

    auto analysis = client.request(verb::post, "/api/v1/analysis", R"({"limits":{"depth":3}})");
    REQUIRE(analysis.status == 200);
    REQUIRE(analysis.json()["depth"] == 3);

    auto metrics = client.request(verb::get, "/metrics");
    REQUIRE(metrics.body.find("route=\"/api/v1/analysis\",method=\"POST\",status=\"200\"") !=
            std::string::npos);
    REQUIRE(metrics.body.find("outpost_games 1") != std::string::npos);
}

TEST_CASE("live server: pipelined requests are answered in order", "[server][live]") {
    LiveServer live;
    HttpClient client(live.port());
    client.sendRaw(
        "POST /api/v1/analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 22\r\n\r\n{\"limits\":{\"depth\":2}}"
        "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /api/v1/missing HTTP/1.1\r\nHost: x\r\n\r\n");
    auto first = client.read();
    REQUIRE(first.status == 200);
    REQUIRE(first.json()["depth"] == 2);
    REQUIRE(client.read().json()["status"] == "ok");
    REQUIRE(client.read().status == 404);
}

TEST_CASE("live server: oversize bodies 413, malformed requests 400, idle clients timed out",
          "[server][live]") {
    ServerConfig config = testConfig();
    config.bodyLimitBytes = 1024;
    config.idleTimeoutMs = 300;
    LiveServer live(config);
    {
        HttpClient client(live.port());
        auto big = client.request(verb::post, "/api/v1/analysis", std::string(4096, ' '));
        REQUIRE(big.status == 413);
        REQUIRE(big.json()["error"]["code"] == "too_large");
    }
    {
        HttpClient client(live.port());
        client.sendRaw("THIS IS NOT HTTP\r\n\r\n");
        auto bad = client.read();
        REQUIRE(bad.status == 400);
    }
    {
        HttpClient client(live.port());
        client.sendRaw("GET /healthz HTTP/1.1\r\nHost: x\r\n");  // never finishes the header
        REQUIRE(client.waitClosed(std::chrono::seconds(5)));
    }
    {
        HttpClient client(live.port());
        REQUIRE(client.request(verb::get, "/healthz").status == 200);
        REQUIRE(client.waitClosed(std::chrono::seconds(5)));  // idle keep-alive connection
    }
    HttpClient after(live.port());
    REQUIRE(after.request(verb::get, "/healthz").status == 200);
}

TEST_CASE("live server: NDJSON analysis streams, and closing the connection stops the search",
          "[server][live]") {
    LiveServer live;
    {
        HttpClient client(live.port());
        client.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":5}})",
                    {{"Accept", "application/x-ndjson"}});
        client.readStreamHeader();
        REQUIRE(client.streamStatus() == 200);
        REQUIRE(client.streamContentType() == "application/x-ndjson");
        std::vector<nlohmann::json> lines;
        while (auto line = client.readLine()) lines.push_back(nlohmann::json::parse(*line));
        // Five iterations and the bestmove; a busy writer may coalesce queued info lines
        // (the bounded write queue replaces a queued info by a newer one), so count at most six.
        REQUIRE(lines.size() >= 2);
        REQUIRE(lines.size() <= 6);
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            REQUIRE(lines[i]["type"] == "info");
            if (i > 0) REQUIRE(lines[i]["depth"] > lines[i - 1]["depth"]);
        }
        REQUIRE(lines.back()["type"] == "bestmove");
        REQUIRE(lines.back()["depth"] == 5);
        // The connection stays usable after the stream.
        REQUIRE(client.request(verb::get, "/healthz").status == 200);
    }
    live.control->closeGate();
    {
        HttpClient client(live.port());
        client.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":60}})",
                    {{"Accept", "application/x-ndjson"}});
        REQUIRE(live.control->waitStarted(2));
        client.close();
    }
    REQUIRE(live.server->context().pool->waitIdle(kWait));
    REQUIRE(live.control->finished.load() == 2);
}

TEST_CASE("live server: an HTTP/1.0 client gets its NDJSON stream unchunked, ended by the close",
          "[server][live]") {
    // RFC 9112 6.1: no Transfer-Encoding in an answer to HTTP/1.0, which has no chunked
    // encoding; the client would read the chunk sizes as lines of the stream.
    LiveServer live;
    const std::string body = R"({"limits":{"depth":3}})";
    HttpClient client(live.port());
    client.sendRaw(
        "POST /api/v1/analysis HTTP/1.0\r\nAccept: application/x-ndjson\r\n"
        "Content-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body);
    const std::string bytes = client.readUntilClosed();
    const auto headerEnd = bytes.find("\r\n\r\n");
    REQUIRE(headerEnd != std::string::npos);
    const std::string header = bytes.substr(0, headerEnd);
    REQUIRE(header.starts_with("HTTP/1.0 200"));
    CHECK(header.find("Transfer-Encoding") == std::string::npos);
    CHECK(header.find("application/x-ndjson") != std::string::npos);
    // Every line of the body is a JSON object; the last is the bestmove.
    std::vector<nlohmann::json> lines;
    std::size_t start = headerEnd + 4;
    while (start < bytes.size()) {
        const auto end = bytes.find('\n', start);
        REQUIRE(end != std::string::npos);  // the stream ends with a whole line
        const std::string line = bytes.substr(start, end - start);
        start = end + 1;
        if (line.empty()) continue;  // a keep-alive line
        const auto json = nlohmann::json::parse(line, nullptr, false);
        REQUIRE(json.is_object());
        lines.push_back(json);
    }
    REQUIRE(lines.size() >= 2);
    CHECK(lines.front()["type"] == "info");
    CHECK(lines.back()["type"] == "bestmove");
    CHECK(lines.back()["depth"] == 3);
}

TEST_CASE("live server: a request with Expect: 100-continue gets 100 Continue before its body",
          "[server][live]") {
    // Such a client (libcurl for larger bodies) sends the body only after the interim answer,
    // or after its own timeout (curl: one second) when none comes.
    LiveServer live;
    const std::string body = R"({"limits":{"depth":2}})";
    HttpClient client(live.port());
    client.sendRaw(
        "POST /api/v1/analysis HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
        "Content-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n");
    const auto interim = client.read(kClientTimeout, true);
    REQUIRE(interim.status == 100);
    client.sendRaw(body);
    const auto answer = client.read();
    REQUIRE(answer.status == 200);
    CHECK(answer.json()["depth"] == 2);
    // The connection goes on: a body too large is refused at once, without waiting for it.
    client.sendRaw(
        "POST /api/v1/analysis HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
        "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n");
    CHECK(client.read().status == 413);
}

TEST_CASE("live server: a pasted PGN may be as large as the contract says, other bodies not",
          "[server][live]") {
    // POST /api/v1/review takes a PGN of up to 256 KiB (docs/review.md); the 64 KiB body limit
    // refused one of 70 KB with 413 before it was read.
    ServerConfig config = testConfig();
    config.bodyLimitBytes = 64 * 1024;
    LiveServer live(config);
    HttpClient client(live.port());
    const std::string comment(70 * 1024, 'x');
    const nlohmann::json pasted = {{"pgn", "1. Nf3 {" + comment + "} Nf6 *"},
                                   {"limits", {{"depth", 1}}}};
    const auto review = client.request(verb::post, "/api/v1/review", pasted.dump());
    REQUIRE(review.status / 100 == 2);
    CHECK(review.json()["moves"] == nlohmann::json::array({"g1f3", "g8f6"}));
    // The same size elsewhere is over the limit, and so is a review body over its own.
    const nlohmann::json analysis = {{"fen", comment}};
    const auto refused = client.request(verb::post, "/api/v1/analysis", analysis.dump());
    CHECK(refused.status == 413);
    // The server answers a body over the limit from its Content-Length and closes, so the
    // client sends only the headers and the body's start: writing all of it raced that close
    // (a broken pipe, once the body outgrew the socket's buffers).
    HttpClient other(live.port());
    const std::string huge =
        nlohmann::json{{"pgn", std::string(pastedGameBodyLimit(), 'x')}}.dump();
    other.sendRaw(
        "POST /api/v1/review HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
        std::to_string(huge.size()) + "\r\n\r\n" + huge.substr(0, 1024));
    const auto tooLarge = other.read();
    CHECK(tooLarge.status == 413);
    CHECK(tooLarge.json()["error"]["message"].get<std::string>().find(
              std::to_string(pastedGameBodyLimit())) != std::string::npos);
}

TEST_CASE("live server: a target in absolute-form is served like its path", "[server][live]") {
    // RFC 9112 3.2.2: a server must accept "GET http://host/path"; it was 400 "request target
    // must be a path".
    LiveServer live;
    HttpClient client(live.port());
    client.sendRaw("GET http://localhost/healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    const auto health = client.read();
    REQUIRE(health.status == 200);
    CHECK(health.json()["status"] == "ok");
    client.sendRaw("GET HTTPS://localhost:8080/api/v1/games?ids=x HTTP/1.1\r\nHost: a\r\n\r\n");
    const auto list = client.read();
    REQUIRE(list.status == 200);
    CHECK(list.json()["games"].empty());
    client.sendRaw("GET ftp://localhost/healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    CHECK(client.read().status == 400);
}

TEST_CASE("live server: a body framed by anything but Content-Length or chunked is refused",
          "[server][live]") {
    // RFC 9112 6.3: a request whose Transfer-Encoding does not end with chunked must be answered
    // 400 and the connection closed. The parser took its body as empty and read the body as the
    // next request: here a smuggled GET was served, and the POST got no answer at all.
    LiveServer live;
    const std::string smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    for (const std::string coding : {"gzip", "identity", "chunked, gzip", "gzip, chunked"}) {
        INFO(coding);
        HttpClient client(live.port());
        client.sendRaw("POST /api/v1/analysis HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + coding +
                       "\r\n\r\n" + smuggled);
        const auto refused = client.read();
        CHECK(refused.status == 400);
        CHECK(refused.json()["error"]["code"] == "bad_request");
        const std::string message = refused.json()["error"]["message"];
        CHECK((message.find("Transfer-Encoding") != std::string::npos ||
               message.find("chunked") != std::string::npos));
        CHECK_THROWS(client.read(std::chrono::milliseconds(500)));  // closed: nothing more
    }
    HttpClient old(live.port());
    old.sendRaw("POST /api/v1/analysis HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    CHECK(old.read().status == 400);
    // The chunked coding alone is read, in any letter case.
    for (const std::string coding : {"chunked", "Chunked"}) {
        INFO(coding);
        HttpClient client(live.port());
        const std::string body = R"({"limits":{"depth":1}})";
        std::ostringstream chunked;
        chunked << std::hex << body.size() << "\r\n" << body << "\r\n0\r\n\r\n";
        client.sendRaw("POST /api/v1/analysis HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + coding +
                       "\r\n\r\n" + chunked.str());
        const auto answer = client.read();
        CHECK(answer.status == 200);
        CHECK(answer.json()["depth"] == 1);
    }
}

TEST_CASE("host field: a host with an optional port, or empty", "[server][live]") {
    for (const char* good : {"", "localhost", "localhost:8080", "127.0.0.1:1", "[::1]", "[::1]:80",
                             "play.example.com", "xn--bcher-kva.example", "a%41b", "host:"}) {
        INFO(good);
        CHECK(validHostValue(good));
    }
    for (const char* bad : {"a b", "a/b", "user@host", "host:8o", "[::1", "[]", "[::1]x",
                            "host:80:80", "a%4", "a%zz", "h\"t"}) {
        INFO(bad);
        CHECK_FALSE(validHostValue(bad));
    }
}

TEST_CASE("live server: an HTTP/1.1 request without Host, or with two, is answered 400",
          "[server][live]") {
    // RFC 9112 3.2: a server must answer 400 to an HTTP/1.1 request without Host, and to any
    // with more than one Host or an invalid one; each was served (200).
    LiveServer live;
    for (const std::string fields :
         {"", "Host: a\r\nHost: b\r\n", "Host: a b\r\n", "Host: x/y\r\n", "Host: me@x\r\n"}) {
        INFO(fields);
        HttpClient client(live.port());
        client.sendRaw("GET /healthz HTTP/1.1\r\n" + fields + "\r\n");
        const auto refused = client.read();
        CHECK(refused.status == 400);
        CHECK(refused.json()["error"]["code"] == "bad_request");
        CHECK(refused.json()["error"]["message"].get<std::string>().find("Host") !=
              std::string::npos);
    }
    // Absolute-form names the host, but HTTP/1.1 still needs the field.
    HttpClient absolute(live.port());
    absolute.sendRaw("GET http://localhost/healthz HTTP/1.1\r\n\r\n");
    CHECK(absolute.read().status == 400);
    // HTTP/1.0 has no Host requirement; an empty Host (RFC 9110 7.2) is a Host.
    for (const std::string head :
         {"GET /healthz HTTP/1.0\r\n", "GET /healthz HTTP/1.1\r\nHost:\r\n",
          "GET /healthz HTTP/1.1\r\nHost: [::1]:8080\r\n"}) {
        INFO(head);
        HttpClient client(live.port());
        client.sendRaw(head + "\r\n");
        CHECK(client.read().status == 200);
    }
}

TEST_CASE("live server: overload answers 503, per-client limit 429, both with Retry-After",
          "[server][live]") {
    ServerConfig config = testConfig();
    config.searchThreads = 1;
    config.queueSize = 1;
    config.perClientSearches = 2;
    config.retryAfterSeconds = 3;
    config.trustedProxies = {"127.0.0.1"};
    LiveServer live(config);
    live.control->closeGate();
    auto forwarded = [](const std::string& address) {
        return std::map<std::string, std::string>{{"X-Forwarded-For", address}};
    };
    HttpClient a1(live.port()), a2(live.port()), a3(live.port()), b1(live.port());
    a1.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":1}})", forwarded("10.1.1.1"));
    REQUIRE(live.control->waitStarted(1));
    a2.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":1}})", forwarded("10.1.1.1"));
    // Wait for the second to be queued.
    for (int i = 0; i < 2000 && live.server->context().pool->queued() < 1; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    auto limited = a3.request(verb::post, "/api/v1/analysis", R"({"limits":{"depth":1}})",
                              forwarded("10.1.1.1"));
    REQUIRE(limited.status == 429);
    REQUIRE(limited.json()["error"]["code"] == "rate_limited");
    REQUIRE(limited.header("Retry-After") == "3");
    auto overloaded = b1.request(verb::post, "/api/v1/analysis", R"({"limits":{"depth":1}})",
                                 forwarded("10.2.2.2"));
    REQUIRE(overloaded.status == 503);
    REQUIRE(overloaded.json()["error"]["code"] == "overloaded");
    REQUIRE(overloaded.header("Retry-After") == "3");
    live.control->openGate();
    REQUIRE(a1.read().status == 200);
    REQUIRE(a2.read().status == 200);
    auto metrics = b1.request(verb::get, "/metrics").body;
    REQUIRE(metrics.find("outpost_searches_rejected_total{reason=\"overloaded\"} 1") !=
            std::string::npos);
    REQUIRE(metrics.find("outpost_searches_rejected_total{reason=\"rate_limited\"} 1") !=
            std::string::npos);
}

TEST_CASE("live server: racing moves on one game over HTTP, exactly one 409",
          "[server][live][concurrency]") {
    LiveServer live;
    HttpClient setup(live.port());
    for (int round = 0; round < 10; ++round) {
        auto [id, token] = createGame(setup);
        HttpClient a(live.port()), b(live.port());
        a.send(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e2e4","version":1})",
               bearer(token));
        b.send(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"g1f3","version":1})",
               bearer(token));
        const unsigned sa = a.read().status, sb = b.read().status;
        REQUIRE(((sa == 200 && sb == 409) || (sa == 409 && sb == 200)));
        auto game = setup.request(verb::get, "/api/v1/games/" + id).json();
        REQUIRE(game["moves"].size() == 1);
        REQUIRE(game["version"] == 2);
    }
}

TEST_CASE("live server: WebSocket analyse, stop, ping, bad messages", "[server][live][websocket]") {
    LiveServer live;
    WsClient ws(live.port());
    ws.send({{"type", "ping"}, {"id", 7}});
    auto pong = ws.read();
    REQUIRE(pong["type"] == "pong");
    REQUIRE(pong["id"] == 7);

    ws.sendText("{nope");
    REQUIRE(ws.read()["code"] == "bad_json");
    ws.sendText("[1]");
    REQUIRE(ws.read()["code"] == "bad_request");
    // A key twice in one object: which one the server would read is for no one to guess.
    ws.sendText(R"({"type":"ping","type":"analyse","id":1})");
    const auto twice = ws.read();
    REQUIRE(twice["code"] == "bad_json");
    CHECK(twice["message"].get<std::string>().find("'type' twice") != std::string::npos);
    ws.send({{"type", "dance"}, {"id", "x"}});
    auto unknown = ws.read();
    REQUIRE(unknown["type"] == "error");
    REQUIRE(unknown["id"] == "x");
    ws.sendBinary(std::string("\x01\x02", 2));
    REQUIRE(ws.read()["type"] == "error");
    ws.send({{"type", "analyse"}, {"id", "bad"}, {"fen", "garbage"}});
    auto fen = ws.read();
    REQUIRE(fen["code"] == "invalid_fen");
    REQUIRE(fen["id"] == "bad");
    // An empty FEN is refused too (it was the start position, analysed).
    ws.send({{"type", "analyse"}, {"id", "empty"}, {"fen", ""}, {"limits", {{"depth", 1}}}});
    auto empty = ws.read();
    REQUIRE(empty["code"] == "invalid_fen");
    REQUIRE(empty["id"] == "empty");
    CHECK(empty["message"].get<std::string>().find("empty") != std::string::npos);
    ws.send({{"type", "stop"}, {"id", "none"}});
    REQUIRE(ws.read()["code"] == "not_found");

    ws.send({{"type", "analyse"}, {"id", "a1"}, {"moves", {"e2e4"}}, {"limits", {{"depth", 3}}}});
    std::vector<nlohmann::json> infos;
    auto best = ws.readType("bestmove", &infos);
    REQUIRE(best["id"] == "a1");
    REQUIRE(best["depth"] == 3);
    REQUIRE(infos.size() == 3);
    REQUIRE(infos[0]["type"] == "info");
    REQUIRE(infos[0]["id"] == "a1");

    live.control->closeGate();
    ws.send({{"type", "analyse"}, {"id", "long"}, {"limits", {{"depth", 60}}}});
    REQUIRE(live.control->waitStarted(2));
    ws.send({{"type", "stop"}, {"id", "long"}});
    live.control->openGate();
    auto stopped = ws.readType("bestmove");
    REQUIRE(stopped["id"] == "long");
    REQUIRE(stopped["stopped"] == true);
    REQUIRE(stopped["bestmove"].is_string());
    ws.close();
}

TEST_CASE("live server: WebSocket disconnect stops its searches", "[server][live][websocket]") {
    LiveServer live;
    live.control->closeGate();
    {
        WsClient ws(live.port());
        ws.send({{"type", "analyse"}, {"id", 1}, {"limits", {{"depth", 60}}}});
        ws.send({{"type", "analyse"}, {"id", 2}, {"limits", {{"depth", 60}}}});
        REQUIRE(live.control->waitStarted(2));
        ws.dropConnection();
    }
    REQUIRE(live.server->context().pool->waitIdle(kWait));
    REQUIRE(live.control->finished.load() == 2);
}

TEST_CASE("live server: subscribe to a game over WebSocket, move over WebSocket",
          "[server][live][websocket]") {
    LiveServer live;
    HttpClient http(live.port());
    auto [id, token] =
        createGame(http, {{"engine", {{"side", "black"}, {"limits", {{"depth", 2}}}}}});
    WsClient watcher(live.port());
    watcher.send({{"type", "subscribe"}, {"gameId", id}});
    auto snapshot = watcher.read();
    REQUIRE(snapshot["type"] == "gameFull");
    REQUIRE(snapshot["game"]["version"] == 1);

    WsClient player(live.port());
    player.send({{"type", "move"}, {"id", "m1"}, {"gameId", id}, {"move", "e4"}});
    REQUIRE(player.read()["code"] == "unauthorized");
    player.send({{"type", "move"}, {"id", "m1"}, {"gameId", id}, {"token", token}, {"move", "e4"}});
    // Answered once stored; the engine's reply comes to the subscribers.
    auto moved = player.readType("game");
    REQUIRE(moved["id"] == "m1");
    REQUIRE(moved["game"]["moves"].size() == 1);
    REQUIRE(moved["game"]["engineThinking"] == true);
    REQUIRE_FALSE(moved.contains("engineMove"));

    // The watcher sees the player's move, the engine thinking, and the engine's move.
    std::vector<nlohmann::json> seen;
    nlohmann::json game;
    do {
        game = watcher.readType("gameState", &seen);
    } while (game["version"] != 3);
    REQUIRE(game["moveCount"] == 2);
    REQUIRE(game["lastMove"]["uci"].is_string());
    REQUIRE(game["engineThinking"] == false);
    int infos = 0;
    for (const auto& message : seen) infos += message["type"] == "info" && message["gameId"] == id;
    REQUIRE(infos >= 1);

    // "wait": the answer comes after the engine's reply, with it.
    player.send({{"type", "move"},
                 {"id", "m2"},
                 {"gameId", id},
                 {"token", token},
                 {"move", "d4"},
                 {"wait", true}});
    auto waited = player.readType("game");
    REQUIRE(waited["id"] == "m2");
    REQUIRE(waited["game"]["moves"].size() == 4);
    REQUIRE(waited["engineMove"]["depth"] == 2);

    watcher.send({{"type", "unsubscribe"}, {"gameId", id}});
    REQUIRE(watcher.readType("unsubscribed")["gameId"] == id);  // after the states of "m2"
    watcher.send({{"type", "subscribe"}, {"gameId", "missing"}});
    REQUIRE(watcher.read()["code"] == "not_found");
}

TEST_CASE("live server: NDJSON game stream follows moves", "[server][live]") {
    ServerConfig config = testConfig();
    config.streamKeepAliveMs = 50;
    LiveServer live(config);
    HttpClient http(live.port());
    const auto created = http.request(verb::post, "/api/v1/games", "{}").json();
    const std::string id = created["id"], token = created["playerToken"];
    const std::string blackToken = created["inviteToken"];
    HttpClient stream(live.port());
    stream.send(verb::get, "/api/v1/games/" + id + "/stream");
    stream.readStreamHeader();
    REQUIRE(stream.streamStatus() == 200);
    REQUIRE(nlohmann::json::parse(*stream.readLine())["game"]["version"] == 1);
    REQUIRE(http.request(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"d4"})",
                         bearer(token))
                .status == 200);
    REQUIRE(nlohmann::json::parse(*stream.readLine())["version"] == 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    REQUIRE(http.request(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"d5"})",
                         bearer(blackToken))
                .status == 200);
    REQUIRE(nlohmann::json::parse(*stream.readLine())["version"] == 3);
    REQUIRE(stream.keepAliveLines() >= 1);
}

TEST_CASE("live server: game subscriptions end with their stream or connection",
          "[server][live][websocket]") {
    LiveServer live;
    HttpClient http(live.port());
    auto [id, token] = createGame(http);
    const std::string streamTarget = "/api/v1/games/" + id + "/stream";

    // A stream client that goes away takes its subscription with it.
    {
        HttpClient stream(live.port());
        stream.send(verb::get, streamTarget);
        stream.readStreamHeader();
        REQUIRE(stream.readLine());
        REQUIRE(live.bus->active() == 1);
        stream.close();
        REQUIRE(live.bus->waitNoSubscriptions());
    }
    // So does a WebSocket client.
    {
        WsClient ws(live.port());
        ws.send({{"type", "subscribe"}, {"gameId", id}});
        REQUIRE(ws.read()["type"] == "gameFull");
        REQUIRE(live.bus->active() == 1);
        ws.dropConnection();
        REQUIRE(live.bus->waitNoSubscriptions());
    }
    // A stream the server ends itself (at shutdown) lets go too: nothing of the session may
    // outlive the server's I/O context (under ASan this was a use-after-free in a strand).
    HttpClient stream(live.port());
    stream.send(verb::get, streamTarget);
    stream.readStreamHeader();
    REQUIRE(stream.readLine());
    REQUIRE(live.bus->active() == 1);
    live.server->shutdown();
    const auto last = stream.readLine();  // why it ends: the replica shuts down
    REQUIRE(last);
    REQUIRE(nlohmann::json::parse(*last)["code"] == "shutting_down");
    REQUIRE_FALSE(stream.readLine());
    live.server->wait();
    REQUIRE(live.bus->active() == 0);
}

TEST_CASE("live server: a flag falls with nobody asking, and subscribers hear it at once",
          "[server][live][websocket][clock]") {
    constexpr std::int64_t kClockMs = 300;
    // How late the timeout event may arrive after the flag fell (a loaded CI machine, sanitizers).
    constexpr auto kSlack = std::chrono::seconds(3);
    LiveServer live;
    HttpClient http(live.port());
    auto [id, token] = createGame(http, {{"clock", {{"initial", kClockMs}, {"increment", 0}}}});
    WsClient watcher(live.port());
    watcher.send({{"type", "subscribe"}, {"gameId", id}});
    REQUIRE(watcher.read()["game"]["version"] == 1);

    WsClient player(live.port());
    const auto beforeMove = std::chrono::steady_clock::now();
    player.send({{"type", "move"}, {"gameId", id}, {"token", token}, {"move", "e4"}});
    REQUIRE(player.readType("game")["game"]["version"] == 2);
    REQUIRE(watcher.read()["version"] == 2);

    // Black does nothing, and nobody asks: the server ends the game when Black's flag falls.
    const auto ended = watcher.read(std::chrono::milliseconds(kClockMs) + kSlack);
    const auto elapsed = std::chrono::steady_clock::now() - beforeMove;
    REQUIRE(ended["type"] == "gameState");
    const auto& game = ended;
    REQUIRE(game["version"] == 3);
    REQUIRE(game["status"] == "timeout");
    REQUIRE(game["result"] == "1-0");
    REQUIRE(game["winner"] == "white");
    REQUIRE(game["clock"]["black"] == 0);
    REQUIRE(game["clock"]["running"] == false);
    // Not before the flag fell. Clocks are kept in whole epoch milliseconds (the turn's start is
    // truncated when stamped), so the flag may fall up to one millisecond early in real time.
    constexpr auto kClockResolution = std::chrono::milliseconds(1);
    REQUIRE(elapsed >= std::chrono::milliseconds(kClockMs) - kClockResolution);
    // Stored, not only announced: a plain read agrees, and the loser's move is refused.
    REQUIRE(http.request(verb::get, "/api/v1/games/" + id).json()["status"] == "timeout");
    REQUIRE(http.request(verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e5"})",
                         bearer(token))
                .status == 409);
}

TEST_CASE("live server: graceful shutdown drains searches, closes WebSockets with 1001",
          "[server][live][shutdown]") {
    ServerConfig config = testConfig();
    config.drainGraceMs = 100;
    LiveServer live(config);
    live.control->closeGate();
    HttpClient http(live.port());
    // A game followed over NDJSON (no search of its own).
    const std::string gameId = http.request(verb::post, "/api/v1/games", "{}").json()["id"];
    HttpClient stream(live.port());
    stream.send(verb::get, "/api/v1/games/" + gameId + "/stream");
    stream.readStreamHeader();
    REQUIRE(nlohmann::json::parse(*stream.readLine())["type"] == "gameFull");
    http.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":60}})");
    WsClient ws(live.port());
    ws.send({{"type", "analyse"}, {"id", "w"}, {"limits", {{"depth", 60}}}});
    REQUIRE(live.control->waitStarted(2));

    live.server->shutdown();
    // The game's stream says why it ends (the game did not), then ends.
    const auto last = stream.readLine();
    REQUIRE(last);
    const auto goingAway = nlohmann::json::parse(*last);
    CHECK(goingAway["type"] == "error");
    CHECK(goingAway["code"] == "shutting_down");
    CHECK(goingAway["retryAfter"].is_number_integer());
    CHECK_FALSE(stream.readLine());
    // Running searches are stopped after the grace period, and their results still arrive.
    auto result = http.read();
    REQUIRE(result.status == 200);
    REQUIRE(result.json()["stopped"] == true);
    REQUIRE(result.header("Connection") == "close");
    auto best = ws.readType("bestmove");
    REQUIRE(best["stopped"] == true);
    REQUIRE_THROWS(ws.read());
    REQUIRE(ws.closeCode() == 1001);
    live.server->wait();
}

TEST_CASE(
    "live server: a client that half-closes after its requests gets the answers, then the "
    "close",
    "[server][live]") {
    // `printf 'GET /healthz ...' | nc -N`, or shutdown(SHUT_WR) after the request: the end of
    // stream was taken for a client gone, and the connection closed before (or while) the
    // answer was written, so a POST got nothing at all.
    LiveServer live;
    const std::string game =
        "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 2\r\n\r\n{}";
    const std::string analysis =
        "POST /api/v1/analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 22\r\n\r\n{\"limits\":{\"depth\":2}}";
    {
        HttpClient client(live.port());
        client.sendRaw("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        client.shutdownSend();
        CHECK(client.read().json()["status"] == "ok");
        CHECK(client.waitClosed(std::chrono::seconds(5)));
    }
    {
        HttpClient client(live.port());
        client.sendRaw(game);
        client.shutdownSend();
        const auto created = client.read();
        CHECK(created.status == 201);
        CHECK(created.json()["status"] == "ongoing");
        CHECK(client.waitClosed(std::chrono::seconds(5)));
    }
    {
        HttpClient client(live.port());
        client.sendRaw(analysis);
        client.shutdownSend();
        const auto answer = client.readFinal();  // past the probe's `100 Continue`, if any
        CHECK(answer.status == 200);
        CHECK(answer.json()["depth"] == 2);
        CHECK(client.waitClosed(std::chrono::seconds(5)));
    }
    {
        // Pipelined, then the half-close: every request is answered, in order.
        HttpClient client(live.port());
        client.sendRaw(analysis + game + "GET /api/v1/missing HTTP/1.1\r\nHost: x\r\n\r\n");
        client.shutdownSend();
        CHECK(client.readFinal().json()["depth"] == 2);
        CHECK(client.read().status == 201);
        CHECK(client.read().status == 404);
        CHECK(client.waitClosed(std::chrono::seconds(5)));
    }
    {
        // A stream goes on to its end.
        HttpClient client(live.port());
        client.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":3}})",
                    {{"Accept", "application/x-ndjson"}});
        client.shutdownSend();
        client.readStreamHeader();
        REQUIRE(client.streamStatus() == 200);
        std::optional<nlohmann::json> last;
        while (auto line = client.readLine()) last = nlohmann::json::parse(*line);
        REQUIRE(last);
        CHECK((*last)["type"] == "bestmove");
        CHECK((*last)["depth"] == 3);
        CHECK(client.waitClosed(std::chrono::seconds(5)));
    }
    // A client that closed altogether mid-stream still stops its search.
    live.control->closeGate();
    const int before = live.control->started.load();
    {
        HttpClient client(live.port());
        client.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":60}})",
                    {{"Accept", "application/x-ndjson"}});
        REQUIRE(live.control->waitStarted(before + 1));
        client.readStreamHeader();  // nothing unread at the close: a FIN, not a reset
        client.close();
    }
    REQUIRE(live.server->context().pool->waitIdle(std::chrono::seconds(3)));
    CHECK(live.control->finished.load() == live.control->started.load());
    // So does one that closed altogether during a search answered in one piece: its end of
    // stream looks like a half-close, and the `100 Continue` written as a probe brings its
    // reset.
    const int beforePlain = live.control->started.load();
    {
        HttpClient client(live.port());
        client.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":60}})");
        REQUIRE(live.control->waitStarted(beforePlain + 1));
        client.close();
    }
    REQUIRE(live.server->context().pool->waitIdle(std::chrono::seconds(3)));
    CHECK(live.control->finished.load() == live.control->started.load());
    // A half-closed client of such a search reads past the probe to its answer.
    const int beforeHalf = live.control->started.load();
    {
        HttpClient client(live.port());
        client.send(verb::post, "/api/v1/analysis", R"({"limits":{"depth":60}})");
        REQUIRE(live.control->waitStarted(beforeHalf + 1));
        client.shutdownSend();
        const auto interim = client.read();
        CHECK(interim.status == 100);
        live.control->openGate();
        const auto answer = client.readFinal();
        CHECK(answer.status == 200);
        CHECK(answer.json().contains("bestmove"));
        CHECK(client.waitClosed(std::chrono::seconds(5)));
    }
}

TEST_CASE("live server: a request cut short by a half-close is answered 400 saying so",
          "[server][live]") {
    // A body shorter than its Content-Length (a wrong length in a hand-written request), or a
    // header without its blank line, then shutdown(SHUT_WR): the connection closed without a
    // word, so the client could not tell a refused request from a lost one.
    LiveServer live;
    auto refusedSaying = [](HttpClient& client, const std::string& what) {
        const auto refused = client.read();
        CHECK(refused.status == 400);
        CHECK(refused.json()["error"]["code"] == "bad_request");
        CHECK(refused.json()["error"]["message"].get<std::string>().find(what) !=
              std::string::npos);
        CHECK(client.waitClosed(std::chrono::seconds(5)));
    };
    {
        HttpClient client(live.port());
        client.sendRaw(
            "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 40\r\n\r\n{}");
        client.shutdownSend();
        refusedSaying(client, "body was complete");
    }
    {
        HttpClient client(live.port());
        client.sendRaw(
            "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n");  // no last chunk
        client.shutdownSend();
        refusedSaying(client, "body was complete");
    }
    {
        HttpClient client(live.port());
        client.sendRaw("GET /healthz HTTP/1.1\r\nHost: x\r\n");
        client.shutdownSend();
        refusedSaying(client, "header was complete");
    }
    {
        // After a whole request: that one is answered first.
        HttpClient client(live.port());
        client.sendRaw("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nPOST /api/v1/games HTTP/1.1\r\n");
        client.shutdownSend();
        CHECK(client.read().status == 200);
        refusedSaying(client, "header was complete");
    }
    CHECK(live.server->context().store->count() == 0);  // no game made of half a request
}
