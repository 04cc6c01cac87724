// Clock arithmetic on a stored game's clocks: the server's time, what each side has left at a
// given moment, when a flag falls, and a clock reading as the API shows it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <variant>

#include "errors/api_error.h"
#include "store/game_record.h"

namespace outpost::server {

// The server's wall clock, milliseconds since the epoch: what clocks and `at` fields count in.
std::int64_t nowEpochMs();

// Remaining milliseconds of each side at `nowMs` (the side to move loses the time since its
// turn started).
struct ClockReading {
    std::int64_t whiteMs = 0;
    std::int64_t blackMs = 0;
};
ClockReading readClock(const ClockState& clock, bool whiteToMove, std::int64_t nowMs);
// When the side to move runs out of time (epoch milliseconds), for a running clock.
std::int64_t flagFallAtMs(const ClockState& clock, bool whiteToMove);

// The API's Clock object read at `nowMs`: {white, black, initial, increment, running, at}. `at`
// is the server's time of the reading, so a client that knows its offset from the server counts
// down from the same instant as every other client.
nlohmann::json clockJson(const ClockState& clock, bool whiteToMove, std::int64_t nowMs);

// The longest clock a game (or a seek) may ask for: 24 hours.
inline constexpr std::int64_t kMaxClockMs = 24LL * 3600 * 1000;

// A request's "clock" object, {"initial", "increment"} in milliseconds: the times it asks for,
// or the error to answer (400 for a malformed object, 422 for times outside (0, 24 h], or an
// increment below 0).
struct ClockRequest {
    std::int64_t initialMs = 0;
    std::int64_t incrementMs = 0;
};
std::variant<ClockRequest, ApiError> parseClockRequest(const nlohmann::json& clock);

}  // namespace outpost::server
