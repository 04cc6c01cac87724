#include "ops/logger.h"

#include <chrono>
#include <ctime>

namespace outpost::server {

namespace {

std::string isoNow() {
    using namespace std::chrono;
    const auto now = system_clock::now();
    const std::time_t seconds = system_clock::to_time_t(now);
    const auto millis = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
    char result[40];
    std::snprintf(result, sizeof result, "%s.%03dZ", buffer, static_cast<int>(millis));
    return result;
}

}  // namespace

void Logger::log(nlohmann::json event) {
    if (!out_) return;
    event["ts"] = isoNow();
    std::string text = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    text += '\n';
    std::lock_guard lock(mutex_);
    out_->write(text.data(), static_cast<std::streamsize>(text.size()));
    out_->flush();
}

}  // namespace outpost::server
