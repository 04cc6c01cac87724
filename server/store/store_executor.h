// Where blocking store work runs: SQLite writes (each fsynced) and Redis round trips (seconds
// each when Redis hangs). Never on the I/O threads, where one hung call would stall every
// connection of the replica, /healthz included; never on a searcher thread, where it would hold a
// searcher. A fixed set of threads of its own; work that must keep its order (one WebSocket's
// messages) goes through a strand.
//
// Thread-safety: post() from any thread. A task that throws is reported to the error callback
// and the executor goes on. join() (and the destructor) let queued work finish; work posted after
// join() is dropped unrun.
#pragma once

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <utility>

namespace outpost::server {

class StoreExecutor {
  public:
    using Strand = boost::asio::strand<boost::asio::thread_pool::executor_type>;
    using ErrorCallback = std::function<void(const std::string& what)>;

    explicit StoreExecutor(int threads, ErrorCallback onError = {});
    ~StoreExecutor();
    StoreExecutor(const StoreExecutor&) = delete;
    StoreExecutor& operator=(const StoreExecutor&) = delete;

    template <typename Task>
    void post(Task&& task) {
        postOn(pool_.get_executor(), std::forward<Task>(task));
    }
    // Tasks posted to one strand run one at a time, in order.
    template <typename Task>
    void post(Strand& strand, Task&& task) {
        postOn(strand, std::forward<Task>(task));
    }
    Strand makeStrand() { return boost::asio::make_strand(pool_.get_executor()); }

    // Waits for the queued work; later posts are dropped. Idempotent.
    void join();

    // Tasks posted and not yet finished (for /metrics).
    std::uint64_t pending() const { return pending_.load(); }

  private:
    template <typename Executor, typename Task>
    void postOn(const Executor& executor, Task&& task) {
        ++pending_;
        boost::asio::post(executor, [this, task = std::forward<Task>(task)]() mutable {
            try {
                task();
            } catch (const std::exception& error) {
                report(error.what());
            } catch (...) {
                report("unknown exception");
            }
            --pending_;
        });
    }
    void report(const std::string& what);

    boost::asio::thread_pool pool_;
    ErrorCallback onError_;
    std::atomic<std::uint64_t> pending_{0};
    std::atomic<bool> joined_{false};
};

}  // namespace outpost::server
