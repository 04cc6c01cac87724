// A lobby seek (docs/play.md, "The lobby"): someone waiting for an opponent with a clock and a
// colour. The rules are pure functions of a Seek and the time (the tests use them directly);
// lobby/seek_service.h stores, lists and accepts seeks.
//
// A seek is open while its seeker is there: its stream (GET /api/v1/seeks/{id}/stream) keeps it
// alive (lobby/seek_keeper.h writes seenAtMs on every heartbeat while one is open on a replica),
// and once no stream has been seen for the grace time (--player-gone-grace) the seek has
// expired. A seek never lives past kSeekMaxAgeMs, stream or not. An accepted or cancelled seek
// is kept kClosedSeekKeepMs, so its seeker can still read what became of it.
//
// The seek token is the seeker's key: it reads, follows and cancels the seek, and once the seek
// is accepted it is also the seeker's player token in the new game (the store keeps only its
// hash, as for every token).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "errors/api_error.h"
#include "store/game_store.h"

namespace outpost::server {

// The oldest a seek gets, stream or not (then it has expired).
inline constexpr std::int64_t kSeekMaxAgeMs = 30LL * 60 * 1000;
// How long an accepted, cancelled or expired seek is kept for its seeker to read.
inline constexpr std::int64_t kClosedSeekKeepMs = 10LL * 60 * 1000;
// Open seeks one client may hold at once (counted over the lobby, every replica's).
inline constexpr std::size_t kMaxOpenSeeksPerClient = 3;
// The most seeks the lobby lists (the oldest first).
inline constexpr std::size_t kMaxListedSeeks = 100;

struct SeekClock {
    std::int64_t initialMs = 0;
    std::int64_t incrementMs = 0;
    friend bool operator==(const SeekClock&, const SeekClock&) = default;
};

struct Seek {
    std::string id;
    std::uint64_t version = 1;
    std::string tokenHash;  // of the seek token
    std::string clientKey;  // a hash of the seeker's address: the per-client limit
    std::optional<SeekClock> clock;
    std::string color = "random";  // the seeker's wish: white | black | random
    std::int64_t createdAtMs = 0;
    std::int64_t seenAtMs = 0;   // the seeker was last known there (creation, a stream's beat)
    std::string state = "open";  // open | accepted | cancelled | expired
    std::int64_t closedAtMs = 0;
    std::string gameId;      // accepted: the game
    std::string seekerSide;  // accepted: the seeker's colour in it
    friend bool operator==(const Seek&, const Seek&) = default;
};

struct SeekTiming {
    std::int64_t graceMs = 60000;  // a seek whose stream is gone this long has expired
    std::int64_t maxAgeMs = kSeekMaxAgeMs;
};

// open | accepted | cancelled | expired, at nowMs.
std::string seekStatus(const Seek& seek, std::int64_t nowMs, const SeekTiming& timing);

// Parses the body of POST /api/v1/seeks: {"clock"?: {"initial", "increment"} (ms), "color"?:
// white | black | random}. The seek has its clock and colour set, nothing else.
std::variant<Seek, ApiError> parseSeekRequest(const nlohmann::json& body);

// The stored form, and back (nullopt when the document cannot be read).
SeekDoc toSeekDoc(const Seek& seek, const SeekTiming& timing);
std::optional<Seek> fromSeekDoc(const SeekDoc& doc);

// What the lobby lists of a seek: id, clock, color, createdAt, age (ms); never a token.
nlohmann::json publicSeekJson(const Seek& seek, std::int64_t nowMs);
// What its seeker reads: the public fields, status, and once accepted gameId, playerSide and
// playerToken (the seek token it presented).
nlohmann::json ownerSeekJson(const Seek& seek, std::int64_t nowMs, const SeekTiming& timing,
                             const std::string& token);

// The side the seeker plays once accepted: its wish, or `coin` (true: white) for random.
std::string seekerSide(const Seek& seek, bool coin);

}  // namespace outpost::server
