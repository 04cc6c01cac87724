#include "config.h"

#include <charconv>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace outpost::server {

namespace {

// One option: flag name (also the env var OUTPOST_<NAME> with '-' as '_'), help, and a setter.
struct Option {
    const char* name;
    const char* help;
    std::function<void(ServerConfig&, const std::string&)> set;
};

template <typename T>
T parseNumber(const std::string& name, const std::string& value, T min, T max) {
    T result{};
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), result);
    if (ec != std::errc() || end != value.data() + value.size() || result < min || result > max) {
        std::ostringstream message;
        message << "--" << name << ": expected a number in [" << min << ", " << max << "], got '"
                << value << "'";
        throw std::invalid_argument(message.str());
    }
    return result;
}

std::vector<std::string> splitList(const std::string& value) {
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(value);
    while (std::getline(in, item, ',')) {
        if (!item.empty()) items.push_back(item);
    }
    return items;
}

bool parseBool(const std::string& name, const std::string& value) {
    if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
    if (value == "0" || value == "false" || value == "no" || value == "off") return false;
    throw std::invalid_argument("--" + name + ": expected true or false, got '" + value + "'");
}

constexpr int kMaxThreads = 1024;
constexpr std::size_t kMaxHashMb = 1 << 20;
constexpr std::int64_t kMaxMs = 24LL * 3600 * 1000;

