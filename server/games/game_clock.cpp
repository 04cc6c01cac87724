#include "games/game_clock.h"

#include <algorithm>
#include <chrono>

#include "errors/error_codes.h"

namespace outpost::server {

std::variant<ClockRequest, ApiError> parseClockRequest(const nlohmann::json& clock) {
    if (!clock.is_object()) return badRequest("'clock' must be an object");
    if (auto error = rejectUnknownFields(clock, {"initial", "increment"}, "clock")) return *error;
    if (!clock.contains("initial") || !clock.at("initial").is_number_integer() ||
        (clock.contains("increment") && !clock.at("increment").is_number_integer())) {
        return badRequest("'clock' needs integer 'initial' and 'increment' (ms)");
    }
    const auto initial = clock.at("initial").get<std::int64_t>();
    const auto increment = clock.value("increment", std::int64_t{0});
    if (initial <= 0 || initial > kMaxClockMs || increment < 0 || increment > kMaxClockMs) {
        return unprocessable(errors::invalid_value, "clock times must be in (0, 24h] ms");
    }
    return ClockRequest{initial, increment};
}

std::int64_t nowEpochMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

ClockReading readClock(const ClockState& clock, bool whiteToMove, std::int64_t nowMs) {
    ClockReading reading{clock.whiteMs, clock.blackMs};
    if (clock.running) {
        const std::int64_t elapsed = std::max<std::int64_t>(0, nowMs - clock.turnStartedAtMs);
        (whiteToMove ? reading.whiteMs : reading.blackMs) -= elapsed;
    }
    reading.whiteMs = std::max<std::int64_t>(0, reading.whiteMs);
    reading.blackMs = std::max<std::int64_t>(0, reading.blackMs);
    return reading;
}

std::int64_t flagFallAtMs(const ClockState& clock, bool whiteToMove) {
    return clock.turnStartedAtMs + (whiteToMove ? clock.whiteMs : clock.blackMs);
}

nlohmann::json clockJson(const ClockState& clock, bool whiteToMove, std::int64_t nowMs) {
    const ClockReading reading = readClock(clock, whiteToMove, nowMs);
    return {{"white", reading.whiteMs},   {"black", reading.blackMs},
            {"initial", clock.initialMs}, {"increment", clock.incrementMs},
            {"running", clock.running},   {"at", nowMs}};
}

}  // namespace outpost::server
