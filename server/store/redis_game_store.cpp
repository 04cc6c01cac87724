#include "store/redis_game_store.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>

#include "store/clock_deadline.h"
#include "store/game_record_json.h"

namespace outpost::server {

namespace {

// A write found already applied (its first attempt's reply was lost and it is sent again on
// another connection, or another replica stored the very same change) writes its document again:
// WAIT counts the replicas that have what this connection last wrote, and a connection that wrote
// nothing would be answered at once, whether or not any replica has the first attempt. 2: the
// primary's write guard refused that (too few replicas in sync), so the write is there but
// cannot be confirmed.
constexpr const char* kRewriteLua = R"lua(
local function rewrite(key, doc)
  local again = redis.pcall('HSET', key, 'doc', doc)
  if type(again) == 'table' and again.err then return 2 end
  return 1
end
)lua";

// KEYS[1] game key, KEYS[2] creation counter, KEYS[3] running clocks; ARGV[1] version,
// ARGV[2] doc, ARGV[3] seconds to keep the game (0: forever), ARGV[4] the running clock's
// deadline (empty: none), ARGV[5] game id.
// 1: created (or this very create was already applied), 0: the id is taken, 2: already applied
// but not confirmable (kRewriteLua).
const std::string kCreateScript = std::string(kRewriteLua) + R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'doc') == ARGV[2] then return rewrite(KEYS[1], ARGV[2]) end
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'doc', ARGV[2])
local keep = tonumber(ARGV[3])
if keep > 0 then redis.call('EXPIRE', KEYS[1], keep) end
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5]) end
redis.call('INCR', KEYS[2])
return 1
)lua";

// KEYS[1] game key, KEYS[2] running clocks; ARGV[1] expected version, ARGV[2] new version,
// ARGV[3] doc, ARGV[4] seconds to keep the game (0: forever), ARGV[5] the running clock's
// deadline (empty: none), ARGV[6] game id.
// 1: written (or this very update was already applied), 0: version conflict, -1: no such game,
// 2: already applied but not confirmable (kRewriteLua).
const std::string kUpdateScript = std::string(kRewriteLua) + R"lua(
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current == ARGV[1] then
  redis.call('HSET', KEYS[1], 'version', ARGV[2], 'doc', ARGV[3])
  local keep = tonumber(ARGV[4])
  if keep > 0 then redis.call('EXPIRE', KEYS[1], keep) else redis.call('PERSIST', KEYS[1]) end
  if ARGV[5] ~= '' then
    redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
  else
    redis.call('ZREM', KEYS[2], ARGV[6])
  end
  return 1
end
if current == ARGV[2] and redis.call('HGET', KEYS[1], 'doc') == ARGV[3] then
  return rewrite(KEYS[1], ARGV[3])
end
return 0
)lua";

// What a write script answers when it found itself applied but could not write again (kRewriteLua).
constexpr long long kAppliedUnconfirmable = 2;

// KEYS: game keys. The doc of each, or false (nil in the reply) where the game does not exist.
constexpr const char* kGetManyScript = R"lua(
local docs = {}
for i, key in ipairs(KEYS) do docs[i] = redis.call('HGET', key, 'doc') end
return docs
)lua";

// KEYS[1] game key; ARGV[1] the review. 1: stored, 0: no such game (a review never creates a
// game's key, which would then never expire).
constexpr const char* kPutGameReviewScript = R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'review', ARGV[1])
return 1
)lua";

StoreDocResult docReply(const RedisReplyPtr& reply) {
    if (!reply) return {StoreStatus::Unavailable, {}};
    if (reply->type == REDIS_REPLY_NIL) return {StoreStatus::NotFound, {}};
    if (reply->type != REDIS_REPLY_STRING) return {StoreStatus::Unavailable, {}};
    return {StoreStatus::Ok, std::string(reply->str, reply->len)};
}

// KEYS[1] running clocks; ARGV[1] latest deadline, ARGV[2] limit, ARGV[3] game key prefix.
// The docs of the games whose clock's flag falls by ARGV[1], soonest first. A game whose key
// expired (abandoned) leaves the index here.
constexpr const char* kRunningClocksScript = R"lua(
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local docs = {}
for _, id in ipairs(ids) do
  local doc = redis.call('HGET', ARGV[3] .. id, 'doc')
  if doc then docs[#docs + 1] = doc else redis.call('ZREM', KEYS[1], id) end
end
return docs
)lua";

