// One JSON object per line (request and search events), written whole under a lock so lines
// from different threads never interleave.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>

namespace outpost::server {

class Logger {
  public:
    // `out` may be null: logging off (tests).
    explicit Logger(std::ostream* out) : out_(out) {}
    // Adds "ts" (ISO 8601 UTC, milliseconds) and writes the line.
    void log(nlohmann::json event);
    bool enabled() const { return out_ != nullptr; }

  private:
    std::mutex mutex_;
    std::ostream* out_;
};

}  // namespace outpost::server
