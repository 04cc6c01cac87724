// RedisGameStore's lobby seeks, chat lines and idempotency keys (store/game_store.h; the layout is
// in store/redis_game_store.h). Each write is one script, so Redis applies it atomically: a seek's
// compare-and-set is what makes two acceptors on two replicas race correctly.
#include <hiredis/hiredis.h>

#include <algorithm>

#include "store/redis_game_store.h"

namespace outpost::server {

namespace {

// KEYS[1] seek key, KEYS[2] open seeks, KEYS[3] the client's open seeks; ARGV[1] version,
// ARGV[2] doc, ARGV[3] expiry (epoch ms), ARGV[4] open (1/0), ARGV[5] creation time, ARGV[6]
// seek id, ARGV[7] live until (epoch ms), ARGV[8] the client's most open seeks (0: no bound),
// ARGV[9] now (epoch ms). 1: created (or this very create was already applied), 0: the id is
// taken, 2: the client holds its most open seeks (those whose live-until is past leave its set).
constexpr const char* kCreateSeekScript = R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'doc') == ARGV[2] then return 1 end
  return 0
end
local most = tonumber(ARGV[8])
if most > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[9])
  if redis.call('ZCARD', KEYS[3]) >= most then return 2 end
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'doc', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
  redis.call('ZADD', KEYS[3], ARGV[7], ARGV[6])
  redis.call('PEXPIREAT', KEYS[3], ARGV[3])
end
return 1
)lua";

// KEYS[1] seek key, KEYS[2] open seeks, KEYS[3] the client's open seeks; ARGV[1] expected
// version, ARGV[2] new version, ARGV[3] doc, ARGV[4] expiry (epoch ms), ARGV[5] open (1/0),
// ARGV[6] creation time, ARGV[7] seek id, ARGV[8] live until (epoch ms). 1: written (or this
// very update was already applied), 0: version conflict, -1: no such seek. An open seek's
// expiry never moves (its creation's), so the client's set keeps the expiry its create gave it.
constexpr const char* kUpdateSeekScript = R"lua(
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  redis.call('ZREM', KEYS[2], ARGV[7])
  redis.call('ZREM', KEYS[3], ARGV[7])
  return -1
end
if current == ARGV[1] then
  redis.call('HSET', KEYS[1], 'version', ARGV[2], 'doc', ARGV[3])
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
  if ARGV[5] == '1' then
    redis.call('ZADD', KEYS[2], ARGV[6], ARGV[7])
    if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('ZADD', KEYS[3], ARGV[8], ARGV[7]) end
  else
    redis.call('ZREM', KEYS[2], ARGV[7])
    redis.call('ZREM', KEYS[3], ARGV[7])
  end
  return 1
end
if current == ARGV[2] and redis.call('HGET', KEYS[1], 'doc') == ARGV[3] then return 1 end
return 0
)lua";

// KEYS[1] open seeks; ARGV[1] limit, ARGV[2] seek key prefix. {id, version, doc, ...} of the
// oldest open seeks; an id whose key expired leaves the index here.
constexpr const char* kOpenSeeksScript = R"lua(
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, id in ipairs(ids) do
  local fields = redis.call('HMGET', ARGV[2] .. id, 'version', 'doc')
  if fields[1] and fields[2] then
    out[#out + 1] = id
    out[#out + 1] = fields[1]
    out[#out + 1] = fields[2]
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
)lua";

// KEYS[1] chat key; ARGV[1] line, ARGV[2] lines kept, ARGV[3] seconds to keep the key (0: no
// expiry), ARGV[4] the posting side, ARGV[5] its most lines in the window (0: no bound), ARGV[6]
// the window's start (epoch ms). 1: appended, 2: the side has posted its most lines in the
// window (each kept line is JSON with its side and "at"; one that is not counts for nobody).
// Keeping no line leaves none (LTRIM from "-0" is a script error: 0 lines asked
// answered Unavailable before the store contract test, tests/deploy/store_contract_test.cpp).
constexpr const char* kAppendChatScript = R"lua(
local most = tonumber(ARGV[5])
if most > 0 then
  local since = tonumber(ARGV[6])
  local recent = 0
  for _, kept in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
    local ok, line = pcall(cjson.decode, kept)
    if ok and type(line) == 'table' and line.side == ARGV[4] and type(line.at) == 'number'
        and line.at > since then
      recent = recent + 1
    end
  end
  if recent >= most then return 2 end
end
local kept = tonumber(ARGV[2])
if kept < 1 then
  redis.call('DEL', KEYS[1])
  return 1
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -kept, -1)
local keep = tonumber(ARGV[3])
if keep > 0 then redis.call('EXPIRE', KEYS[1], keep) end
return 1
)lua";

// KEYS[1] the idempotency key's key; ARGV[1] doc, ARGV[2] seconds to keep it. {1, doc} when this
// call stored it, {0, the doc stored before} otherwise. Replayed after a lost answer, it reads
// back its own doc (the caller compares). Not waited for by replicas: the game written after it
// is, and a replica that has the game has this key too (replication keeps the order).
constexpr const char* kClaimKeyScript = R"lua(
local held = redis.call('GET', KEYS[1])
if held then return {0, held} end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return {1, ARGV[1]}
)lua";