// The store's own clock in a script, epoch milliseconds (Redis's TIME: one clock for every
// replica that reads or writes presence). Scripts are replicated by their effects, so a script
// that reads the time may write (Redis 7 always does so; older ones are asked to).
constexpr const char* kStoreMsLua = R"lua(
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local storeMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
)lua";

// KEYS[1] presence key; ARGV[1] replica, ARGV[2] entry, ARGV[3] seconds to keep the key. The
// entry is stored with the store's time of the write appended.
const std::string kPutPresenceScript = std::string(kStoreMsLua) + R"lua(
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ',' .. string.format('%.0f', storeMs))
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
)lua";

// KEYS[1] presence key. The store's time now, then the hash's fields and values.
const std::string kGetPresenceScript = std::string(kStoreMsLua) + R"lua(
local out = {string.format('%.0f', storeMs)}
for _, item in ipairs(redis.call('HGETALL', KEYS[1])) do out[#out + 1] = item end
return out
)lua";

// "white,black,whiteIdleMs,blackIdleMs" (the store appends ",writtenAtMs").
std::string encodePresence(const PresenceEntry& entry) {
    return std::string(entry.white ? "1" : "0") + "," + (entry.black ? "1" : "0") + "," +
           std::to_string(entry.whiteIdleMs) + "," + std::to_string(entry.blackIdleMs);
}

bool parseInt64(std::string_view text, std::int64_t& value) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

// An entry as stored, its age measured against the store's time `storeMs`.
std::optional<PresenceEntry> decodePresence(std::string replica, std::string_view text,
                                            std::int64_t storeMs) {
    constexpr int kFields = 5;
    std::int64_t fields[kFields] = {};
    const char* first = text.data();
    const char* last = text.data() + text.size();
    for (int i = 0; i < kFields; ++i) {
        auto [end, ec] = std::from_chars(first, last, fields[i]);
        if (ec != std::errc()) return std::nullopt;
        const bool final = i == kFields - 1;
        if (final ? end != last : (end == last || *end != ',')) return std::nullopt;
        first = end + (final ? 0 : 1);
    }
    PresenceEntry entry;
    entry.replica = std::move(replica);
    entry.white = fields[0] != 0;
    entry.black = fields[1] != 0;
    entry.whiteIdleMs = fields[2];
    entry.blackIdleMs = fields[3];
    entry.ageMs = std::max<std::int64_t>(0, storeMs - fields[4]);
    return entry;
}

std::string deadlineArgument(const GameRecord& game) {
    const auto deadline = clockDeadlineMs(game);
    return deadline ? std::to_string(*deadline) : std::string();
}

}  // namespace

StoreStatus RedisGameStore::putGameReview(std::string_view gameId, const std::string& doc) {
    RedisReplyPtr reply = pool_.command({"EVAL", kPutGameReviewScript, "1", gameKey(gameId), doc});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    return reply->integer == 1 ? StoreStatus::Ok : StoreStatus::NotFound;
}

StoreDocResult RedisGameStore::getGameReview(std::string_view gameId) {
    return docReply(pool_.command({"HGET", gameKey(gameId), "review"}));
}

StoreStatus RedisGameStore::putReview(std::string_view reviewId, const std::string& doc) {
    const std::string key = options_.keyPrefix + "review:" + std::string(reviewId);
    const std::int64_t keep = options_.unfinishedRetention.count();
    RedisReplyPtr reply = keep > 0 ? pool_.command({"SET", key, doc, "EX", std::to_string(keep)})
                                   : pool_.command({"SET", key, doc});
    if (!reply || reply->type != REDIS_REPLY_STATUS) return StoreStatus::Unavailable;
    return StoreStatus::Ok;
}

StoreDocResult RedisGameStore::getReview(std::string_view reviewId) {
    return docReply(pool_.command({"GET", options_.keyPrefix + "review:" + std::string(reviewId)}));
}

std::int64_t RedisGameStore::keepSeconds(const GameRecord& game) const {
    return game.status == "ongoing" ? options_.unfinishedRetention.count()
                                    : options_.finishedRetention.count();
}

