// The board page's files (the web root, web/dist), held in memory: each file read once, its
// ETag computed and its gzip form made once, so a request is a table lookup and never touches
// the disk on an I/O thread.
//
// A rebuilt page (npm run build while the server runs) is picked up: find() looks at the folder
// again at most every `recheck` (names, sizes and modification times), and reloads the whole
// table when it changed, so an index.html and the assets it names always come from the same
// build. A folder without index.html where the table had one is a build in progress (Vite empties
// the folder first): the old table stays until the new index.html is there.
//
// Bounds: files above kMaxStaticFileBytes, and files beyond the first kMaxStaticFiles, are not
// served (the page is a few hundred kB).
//
// Thread-safety: find() from any thread; it blocks while the folder is read, so call it off the
// I/O threads.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

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
    explicit StaticFiles(std::string root,
                         std::chrono::milliseconds recheck = kStaticRecheckInterval);

    // The file at `relativePath` ("index.html", "assets/index-DMD2RVAF.js"), or null.
    std::shared_ptr<const StaticFile> find(const std::string& relativePath);

  private:
    using Table = std::unordered_map<std::string, std::shared_ptr<const StaticFile>>;
    // Reloads the table when the folder changed (the caller holds mutex_).
    void refreshLocked();

    const std::string root_;
    const std::chrono::milliseconds recheck_;
    std::mutex mutex_;
    std::shared_ptr<const Table> table_;
    std::string signature_;  // names, sizes and times of the folder the table was read from
    std::chrono::steady_clock::time_point checkedAt_;
    bool loaded_ = false;
};

}  // namespace outpost::server