const std::vector<Option>& options() {
    static const std::vector<Option> kOptions = {
        {"port", "TCP port to listen on (0: any free port)",
         [](ServerConfig& c, const std::string& v) { c.port = parseNumber("port", v, 0, 65535); }},
        {"bind", "address to bind", [](ServerConfig& c, const std::string& v) { c.bind = v; }},
        {"io-threads", "threads running network I/O",
         [](ServerConfig& c, const std::string& v) {
             c.ioThreads = parseNumber("io-threads", v, 1, kMaxThreads);
         }},
        {"store-threads",
         "threads for game-store reads and writes (kept off the network threads, so a slow or "
         "hung store never stalls /healthz or other connections)",
         [](ServerConfig& c, const std::string& v) {
             c.storeThreads = parseNumber("store-threads", v, 1, kMaxThreads);
         }},
        {"threads", "searcher threads (0: the machine's cores)",
         [](ServerConfig& c, const std::string& v) {
             c.searchThreads = parseNumber("threads", v, 0, kMaxThreads);
         }},
        {"hash", "transposition table size in MB, shared by all searchers",
         [](ServerConfig& c, const std::string& v) {
             c.hashMb = parseNumber<std::size_t>("hash", v, 1, kMaxHashMb);
         }},
        {"max-depth", "cap on a search's depth",
         [](ServerConfig& c, const std::string& v) {
             c.maxDepth = parseNumber("max-depth", v, 1, 127);
         }},
        {"max-movetime", "cap on a search's movetime in ms",
         [](ServerConfig& c, const std::string& v) {
             c.maxMovetimeMs = parseNumber<std::int64_t>("max-movetime", v, 1, kMaxMs);
         }},
        {"max-nodes", "cap on a search's nodes",
         [](ServerConfig& c, const std::string& v) {
             c.maxNodes = parseNumber<std::uint64_t>("max-nodes", v, 1, UINT64_MAX);
         }},
        {"max-multipv", "cap on MultiPV lines",
         [](ServerConfig& c, const std::string& v) {
             c.maxMultiPv = parseNumber("max-multipv", v, 1, 256);
         }},
        {"default-movetime", "movetime in ms for requests that give no limits",
         [](ServerConfig& c, const std::string& v) {
             c.defaultMovetimeMs = parseNumber<std::int64_t>("default-movetime", v, 1, kMaxMs);
         }},
        {"queue-size", "searches that may wait for a searcher (more: 503 overloaded)",
         [](ServerConfig& c, const std::string& v) {
             c.queueSize = parseNumber<std::size_t>("queue-size", v, 0, 1 << 20);
         }},
        {"client-searches", "running + queued searches per client (more: 429 rate_limited)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientSearches = parseNumber("client-searches", v, 1, 1 << 20);
         }},
        {"client-reviews", "game reviews running per client (more: 429 rate_limited)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientReviews = parseNumber("client-reviews", v, 1, 1 << 20);
         }},
        {"max-reviews", "game reviews running on this server (more: 503 overloaded)",
         [](ServerConfig& c, const std::string& v) {
             c.maxReviews = parseNumber("max-reviews", v, 1, 1 << 20);
         }},
        {"review-nodes", "nodes per position of a review that gives no limits",
         [](ServerConfig& c, const std::string& v) {
             c.reviewNodes = parseNumber<std::uint64_t>("review-nodes", v, 1, UINT64_MAX);
         }},
        {"client-connections",
         "open connections per client address, trusted proxies excepted (more: 429 "
         "too_many_connections; 0: no limit)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientConnections = parseNumber("client-connections", v, 0, 1 << 20);
         }},
        {"client-streams",
         "open NDJSON game streams per client (more: 429 too_many_streams; 0: no limit)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientStreams = parseNumber("client-streams", v, 0, 1 << 20);
         }},
        {"client-websockets",
         "open WebSocket connections per client (more: 429 too_many_websockets; 0: no limit)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientWebSockets = parseNumber("client-websockets", v, 0, 1 << 20);
         }},
        {"client-subscriptions",
         "game subscriptions per client over all its WebSockets (more: too_many_subscriptions; "
         "0: no limit)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientSubscriptions = parseNumber("client-subscriptions", v, 0, 1 << 20);
         }},
        {"client-games-per-minute",
         "games a client may create per minute (more: 429 too_many_games; 0: no limit)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientGamesPerMinute = parseNumber("client-games-per-minute", v, 0, 1 << 20);
         }},
        {"admit-game-wait",
         "new games against the engine are refused (503 at_capacity) while game replies wait "
         "this long in the queue, in ms (0: always admitted)",
         [](ServerConfig& c, const std::string& v) {
             c.admitGameWaitMs = parseNumber<std::int64_t>("admit-game-wait", v, 0, 60000);
         }},
        {"max-engine-games",
         "games against the engine active at once on this replica; more are refused (503 "
         "at_capacity; 0, the default: searcher threads x kGamesPerSearcher, in config.h)",
         [](ServerConfig& c, const std::string& v) {
             c.maxEngineGames = parseNumber("max-engine-games", v, 0, 1 << 20);
         }},
        {"client-engine-games",
         "of one client's active games against the engine, how many count against "
         "--max-engine-games (its others are admitted, uncounted: one client cannot lock the "
         "others out; 0, the default: half the limit, at least 1, at most kGamesPerSearcher)",
         [](ServerConfig& c, const std::string& v) {
             c.perClientEngineGames = parseNumber("client-engine-games", v, 0, 1 << 20);
         }},
        {"retry-after", "seconds sent in Retry-After with 429 and 503",
         [](ServerConfig& c, const std::string& v) {
             c.retryAfterSeconds = parseNumber("retry-after", v, 0, 3600);
         }},
        {"body-limit", "largest request body in bytes (more: 413)",
         [](ServerConfig& c, const std::string& v) {
             c.bodyLimitBytes = parseNumber<std::size_t>("body-limit", v, 1, 1 << 30);
         }},
        {"idle-timeout", "ms an HTTP connection may stay idle or take to send a request",
         [](ServerConfig& c, const std::string& v) {
             c.idleTimeoutMs = parseNumber("idle-timeout", v, 1, 86400000);
         }},
        {"write-timeout", "ms a client may take to read what we send",
         [](ServerConfig& c, const std::string& v) {
             c.writeTimeoutMs = parseNumber("write-timeout", v, 1, 86400000);
         }},
        {"ws-idle-timeout", "ms a silent WebSocket lives (pinged at half of it)",
         [](ServerConfig& c, const std::string& v) {
             c.wsIdleTimeoutMs = parseNumber("ws-idle-timeout", v, 2, 86400000);
         }},
        {"stream-keepalive", "ms between keep-alive lines on idle NDJSON game streams",
         [](ServerConfig& c, const std::string& v) {
             c.streamKeepAliveMs = parseNumber("stream-keepalive", v, 1, 86400000);
         }},
        {"max-queued-bytes", "outgoing bytes queued per connection before it is dropped",
         [](ServerConfig& c, const std::string& v) {
             c.maxQueuedBytes = parseNumber<std::size_t>("max-queued-bytes", v, 1024, 1 << 30);
         }},
        {"drain-grace", "ms running searches get after SIGTERM before they are stopped",
         [](ServerConfig& c, const std::string& v) {
             c.drainGraceMs = parseNumber("drain-grace", v, 0, 3600000);
         }},
        {"engine-reply-grace",
         "ms past a game's expected thinking time after which any replica watching the game "
         "takes up an engine reply that was not delivered (its replica died or drained)",
         [](ServerConfig& c, const std::string& v) {
             c.engineReplyGraceMs = parseNumber<std::int64_t>("engine-reply-grace", v, 0, kMaxMs);
         }},
        {"clock-sweep",
         "ms between two scans of the store for running clocks, whose flag falls this replica "
         "then watches too (a replica that watched one may have died)",
         [](ServerConfig& c, const std::string& v) {
             c.clockSweepMs = parseNumber<std::int64_t>("clock-sweep", v, 10, kMaxMs);
         }},
        {"player-gone-grace",
         "ms a side of a game between people may be without a live connection before the "
         "other side may claim victory or a draw",
         [](ServerConfig& c, const std::string& v) {
             c.playerGoneGraceMs = parseNumber<std::int64_t>("player-gone-grace", v, 0, kMaxMs);
         }},
        {"presence-heartbeat",
         "ms between two reports of a replica's live connections to the store (a report counts "
         "for three of them)",
         [](ServerConfig& c, const std::string& v) {
             c.presenceHeartbeatMs = parseNumber<std::int64_t>("presence-heartbeat", v, 10, kMaxMs);
         }},
        {"first-move-deadline",
         "ms each side of a game between people with a clock has for its first move (the "
         "clocks start once both sides have moved); a side that misses it gets the game "
         "aborted, with no result (0: no deadline)",
         [](ServerConfig& c, const std::string& v) {
             c.firstMoveDeadlineMs = parseNumber<std::int64_t>("first-move-deadline", v, 0, kMaxMs);
         }},
        {"max-clock-skew",
         "ms this replica's wall clock may be off the store's (Redis TIME) before /readyz turns "
         "503 clock_skew (game clocks do not need it: they run on the store's time; 0, the "
         "default: not checked)",
         [](ServerConfig& c, const std::string& v) {
             c.maxClockSkewMs = parseNumber<std::int64_t>("max-clock-skew", v, 0, kMaxMs);
         }},
        {"web-root", "directory served at / (the board page)",
         [](ServerConfig& c, const std::string& v) { c.webRoot = v; }},
        {"analysis-cache-entries",
         "positions whose finished analyses GET /api/v1/analysis answers from (least recently "
         "used go first; shared through --store redis; 0: no cache)",
         [](ServerConfig& c, const std::string& v) {
             c.analysisCacheEntries =
                 parseNumber<std::size_t>("analysis-cache-entries", v, 0, 100'000'000);
         }},
        {"analysis-cache-min-depth",
         "depth a finished analysis must reach to be cached (default 12)",
         [](ServerConfig& c, const std::string& v) {
             c.analysisCacheMinDepth = parseNumber("analysis-cache-min-depth", v, 1, 127);
         }},
        {"cors-origins", "comma-separated origins allowed to call the API ('*': any)",
         [](ServerConfig& c, const std::string& v) { c.corsOrigins = splitList(v); }},
        {"trusted-proxies",
         "comma-separated addresses or CIDR ranges of proxies whose X-Forwarded-For is used (the "
         "rightmost hop that is not one of them is the client)",
         [](ServerConfig& c, const std::string& v) { c.trustedProxies = splitList(v); }},
        {"store", "where games live: sqlite (the default), redis or memory",
         [](ServerConfig& c, const std::string& v) {
             if (v != "memory" && v != "sqlite" && v != "redis") {
                 throw std::invalid_argument("--store: expected memory, sqlite or redis, got '" +
                                             v + "'");
             }
             c.store = v;
         }},
        {"sqlite-path",
         "database file for --store sqlite (default outpost-games.db in the working directory; "
         "missing folders are created)",
         [](ServerConfig& c, const std::string& v) { c.sqlitePath = v; }},
        {"redis-url", "redis://[:password@]host[:port][/db] for --store redis",
         [](ServerConfig& c, const std::string& v) { c.redisUrl = v; }},
        {"redis-sentinels",
         "comma-separated host:port of Redis Sentinels for --store redis: they name the primary, "
         "which the server follows through failovers (--redis-url then gives only the password "
         "and database)",
         [](ServerConfig& c, const std::string& v) { c.redisSentinels = splitList(v); }},
        {"redis-master-name", "the name the sentinels monitor the primary by (default outpost)",
         [](ServerConfig& c, const std::string& v) { c.redisMasterName = v; }},
        {"redis-min-replica-acks",
         "replicas that must have a game write (WAIT) before it is acknowledged (else 503 "
         "write_unconfirmed), and in sync for a write to be tried at all (else 503 "
         "store_unavailable); default 1 with --redis-sentinels, 0 without",
         [](ServerConfig& c, const std::string& v) {
             c.redisMinReplicaAcks = parseNumber("redis-min-replica-acks", v, 0, 16);
         }},
        {"redis-replica-ack-timeout", "ms a game write waits for its replica acks (default 500)",
         [](ServerConfig& c, const std::string& v) {
             c.redisReplicaAckTimeoutMs =
                 parseNumber<std::int64_t>("redis-replica-ack-timeout", v, 1, 60000);
         }},
        {"redis-sentinel-password", "the password the sentinels ask (their requirepass)",
         [](ServerConfig& c, const std::string& v) { c.redisSentinelPassword = v; }},
        {"redis-replica-max-lag",
         "seconds since its last acknowledgement within which a replica counts as in sync: the "
         "primary's min-replicas-max-lag (set when lower) and /readyz (default 10)",
         [](ServerConfig& c, const std::string& v) {
             c.redisReplicaMaxLagSeconds = parseNumber("redis-replica-max-lag", v, 1, 3600);
         }},
        {"redis-allow-unreplicated-writes",
         "the unreplicated mode: acknowledge game writes with as many replicas as the primary "
         "has online, even none (a first sync, a partition), and allow "
         "--redis-min-replica-acks 0 with --redis-sentinels (default false)",
         [](ServerConfig& c, const std::string& v) {
             c.redisAllowUnreplicatedWrites = parseBool("redis-allow-unreplicated-writes", v);
         }},
        {"retention-days", "days finished games are kept after they end (0, the default: forever)",
         [](ServerConfig& c, const std::string& v) {
             c.retentionDays = parseNumber("retention-days", v, 0, 36500);
         }},
        {"unfinished-retention-days",
         "days an unfinished game nobody changes is kept (abandoned games; 0: forever; default "
         "30)",
         [](ServerConfig& c, const std::string& v) {
             c.unfinishedRetentionDays = parseNumber("unfinished-retention-days", v, 0, 36500);
         }},
        {"reviews-yield",
         "game reviews use only idle searchers: a review position starts only while no game "
         "reply or analysis runs, and stops when one comes (true/false; default true)",
         [](ServerConfig& c, const std::string& v) {
             c.reviewsYield = parseBool("reviews-yield", v);
         }},
        {"log-requests", "one JSON log line per request (true/false)",
         [](ServerConfig& c, const std::string& v) {
             c.logRequests = parseBool("log-requests", v);
         }},
    };
    return kOptions;
}