std::optional<std::uint64_t> parseVersion(const redisReply* reply) {
    if (reply->type != REDIS_REPLY_STRING) return std::nullopt;
    try {
        return std::stoull(std::string(reply->str, reply->len));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

StoreStatus RedisGameStore::createSeek(const SeekDoc& seek, const SeekQuota& quota) {
    RedisReplyPtr reply = pool_.command(
        {"EVAL", kCreateSeekScript, "3", options_.keyPrefix + "seek:" + seek.id,
         options_.keyPrefix + "seeks", options_.keyPrefix + "seekclient:" + seek.clientKey,
         std::to_string(seek.version), seek.doc, std::to_string(seek.expiresAtMs),
         seek.open ? "1" : "0", std::to_string(seek.createdAtMs), seek.id,
         std::to_string(seek.liveUntilMs), std::to_string(quota.maxOpen),
         std::to_string(quota.nowMs)});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    switch (reply->integer) {
        case 1:
            return StoreStatus::Ok;
        case 2:
            return StoreStatus::LimitReached;
        default:
            return StoreStatus::AlreadyExists;
    }
}

SeekReadResult RedisGameStore::getSeek(std::string_view id) {
    RedisReplyPtr reply =
        pool_.command({"HMGET", options_.keyPrefix + "seek:" + std::string(id), "version", "doc"});
    if (!reply || reply->type != REDIS_REPLY_ARRAY || reply->elements != 2)
        return {StoreStatus::Unavailable, std::nullopt};
    const redisReply* doc = reply->element[1];
    if (doc->type == REDIS_REPLY_NIL) return {StoreStatus::NotFound, std::nullopt};
    const std::optional<std::uint64_t> version = parseVersion(reply->element[0]);
    if (!version || doc->type != REDIS_REPLY_STRING) return {StoreStatus::Corrupt, std::nullopt};
    SeekDoc seek;
    seek.id = std::string(id);
    seek.version = *version;
    seek.doc = std::string(doc->str, doc->len);
    return {StoreStatus::Ok, std::move(seek)};
}

StoreStatus RedisGameStore::updateSeek(const SeekDoc& seek, std::uint64_t expectedVersion) {
    RedisReplyPtr reply = pool_.command(
        {"EVAL", kUpdateSeekScript, "3", options_.keyPrefix + "seek:" + seek.id,
         options_.keyPrefix + "seeks", options_.keyPrefix + "seekclient:" + seek.clientKey,
         std::to_string(expectedVersion), std::to_string(seek.version), seek.doc,
         std::to_string(seek.expiresAtMs), seek.open ? "1" : "0", std::to_string(seek.createdAtMs),
         seek.id, std::to_string(seek.liveUntilMs)});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    switch (reply->integer) {
        case 1:
            return StoreStatus::Ok;
        case 0:
            return StoreStatus::VersionConflict;
        default:
            return StoreStatus::NotFound;
    }
}

SeekListResult RedisGameStore::openSeeks(std::int64_t /*nowMs*/, std::size_t limit) {
    // Redis drops a seek's key at its expiry itself (PEXPIREAT).
    RedisReplyPtr reply =
        pool_.command({"EVAL", kOpenSeeksScript, "1", options_.keyPrefix + "seeks",
                       std::to_string(limit), options_.keyPrefix + "seek:"});
    if (!reply || reply->type != REDIS_REPLY_ARRAY) return {StoreStatus::Unavailable, {}};
    SeekListResult result;
    for (std::size_t i = 0; i + 2 < reply->elements; i += 3) {
        const redisReply* id = reply->element[i];
        const redisReply* doc = reply->element[i + 2];
        const std::optional<std::uint64_t> version = parseVersion(reply->element[i + 1]);
        if (id->type != REDIS_REPLY_STRING || doc->type != REDIS_REPLY_STRING || !version)
            continue;  // a damaged one is left out
        SeekDoc seek;
        seek.id = std::string(id->str, id->len);
        seek.version = *version;
        seek.doc = std::string(doc->str, doc->len);
        result.seeks.push_back(std::move(seek));
    }
    return result;
}

StoreStatus RedisGameStore::appendChat(std::string_view gameId, const std::string& line,
                                       std::size_t keep, const ChatQuota& quota) {
    RedisReplyPtr reply = pool_.command(
        {"EVAL", kAppendChatScript, "1", options_.keyPrefix + "chat:" + std::string(gameId), line,
         std::to_string(keep), std::to_string(options_.unfinishedRetention.count()), quota.side,
         std::to_string(quota.maxLines), std::to_string(quota.sinceMs)});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    return reply->integer == 2 ? StoreStatus::LimitReached : StoreStatus::Ok;
}

ChatReadResult RedisGameStore::chatLines(std::string_view gameId) {
    RedisReplyPtr reply =
        pool_.command({"LRANGE", options_.keyPrefix + "chat:" + std::string(gameId), "0", "-1"});
    if (!reply || reply->type != REDIS_REPLY_ARRAY) return {StoreStatus::Unavailable, {}};
    ChatReadResult result;
    for (std::size_t i = 0; i < reply->elements; ++i) {
        const redisReply* line = reply->element[i];
        if (line->type == REDIS_REPLY_STRING) result.lines.emplace_back(line->str, line->len);
    }
    return result;
}

KeyClaimResult RedisGameStore::claimKey(std::string_view key, const std::string& doc,
                                        std::chrono::seconds keep, std::int64_t /*nowMs*/) {
    RedisReplyPtr reply = pool_.command({"EVAL", kClaimKeyScript, "1",
                                         options_.keyPrefix + "idem:" + std::string(key), doc,
                                         std::to_string(std::max<std::int64_t>(keep.count(), 1))});
    if (!reply || reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
        reply->element[0]->type != REDIS_REPLY_INTEGER ||
        reply->element[1]->type != REDIS_REPLY_STRING)
        return {};
    const redisReply* held = reply->element[1];
    return {StoreStatus::Ok, reply->element[0]->integer == 1, std::string(held->str, held->len)};
}

}  // namespace outpost::server
