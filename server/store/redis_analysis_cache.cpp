#include "store/redis_analysis_cache.h"

#include <hiredis/hiredis.h>

#include <charconv>

namespace outpost::server {

namespace {

// KEYS[1] the position's hash, KEYS[2] recency, KEYS[3] clock; ARGV[1] position.
// The hash's fields and values (empty when the position is not kept); a kept one is touched.
constexpr const char* kGetScript = R"lua(
local fields = redis.call('HGETALL', KEYS[1])
if #fields > 0 then redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1]) end
return fields
)lua";

// KEYS[1] the position's hash, KEYS[2] recency, KEYS[3] clock; ARGV[1] position, ARGV[2] lines,
// ARGV[3] depth, ARGV[4] doc, ARGV[5] capacity, ARGV[6] the prefix of position hashes, ARGV[7]
// when the slot was made, ARGV[8] the age at which a slot is stale (seconds). A kept value that
// is not "<depth> <madeAt> <doc>" (an older layout) counts as stale.
constexpr const char* kPutScript = R"lua(
local lines = tonumber(ARGV[2])
local depth = tonumber(ARGV[3])
local madeAt = tonumber(ARGV[7])
local maxAge = tonumber(ARGV[8])
local fields = redis.call('HGETALL', KEYS[1])
local kept = {}
for i = 1, #fields, 2 do
  local keptDepth, keptMadeAt = string.match(fields[i + 1], '^(%d+) (%-?%d+) ')
  if keptDepth and madeAt - tonumber(keptMadeAt) < maxAge then
    kept[#kept + 1] = {fields[i], tonumber(fields[i]), tonumber(keptDepth)}
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
local covered = false
for _, slot in ipairs(kept) do
  if slot[2] >= lines and slot[3] >= depth then covered = true end
end
if not covered then
  for _, slot in ipairs(kept) do
    if slot[2] <= lines and slot[3] <= depth then redis.call('HDEL', KEYS[1], slot[1]) end
  end
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3] .. ' ' .. ARGV[7] .. ' ' .. ARGV[4])
end
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if excess > 0 then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, excess - 1)
  for _, position in ipairs(oldest) do redis.call('DEL', ARGV[6] .. position) end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, excess - 1)
end
return 1
)lua";

std::string text(const redisReply* reply) {
    return std::string(reply->str, reply->len);
}

}  // namespace

RedisAnalysisCache::RedisAnalysisCache(RedisAnalysisCacheOptions options)
    : options_(std::move(options)),
      pool_(options_.primary ? options_.primary
                             : std::make_shared<RedisPrimary>(parseRedisUrlOrThrow(options_.url)),
            options_.timeout) {}

AnalysisCacheRead RedisAnalysisCache::get(const std::string& position) {
    RedisReplyPtr reply = pool_.command(
        {"EVAL", kGetScript, "3", entryPrefix() + position, lruKey(), clockKey(), position});
    if (!reply || reply->type != REDIS_REPLY_ARRAY) return {StoreStatus::Unavailable, {}};
    if (reply->elements == 0) return {StoreStatus::NotFound, {}};
    AnalysisCacheRead read{StoreStatus::Ok, {}};
    for (std::size_t i = 0; i + 1 < reply->elements; i += 2) {
        const redisReply* field = reply->element[i];
        const redisReply* value = reply->element[i + 1];
        if (field->type != REDIS_REPLY_STRING || value->type != REDIS_REPLY_STRING) continue;
        const std::string lines = text(field);
        const std::string stored = text(value);
        // "<depth> <madeAt> <doc>"
        const auto space = stored.find(' ');
        const auto second = space == std::string::npos ? space : stored.find(' ', space + 1);
        if (second == std::string::npos) continue;  // not ours: skipped, never trusted
        AnalysisSlot slot;
        const char* end = stored.data() + second;
        const auto linesParsed =
            std::from_chars(lines.data(), lines.data() + lines.size(), slot.multipv);
        const auto depthParsed = std::from_chars(stored.data(), stored.data() + space, slot.depth);
        const auto madeAtParsed = std::from_chars(stored.data() + space + 1, end, slot.madeAt);
        if (linesParsed.ec != std::errc() || depthParsed.ec != std::errc() ||
            madeAtParsed.ec != std::errc() || madeAtParsed.ptr != end)
            continue;
        slot.doc = stored.substr(second + 1);
        read.slots.push_back(std::move(slot));
    }
    if (read.slots.empty()) return {StoreStatus::NotFound, {}};
    return read;
}

StoreStatus RedisAnalysisCache::put(const std::string& position, const AnalysisSlot& slot) {
    if (options_.capacity == 0) return StoreStatus::Ok;
    RedisReplyPtr reply =
        pool_.command({"EVAL", kPutScript, "3", entryPrefix() + position, lruKey(), clockKey(),
                       position, std::to_string(slot.multipv), std::to_string(slot.depth), slot.doc,
                       std::to_string(options_.capacity), entryPrefix(),
                       std::to_string(slot.madeAt), std::to_string(kAnalysisSlotMaxAge.count())});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return StoreStatus::Unavailable;
    return StoreStatus::Ok;
}

std::uint64_t RedisAnalysisCache::size() {
    RedisReplyPtr reply = pool_.command({"ZCARD", lruKey()});
    if (!reply || reply->type != REDIS_REPLY_INTEGER) return 0;
    return static_cast<std::uint64_t>(reply->integer);
}

}  // namespace outpost::server
