#include "web/static_files.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "ops/sha256.h"

namespace outpost::server {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kAssetHashLength = 8;
constexpr std::size_t kEtagHexDigits = 32;  // 128 bits of the SHA-256
// zlib's windowBits for a gzip header and trailer instead of zlib's own.
constexpr int kGzipWindowBits = 15 + 16;
constexpr int kMemoryLevel = 8;
constexpr const char* kIndexName = "index.html";

struct Extension {
    const char* suffix;
    const char* type;
    bool compressible;  // text worth gzipping (images and fonts are compressed already)
};

constexpr std::array<Extension, 20> kExtensions = {{
    {".html", "text/html; charset=utf-8", true},
    {".htm", "text/html; charset=utf-8", true},
    {".css", "text/css; charset=utf-8", true},
    {".js", "text/javascript; charset=utf-8", true},
    {".mjs", "text/javascript; charset=utf-8", true},
    {".json", "application/json", true},
    {".map", "application/json", true},
    {".svg", "image/svg+xml", true},
    {".png", "image/png", false},
    {".jpg", "image/jpeg", false},
    {".jpeg", "image/jpeg", false},
    {".gif", "image/gif", false},
    {".ico", "image/x-icon", true},
    {".webp", "image/webp", false},
    {".woff", "font/woff", false},
    {".woff2", "font/woff2", false},
    {".txt", "text/plain; charset=utf-8", true},
    {".wasm", "application/wasm", true},
    {".yaml", "application/yaml", true},
    {".webmanifest", "application/manifest+json", true},
}};

const Extension* extensionOf(std::string_view path) {
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos)
        return nullptr;
    const std::string_view suffix = path.substr(dot);
    for (const Extension& extension : kExtensions) {
        if (suffix == extension.suffix) return &extension;
    }
    return nullptr;
}

// Every regular file under root, by path relative to it ('/' separated), at most kMaxStaticFiles.
StaticFiles::Listing listFiles(const std::string& root) {
    StaticFiles::Listing files;
    std::error_code error;
    fs::recursive_directory_iterator it(root, error), end;
    for (; !error && it != end; it.increment(error)) {
        std::error_code typeError;
        if (!it->is_regular_file(typeError)) continue;
        files.emplace_back(it->path().lexically_relative(root).generic_string(), it->path());
        if (files.size() == kMaxStaticFiles) break;
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string signatureOf(const StaticFiles::Listing& files) {
    std::ostringstream out;
    for (const auto& [name, path] : files) {
        std::error_code error;
        const auto size = fs::file_size(path, error);
        const auto time = fs::last_write_time(path, error).time_since_epoch().count();
        out << name << '\0' << size << '\0' << time << '\n';
    }
    return out.str();
}

std::shared_ptr<const StaticFile> loadFile(const std::string& name, const fs::path& path) {
    std::error_code error;
    if (fs::file_size(path, error) > kMaxStaticFileBytes || error) return nullptr;
    std::ifstream in(path, std::ios::binary);
    if (!in) return nullptr;
    auto file = std::make_shared<StaticFile>();
    file->body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (file->body.size() > kMaxStaticFileBytes) return nullptr;
    file->contentType = contentTypeFor(name);
    file->etag = "\"" + sha256Hex(file->body).substr(0, kEtagHexDigits) + "\"";
    file->immutable = isHashedAssetName(name);
    const Extension* extension = extensionOf(name);
    if (extension && extension->compressible) {
        std::string gzipped = gzipCompress(file->body);
        if (gzipped.size() < file->body.size()) file->gzipped = std::move(gzipped);
    }
    return file;
}

}  // namespace

bool isHashedAssetName(std::string_view relativePath) {
    constexpr std::string_view kAssets = "assets/";
    if (relativePath.substr(0, kAssets.size()) != kAssets) return false;
    std::string_view name = relativePath.substr(kAssets.size());
    if (name.find('/') != std::string_view::npos) return false;
    const auto dot = name.find('.');
    if (dot == std::string_view::npos) return false;
    const std::string_view stem = name.substr(0, dot);
    if (stem.size() <= kAssetHashLength + 1) return false;
    if (stem[stem.size() - kAssetHashLength - 1] != '-') return false;
    return std::all_of(stem.end() - kAssetHashLength, stem.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
    });
}

std::string contentTypeFor(std::string_view path) {
    const Extension* extension = extensionOf(path);
    return extension ? extension->type : "application/octet-stream";
}

std::string gzipCompress(std::string_view data) {
    z_stream stream{};
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, kGzipWindowBits, kMemoryLevel,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        throw std::runtime_error("zlib: deflateInit2 failed");
    }
    std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    if (status != Z_STREAM_END) throw std::runtime_error("zlib: deflate did not finish");
    return out;
}

StaticFiles::StaticFiles(std::string root, std::chrono::milliseconds recheck)
    : root_(std::move(root)) {
    {
        std::lock_guard lock(refreshMutex_);
        publishLocked(std::make_unique<const Table>());
        // The first read needs no settling: there is nothing else to serve meanwhile.
        const auto files = listFiles(root_);
        loadLocked(files, signatureOf(files));
    }
    if (recheck.count() > 0) watcher_ = std::thread([this, recheck] { watch(recheck); });
}

StaticFiles::~StaticFiles() {
    {
        std::lock_guard lock(stopMutex_);
        stopping_ = true;
    }
    stopChanged_.notify_all();
    if (watcher_.joinable()) watcher_.join();
}

std::shared_ptr<const StaticFile> StaticFiles::find(const std::string& relativePath) const {
    const Table* table = current_.load(std::memory_order_acquire);
    auto found = table->find(relativePath);
    return found == table->end() ? nullptr : found->second;
}

void StaticFiles::refresh() {
    std::lock_guard lock(refreshMutex_);
    const auto files = listFiles(root_);
    std::string signature = signatureOf(files);
    if (signature == signature_) {
        settling_.clear();  // changed and changed back: nothing to do
        return;
    }
    if (signature != settling_) {
        // Changed since the last look: a build may still be writing. Look again next time.
        settling_ = std::move(signature);
        return;
    }
    const bool hadIndex = tables_.back()->count(kIndexName) != 0;
    const bool hasIndex = std::any_of(files.begin(), files.end(),
                                      [](const auto& file) { return file.first == kIndexName; });
    if (hadIndex && !hasIndex) return;  // a build in progress: keep serving the last one
    loadLocked(files, signature);
}

void StaticFiles::loadLocked(const Listing& files, const std::string& signature) {
    auto table = std::make_unique<Table>();
    for (const auto& [name, path] : files) {
        if (auto file = loadFile(name, path)) table->emplace(name, std::move(file));
    }
    // A file written while it was read would be served half-written: keep the old table, and
    // read the folder again once it has settled.
    std::string after = signatureOf(listFiles(root_));
    if (after != signature) {
        settling_ = std::move(after);
        return;
    }
    publishLocked(std::move(table));
    signature_ = signature;
    settling_.clear();
}

void StaticFiles::publishLocked(std::unique_ptr<const Table> table) {
    current_.store(table.get(), std::memory_order_release);
    tables_.push_back(std::move(table));
}

void StaticFiles::watch(std::chrono::milliseconds recheck) {
    std::unique_lock lock(stopMutex_);
    while (!stopChanged_.wait_for(lock, recheck, [this] { return stopping_; })) {
        lock.unlock();
        try {
            refresh();
        } catch (const std::exception&) {
            // Out of memory or zlib failing: the current table stays; try again next time.
        }
        lock.lock();
    }
}

}  // namespace outpost::server
