#include "store/store_executor.h"

#include <algorithm>

namespace outpost::server {

StoreExecutor::StoreExecutor(int threads, ErrorCallback onError)
    : pool_(static_cast<std::size_t>(std::max(1, threads))), onError_(std::move(onError)) {}

StoreExecutor::~StoreExecutor() {
    join();
}

void StoreExecutor::join() {
    if (joined_.exchange(true)) return;
    pool_.join();
}

void StoreExecutor::report(const std::string& what) {
    if (!onError_) return;
    try {
        onError_(what);
    } catch (...) {
        // The reporter itself failed (a full disk under the logger): nothing more to do.
    }
}

}  // namespace outpost::server