RedisGameStore::RedisGameStore(RedisStoreOptions options)
    : options_(std::move(options)),
      pool_(options_.primary ? options_.primary
                             : std::make_shared<RedisPrimary>(parseRedisUrlOrThrow(options_.url)),
            options_.timeout) {
    // The unreplicated mode acknowledges writes no replica has: no guard to refuse them.
    if (!options_.replication.capToOnline) pool_.guardWrites(options_.replication);
}

std::string RedisGameStore::gameKey(std::string_view id) const {
    return options_.keyPrefix + "game:" + std::string(id);
}

std::string RedisGameStore::clocksKey() const {
    return options_.keyPrefix + "clocks";
}

StoreStatus RedisGameStore::create(const GameRecord& game) {
    ReplicatedReply written = pool_.commandReplicated(
        {"EVAL", kCreateScript, "3", gameKey(game.id), options_.keyPrefix + "games:created",
         clocksKey(), std::to_string(game.version), toStoredJson(game).dump(),
         std::to_string(keepSeconds(game)), deadlineArgument(game), game.id},
        options_.replication);
    const RedisReplyPtr& reply = written.reply;
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    if (reply->integer == kAppliedUnconfirmable) return StoreStatus::Unconfirmed;
    if (reply->integer == 1 && !written.replicated) return StoreStatus::Unconfirmed;
    return reply->integer == 1 ? StoreStatus::Ok : StoreStatus::AlreadyExists;
}

StoreReadResult RedisGameStore::get(std::string_view id) {
    RedisReplyPtr reply = pool_.command({"HGET", gameKey(id), "doc"});
    if (!reply) return {StoreStatus::Unavailable, std::nullopt};
    if (reply->type == REDIS_REPLY_NIL) return {StoreStatus::NotFound, std::nullopt};
    if (reply->type != REDIS_REPLY_STRING) return {StoreStatus::Unavailable, std::nullopt};
    std::optional<GameRecord> game = parseStoredGame(std::string_view(reply->str, reply->len));
    if (!game) return {StoreStatus::Corrupt, std::nullopt};
    return {StoreStatus::Ok, std::move(game)};
}

StoreManyResult RedisGameStore::getMany(const std::vector<std::string>& ids) {
    StoreManyResult result;
    if (ids.empty()) return result;
    std::vector<std::string> args = {"EVAL", kGetManyScript, std::to_string(ids.size())};
    for (const std::string& id : ids) args.push_back(gameKey(id));
    RedisReplyPtr reply = pool_.command(args);
    if (!reply || reply->type != REDIS_REPLY_ARRAY) return {StoreStatus::Unavailable, {}};
    for (std::size_t i = 0; i < reply->elements; ++i) {
        const redisReply* doc = reply->element[i];
        if (doc->type != REDIS_REPLY_STRING) continue;  // nil: no such game (or it expired)
        std::optional<GameRecord> game = parseStoredGame(std::string_view(doc->str, doc->len));
        if (game) result.games.push_back(std::move(*game));  // a damaged one is left out
    }
    return result;
}

StoreStatus RedisGameStore::update(const GameRecord& game, std::uint64_t expectedVersion) {
    ReplicatedReply written = pool_.commandReplicated(
        {"EVAL", kUpdateScript, "2", gameKey(game.id), clocksKey(), std::to_string(expectedVersion),
         std::to_string(game.version), toStoredJson(game).dump(), std::to_string(keepSeconds(game)),
         deadlineArgument(game), game.id},
        options_.replication);
    const RedisReplyPtr& reply = written.reply;
    // Sent, and no answer came: the move may be in the store (GameService::commit settles it).
    if (!reply && written.outcomeUnknown) return StoreStatus::Unanswered;
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    if (reply->integer == kAppliedUnconfirmable) return StoreStatus::Unconfirmed;
    // Written (or found already written) but not known to be on enough replicas: the server
    // publishes it as any state, and the client reads the game to learn whether it was kept.
    if (reply->integer == 1 && !written.replicated) return StoreStatus::Unconfirmed;
    switch (reply->integer) {
        case 1:
            return StoreStatus::Ok;
        case 0:
            return StoreStatus::VersionConflict;
        default:
            return StoreStatus::NotFound;
    }
}

