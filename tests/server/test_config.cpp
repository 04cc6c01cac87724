#include <catch2/catch.hpp>
#include <map>

#include "config.h"
#include "http/client_address.h"
#include "ops/tokens.h"

using namespace outpost::server;

namespace {
ConfigParseResult parse(std::vector<const char*> args,
                        std::map<std::string, std::string> env = {}) {
    args.insert(args.begin(), "outpost-server");
    std::function<const char*(const char*)> lookup = [&env](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    return parseConfig(static_cast<int>(args.size()), args.data(), &lookup);
}
}  // namespace

TEST_CASE("config: defaults, flags, env, help, errors", "[server][config]") {
    auto defaults = parse({});
    REQUIRE(defaults.config);
    REQUIRE(defaults.config->port == 8080);
    REQUIRE(defaults.config->effectiveSearchThreads() >= 1);
    REQUIRE(defaults.config->retentionDays == 0);  // finished games are kept forever
    REQUIRE(defaults.config->store == "sqlite");   // the embedded default: survives restarts
    REQUIRE(defaults.config->sqlitePath == "outpost-games.db");
    REQUIRE(parse({"--store=memory"}).config->store == "memory");
    auto retention = parse({}, {{"OUTPOST_RETENTION_DAYS", "90"}});
    REQUIRE(retention.config);
    REQUIRE(retention.config->retentionDays == 90);
    REQUIRE(parse({"--retention-days=-1"}).exitCode == 2);

    auto flags = parse({"--port=9000", "--threads", "3", "--hash=32",
                        "--cors-origins=https://a.example,https://b.example", "--trusted-proxies",
                        "10.0.0.1", "--max-depth", "20"});
    REQUIRE(flags.config);
    REQUIRE(flags.config->port == 9000);
    REQUIRE(flags.config->searchThreads == 3);
    REQUIRE(flags.config->hashMb == 32);
    REQUIRE(flags.config->corsOrigins.size() == 2);
    REQUIRE(flags.config->trustedProxies == std::vector<std::string>{"10.0.0.1"});
    REQUIRE(flags.config->maxDepth == 20);

    auto env = parse(
        {"--queue-size=5"},
        {{"OUTPOST_PORT", "7000"}, {"OUTPOST_QUEUE_SIZE", "9"}, {"OUTPOST_WEB_ROOT", "/srv/web"}});
    REQUIRE(env.config);
    REQUIRE(env.config->port == 7000);
    REQUIRE(env.config->queueSize == 5);  // the flag wins
    REQUIRE(env.config->webRoot == "/srv/web");

    auto help = parse({"--help"});
    REQUIRE_FALSE(help.config);
    REQUIRE(help.exitCode == 0);
    REQUIRE(help.message.find("--port") != std::string::npos);
    REQUIRE(help.message.find("OUTPOST_PORT") != std::string::npos);

    auto store = parse({"--store", "sqlite", "--sqlite-path=/tmp/g.db", "--retention-days=0"},
                       {{"OUTPOST_REDIS_URL", "redis://cache:6380"}});
    REQUIRE(store.config);
    REQUIRE(store.config->store == "sqlite");
    REQUIRE(store.config->sqlitePath == "/tmp/g.db");
    REQUIRE(store.config->redisUrl == "redis://cache:6380");
    REQUIRE(store.config->retentionDays == 0);
    REQUIRE(parse({"--store=mysql"}).exitCode == 2);

    REQUIRE(parse({"--port=abc"}).exitCode == 2);
    REQUIRE(parse({"--port=70000"}).exitCode == 2);
    REQUIRE(parse({"--nope=1"}).exitCode == 2);
    REQUIRE(parse({"--port"}).exitCode == 2);
    REQUIRE(parse({"stray"}).exitCode == 2);
    REQUIRE(parse({}, {{"OUTPOST_THREADS", "-1"}}).exitCode == 2);
}

TEST_CASE("client address: X-Forwarded-For only from trusted proxies", "[server][config]") {
    const std::vector<std::string> trusted{"10.0.0.1"};
    REQUIRE(clientAddress("1.2.3.4", "", trusted) == "1.2.3.4");
    REQUIRE(clientAddress("1.2.3.4", "9.9.9.9", trusted) == "1.2.3.4");
    REQUIRE(clientAddress("10.0.0.1", "9.9.9.9, 10.0.0.1", trusted) == "9.9.9.9");
    REQUIRE(clientAddress("10.0.0.1", " 8.8.8.8 ", trusted) == "8.8.8.8");
    REQUIRE(clientAddress("10.0.0.1", "", trusted) == "10.0.0.1");
}

TEST_CASE("tokens: URL-safe, long, distinct", "[server][config]") {
    const std::string id = newGameId();
    const std::string token = newPlayerToken();
    REQUIRE(id.size() == 22);     // 128 bits
    REQUIRE(token.size() == 32);  // 192 bits
    REQUIRE(
        id.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
        std::string::npos);
    REQUIRE(newGameId() != id);
    REQUIRE(constantTimeEquals(token, token));
    REQUIRE_FALSE(constantTimeEquals(token, newPlayerToken()));
    REQUIRE_FALSE(constantTimeEquals("a", "ab"));
}
