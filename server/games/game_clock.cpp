#include "games/game_clock.h"

#include <algorithm>
#include <chrono>

namespace outpost::server {

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
