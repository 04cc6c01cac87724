// The board page's files (the web root, web/dist), held in memory: each file read once, its
// ETag computed and its gzip form made once, in one immutable table that the I/O threads read
// without waiting for anything: find() is an atomic load of the table and a hash lookup, and an
// answer sends the table's own bytes (no copy per request; see handlers/static_handler.h).
//
// Loading: the constructor reads the folder (so a server answers its page from the first
// request on), and a watcher thread looks at the folder again every `recheck` (names, sizes and
// modification times). A changed folder is read only once it has stayed the same for one whole
// interval (a build still writing is left alone), and the new table replaces the old one at once
// and whole, so an index.html is served with the assets read with it; a folder that changed
// while it was read is read again later rather than served half-written (a writer that pauses
// for over an interval between two writes is taken as done). A folder without index.html where
// the table had one is a build in progress (Vite empties the folder first): the old table stays
// until the new index.html is there. A web root that is missing gives an empty table (every
// file 404) until it appears.
//
// Bounds: files above kMaxStaticFileBytes, and files beyond the first kMaxStaticFiles, are not
// served (the page is a few hundred kB).
//
// Thread-safety: find() from any thread, never blocks on the folder or the loader: it reads an
// atomic pointer to the current table (tables are never changed once published). refresh()
// blocks while it reads the folder: the watcher thread calls it, tests may too; never call it on
// an I/O thread.
//
// Memory: a table that was replaced stays allocated until the StaticFiles goes (a lookup may
// still be reading it, and readers take no reference to it), so each rebuilt page picked up adds
// one page's worth (a few hundred kB) for the life of the process: a development server rebuilt
// all day holds every build; a deployed replica's page changes by a restart.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace outpost::server {

inline constexpr std::size_t kMaxStaticFileBytes = 16u << 20;
inline constexpr std::size_t kMaxStaticFiles = 4096;
inline constexpr std::chrono::milliseconds kStaticRecheckInterval{1000};

struct StaticFile {
    std::string contentType;
    std::string body;
    std::string gzipped;     // the gzip form; empty when it would not be smaller (or not text)
    std::string etag;        // quoted, of the body; the gzip form's is etag with "-gzip" inside
    bool immutable = false;  // a content-hashed name (isHashedAssetName)
};

// Vite's content-hashed output, assets/<name>-<8 characters of [A-Za-z0-9_-]>.<ext>: a name
// whose content never changes (a new build gives a new name), so it may be cached for a year.
bool isHashedAssetName(std::string_view relativePath);

// The Content-Type for a file name, by its extension (application/octet-stream when unknown).
std::string contentTypeFor(std::string_view path);

// gzip (RFC 1952) at the best compression.
std::string gzipCompress(std::string_view data);

class StaticFiles {
  public:
    // The folder's regular files: the name relative to the root, and the path to read.
    using Listing = std::vector<std::pair<std::string, std::filesystem::path>>;

    // Reads `root` now (blocking: construct off the I/O threads). With `recheck` > 0 a watcher
    // thread calls refresh() every `recheck`; with 0 nothing is read again unless refresh() is
    // called.
    explicit StaticFiles(std::string root,
                         std::chrono::milliseconds recheck = kStaticRecheckInterval);
    ~StaticFiles();
    StaticFiles(const StaticFiles&) = delete;
    StaticFiles& operator=(const StaticFiles&) = delete;

    // The file at `relativePath` ("index.html", "assets/index-DMD2RVAF.js"), or null. Never
    // touches the disk, takes no mutex.
    std::shared_ptr<const StaticFile> find(const std::string& relativePath) const;

    // Looks at the folder once: a folder that changed since the table was read, and has not
    // changed since the last look, is read and its table replaces the current one (see above).
    void refresh();

  private:
    using Table = std::unordered_map<std::string, std::shared_ptr<const StaticFile>>;
    // Publishes `table` as the current one. The caller holds refreshMutex_.
    void publishLocked(std::unique_ptr<const Table> table);
    // Reads `files` (a listing whose signature is `signature`) into a new table and publishes
    // it, unless the folder changed meanwhile. The caller holds refreshMutex_.
    void loadLocked(const Listing& files, const std::string& signature);
    void watch(std::chrono::milliseconds recheck);

    const std::string root_;
    std::atomic<const Table*> current_{nullptr};  // the last of tables_

    std::mutex refreshMutex_;  // one refresh() at a time; never taken by find()
    std::vector<std::unique_ptr<const Table>> tables_;  // every table published (see Memory)
    std::string signature_;  // names, sizes and times of the folder the table was read from
    std::string settling_;   // the last look's signature, when it differed from signature_

    std::mutex stopMutex_;
    std::condition_variable stopChanged_;
    bool stopping_ = false;
    std::thread watcher_;  // last: started once everything above is ready
};

}  // namespace outpost::server