StoreManyResult RedisGameStore::runningClocks(std::int64_t untilMs, std::size_t limit) {
    RedisReplyPtr reply =
        pool_.command({"EVAL", kRunningClocksScript, "1", clocksKey(), std::to_string(untilMs),
                       std::to_string(limit), options_.keyPrefix + "game:"});
    if (!reply || reply->type != REDIS_REPLY_ARRAY) return {StoreStatus::Unavailable, {}};
    StoreManyResult result;
    for (std::size_t i = 0; i < reply->elements; ++i) {
        const redisReply* doc = reply->element[i];
        if (doc->type != REDIS_REPLY_STRING) continue;
        std::optional<GameRecord> game = parseStoredGame(std::string_view(doc->str, doc->len));
        if (game) result.games.push_back(std::move(*game));
    }
    return result;
}

StoreStatus RedisGameStore::putPresence(std::string_view gameId, const PresenceEntry& entry) {
    const auto keep = std::chrono::duration_cast<std::chrono::seconds>(kPresenceKeep).count();
    RedisReplyPtr reply = pool_.command(
        {"EVAL", kPutPresenceScript, "1", options_.keyPrefix + "presence:" + std::string(gameId),
         entry.replica, encodePresence(entry), std::to_string(keep)});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    return StoreStatus::Ok;
}

PresenceReadResult RedisGameStore::getPresence(std::string_view gameId) {
    RedisReplyPtr reply = pool_.command(
        {"EVAL", kGetPresenceScript, "1", options_.keyPrefix + "presence:" + std::string(gameId)});
    if (!reply || reply->type != REDIS_REPLY_ARRAY || reply->elements == 0)
        return {StoreStatus::Unavailable, {}};
    const redisReply* now = reply->element[0];
    std::int64_t storeMs = 0;
    if (now->type != REDIS_REPLY_STRING || !parseInt64({now->str, now->len}, storeMs))
        return {StoreStatus::Unavailable, {}};
    PresenceReadResult result;
    for (std::size_t i = 1; i + 1 < reply->elements; i += 2) {
        const redisReply* field = reply->element[i];
        const redisReply* value = reply->element[i + 1];
        if (field->type != REDIS_REPLY_STRING || value->type != REDIS_REPLY_STRING) continue;
        auto entry = decodePresence(std::string(field->str, field->len),
                                    std::string_view(value->str, value->len), storeMs);
        if (entry) result.entries.push_back(std::move(*entry));  // a damaged one is left out
    }
    return result;
}

StoreStatus RedisGameStore::removePresence(std::string_view gameId) {
    RedisReplyPtr reply =
        pool_.command({"DEL", options_.keyPrefix + "presence:" + std::string(gameId)});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    return StoreStatus::Ok;
}

std::uint64_t RedisGameStore::count() {
    RedisReplyPtr reply = pool_.command({"GET", options_.keyPrefix + "games:created"});
    if (!reply || reply->type != REDIS_REPLY_STRING) return 0;
    try {
        return std::stoull(std::string(reply->str, reply->len));
    } catch (const std::exception&) {
        return 0;
    }
}

GameStore::FailoverCounters RedisGameStore::failoverCounters() {
    return {pool_.primary()->changes(), pool_.replicaAckFailures(), pool_.unreplicatedWrites(),
            pool_.guardRefusals()};
}

std::optional<std::int64_t> RedisGameStore::storeTimeMs() {
    // TIME: seconds and microseconds, as two strings.
    RedisReplyPtr reply = pool_.command({"TIME"});
    if (!reply || reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) return std::nullopt;
    std::int64_t seconds = 0;
    std::int64_t micros = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        const redisReply* part = reply->element[i];
        if (part->type != REDIS_REPLY_STRING) return std::nullopt;
        if (!parseInt64(std::string_view(part->str, part->len), i == 0 ? seconds : micros))
            return std::nullopt;
    }
    constexpr std::int64_t kMsPerSecond = 1000;
    constexpr std::int64_t kMicrosPerMs = 1000;
    return seconds * kMsPerSecond + micros / kMicrosPerMs;
}

bool RedisGameStore::healthy() {
    const ReplicationPolicy& policy = options_.replication;
    if (policy.minAcks <= 0 || policy.capToOnline) {
        RedisReplyPtr reply = pool_.command({"PING"});
        return reply && reply->type == REDIS_REPLY_STATUS;
    }
    // Ready only while a write can be acknowledged: enough replicas in sync with the primary.
    const ReplicaStatus replicas = pool_.replicaStatus(policy.maxLagSeconds);
    return replicas.known && replicas.inSync >= policy.minAcks;
}

}  // namespace outpost::server
