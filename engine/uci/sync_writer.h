// One writer for everything the engine prints. The UCI loop answers commands on the main thread
// while search callbacks report from a search thread; a GUI must never see two lines interleaved,
// so every line goes out whole, under one lock, and is flushed at once (GUIs wait for it).
#pragma once

#include <mutex>
#include <ostream>
#include <string_view>

namespace outpost::uci {

class SyncWriter {
  public:
    explicit SyncWriter(std::ostream& out) : out_(out) {}

    void line(std::string_view text) {
        std::lock_guard lock(mutex_);
        out_ << text << '\n';
        out_.flush();
    }

    // For callers that must make a decision and print atomically (held bestmove).
    std::mutex& mutex() { return mutex_; }
    void lineLocked(std::string_view text) {
        out_ << text << '\n';
        out_.flush();
    }

  private:
    std::ostream& out_;
    std::mutex mutex_;
};

}  // namespace outpost::uci
