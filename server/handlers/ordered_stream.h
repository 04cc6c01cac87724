// An NDJSON stream whose lines may be produced (by a search or the event bus) before the handler
// has sent the stream's header: lines wait here until start(), then go out in order.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "http/http_types.h"

namespace outpost::server {

class OrderedStream {
  public:
    explicit OrderedStream(std::shared_ptr<ResponseSink> sink) : sink_(std::move(sink)) {}

    void start(Response header) {
        std::lock_guard lock(mutex_);
        sink_->startStream(std::move(header));
        for (auto& [line, coalesceKey] : early_) sink_->streamLine(std::move(line), coalesceKey);
        early_.clear();
        started_ = true;
        if (endedEarly_) sink_->endStream();
    }
    void line(std::string text, CoalesceKey coalesceKey) {
        std::lock_guard lock(mutex_);
        if (started_)
            sink_->streamLine(std::move(text), coalesceKey);
        else
            early_.emplace_back(std::move(text), coalesceKey);
    }
    void end() {
        std::lock_guard lock(mutex_);
        if (started_)
            sink_->endStream();
        else
            endedEarly_ = true;
    }

  private:
    std::mutex mutex_;
    std::shared_ptr<ResponseSink> sink_;
    bool started_ = false;
    bool endedEarly_ = false;
    std::vector<std::pair<std::string, CoalesceKey>> early_;
};

}  // namespace outpost::server