std::string envName(const std::string& flag) {
    std::string name = "OUTPOST_";
    for (char ch : flag) name += ch == '-' ? '_' : static_cast<char>(std::toupper(ch));
    return name;
}

}  // namespace

int ServerConfig::effectiveSearchThreads() const {
    if (searchThreads > 0) return searchThreads;
    unsigned cores = std::thread::hardware_concurrency();
    return cores > 0 ? static_cast<int>(cores) : 1;
}

std::string configHelp() {
    std::ostringstream out;
    out << "Usage: outpost-server [--flag=value | --flag value]...\n\n"
           "The Outpost game server: REST and WebSocket API, search pool, board page.\n"
           "Every flag can also be set by an environment variable (flags win).\n\n";
    const ServerConfig defaults;
    for (const Option& option : options()) {
        out << "  --" << option.name << "  (" << envName(option.name) << ")\n      " << option.help
            << "\n";
    }
    out << "  --help\n      print this text\n\n"
        << "Defaults: port " << defaults.port << ", hash " << defaults.hashMb << " MB, queue "
        << defaults.queueSize << ", " << defaults.perClientSearches
        << " searches per client, body limit " << defaults.bodyLimitBytes << " bytes.\n";
    return out.str();
}

ConfigParseResult parseConfig(int argc, const char* const* argv,
                              const std::function<const char*(const char*)>* env) {
    ConfigParseResult result;
    ServerConfig config;
    try {
        for (const Option& option : options()) {
            const std::string name = envName(option.name);
            const char* value = env ? (*env)(name.c_str()) : std::getenv(name.c_str());
            if (value && *value) option.set(config, value);
        }
        for (int i = 1; i < argc; ++i) {
            std::string arg = argv[i];
            if (arg == "--help" || arg == "-h") {
                result.message = configHelp();
                return result;
            }
            if (arg.rfind("--", 0) != 0)
                throw std::invalid_argument("unexpected argument '" + arg + "'");
            std::string name = arg.substr(2);
            std::string value;
            auto eq = name.find('=');
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                throw std::invalid_argument("--" + name + " needs a value");
            }
            bool known = false;
            for (const Option& option : options()) {
                if (name == option.name) {
                    option.set(config, value);
                    known = true;
                    break;
                }
            }
            if (!known) throw std::invalid_argument("unknown flag --" + name + " (see --help)");
        }
    } catch (const std::invalid_argument& error) {
        result.message = error.what();
        result.exitCode = 2;
        return result;
    }
    result.config = config;
    return result;
}

}  // namespace outpost::server
