// The board page's files: served from memory with validators (hashed assets immutable for a
// year, everything else revalidated by ETag, 304 on a match), gzipped for clients that accept
// it, a rebuilt page picked up, no escape from the root.
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>
#include <vector>

#include "handlers/static_handler.h"
#include "test_client.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

std::string gunzip(const std::string& data) {
    z_stream stream{};
    REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
    std::string out(1 << 20, '\0');  // the test files are far smaller
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    inflateEnd(&stream);
    REQUIRE(status == Z_STREAM_END);
    return out;
}

// A web root of its own, removed at the end.
struct WebRoot {
    WebRoot() {
        std::filesystem::create_directories(path / "assets");
        write("index.html", page);
        write("assets/index-DMD2RVAF.js", script);
        write("assets/index-fiQP-kbR.css", "body{margin:0}");
        write("favicon.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(300, 'x'));
    }
    ~WebRoot() { std::filesystem::remove_all(path); }
    void write(const std::string& name, const std::string& contents) const {
        std::ofstream(path / name, std::ios::binary) << contents;
    }

    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("outpost-static-" + std::to_string(::getpid()));
    const std::string page = "<!doctype html><title>Outpost</title>" + std::string(2000, ' ') +
                             "<script type=module src=./assets/index-DMD2RVAF.js></script>";
    const std::string script = "console.log('board');\n" + std::string(4000, ';');
};

std::string header(const std::shared_ptr<RecordingSink>& sink, http::field field) {
    return std::string(sink->response()[field]);
}

}  // namespace

TEST_CASE("static files: hashed asset names", "[server][static]") {
    CHECK(isHashedAssetName("assets/index-DMD2RVAF.js"));
    CHECK(isHashedAssetName("assets/index-fiQP-kbR.css"));  // the hash may hold '-'
    CHECK(isHashedAssetName("assets/vendor-a_b-C9d0.js"));
    CHECK_FALSE(isHashedAssetName("index.html"));
    CHECK_FALSE(isHashedAssetName("assets/app.js"));
    CHECK_FALSE(isHashedAssetName("assets/index-SHORT.js"));
    CHECK_FALSE(isHashedAssetName("assets/sub/index-DMD2RVAF.js"));
    CHECK_FALSE(isHashedAssetName("other/index-DMD2RVAF.js"));
}

TEST_CASE("static files: Accept-Encoding and If-None-Match parsing", "[server][static]") {
    CHECK(acceptsGzip("gzip"));
    CHECK(acceptsGzip("gzip, deflate, br"));
    CHECK(acceptsGzip("br;q=1.0, GZIP;q=0.5"));
    CHECK_FALSE(acceptsGzip(""));
    CHECK_FALSE(acceptsGzip("br, deflate"));
    CHECK_FALSE(acceptsGzip("gzip;q=0"));
    CHECK_FALSE(acceptsGzip("gzip; q=0.000"));
    CHECK_FALSE(acceptsGzip("x-gzip2"));
    CHECK(etagMatches("\"abc\"", "\"abc\""));
    CHECK(etagMatches("\"x\", W/\"abc\"", "\"abc\""));
    CHECK(etagMatches("*", "\"abc\""));
    CHECK_FALSE(etagMatches("\"abcd\"", "\"abc\""));
}

TEST_CASE("static files: validators, 304, gzip, 404 and no escape from the root",
          "[server][static]") {
    WebRoot root;
    ServerConfig config = testConfig();
    config.webRoot = root.path.string();
    HandlerFixture f(config);

    auto index = f.call(verb::get, "/");
    REQUIRE(index->status() == 200);
    CHECK(index->response().body() == root.page);
    CHECK(header(index, http::field::content_type) == "text/html; charset=utf-8");
    CHECK(header(index, http::field::cache_control) == "no-cache");
    CHECK(header(index, http::field::vary) == "Accept-Encoding");
    CHECK(header(index, http::field::content_encoding).empty());
    CHECK_FALSE(std::string(index->response()["Content-Security-Policy"]).empty());
    const std::string etag = header(index, http::field::etag);
    REQUIRE(etag.size() > 2);
    CHECK(etag.front() == '"');
    CHECK(header(f.call(verb::get, "/index.html"), http::field::etag) == etag);

    auto notModified = f.call(verb::get, "/", "", {{"If-None-Match", etag}});
    CHECK(notModified->status() == 304);
    CHECK(notModified->response().body().empty());
    CHECK(header(notModified, http::field::etag) == etag);
    CHECK(header(notModified, http::field::cache_control) == "no-cache");
    CHECK(f.call(verb::get, "/", "", {{"If-None-Match", "\"stale\""}})->status() == 200);

    // gzip: a smaller body that decompresses to the file, its own ETag, and a 304 for it too.
    auto gzipped = f.call(verb::get, "/", "", {{"Accept-Encoding", "gzip, deflate, br"}});
    REQUIRE(gzipped->status() == 200);
    CHECK(header(gzipped, http::field::content_encoding) == "gzip");
    CHECK(header(gzipped, http::field::vary) == "Accept-Encoding");
    CHECK(gzipped->response().body().size() < root.page.size());
    CHECK(gunzip(gzipped->response().body()) == root.page);
    const std::string gzipEtag = header(gzipped, http::field::etag);
    CHECK(gzipEtag != etag);
    CHECK(f.call(verb::get, "/", "", {{"Accept-Encoding", "gzip"}, {"If-None-Match", gzipEtag}})
              ->status() == 304);
    CHECK(header(f.call(verb::get, "/", "", {{"Accept-Encoding", "gzip;q=0"}}),
                 http::field::content_encoding)
              .empty());

    // A hashed asset: cached for a year.
    auto script = f.call(verb::get, "/assets/index-DMD2RVAF.js", "", {{"Accept-Encoding", "gzip"}});
    REQUIRE(script->status() == 200);
    CHECK(header(script, http::field::cache_control) == "public, max-age=31536000, immutable");
    CHECK(header(script, http::field::content_type) == "text/javascript; charset=utf-8");
    CHECK(gunzip(script->response().body()) == root.script);
    CHECK(header(f.call(verb::get, "/assets/index-fiQP-kbR.css"), http::field::cache_control) ==
          "public, max-age=31536000, immutable");

    // An image is sent as it is (no gzip, no Vary), revalidated.
    auto image = f.call(verb::get, "/favicon.png", "", {{"Accept-Encoding", "gzip"}});
    REQUIRE(image->status() == 200);
    CHECK(header(image, http::field::content_encoding).empty());
    CHECK(header(image, http::field::vary).empty());
    CHECK(header(image, http::field::content_type) == "image/png");

    // HEAD: the headers and length of GET, no body.
    auto head = f.call(verb::head, "/index.html", "", {{"Accept-Encoding", "gzip"}});
    REQUIRE(head->status() == 200);
    CHECK(head->response().body().empty());
    CHECK(header(head, http::field::content_length) ==
          std::to_string(gzipped->response().body().size()));

    CHECK(f.call(verb::get, "/missing.js")->status() == 404);
    CHECK(f.call(verb::get, "/missing.js")->errorCode() == "not_found");
    CHECK(f.call(verb::get, "/../../etc/passwd")->status() == 404);
    CHECK(f.call(verb::get, "/assets/../index.html")->status() == 404);
    CHECK(f.call(verb::get, "/assets/%2e%2e/index.html")->status() == 404);
    CHECK(f.call(verb::get, "/assets\\..\\index.html")->status() == 404);
    CHECK(f.call(verb::get, "/assets")->status() == 404);  // a directory is not a file
    CHECK(f.call(verb::post, "/index.html")->status() == 405);
}

TEST_CASE("static files: a rebuilt page is served whole, a build in progress is not",
          "[server][static]") {
    WebRoot root;
    StaticFiles files(root.path.string(), std::chrono::milliseconds(0));
    auto before = files.find("index.html");
    REQUIRE(before);
    CHECK(files.find("assets/index-DMD2RVAF.js"));

    // A build begins: the folder is emptied (Vite's emptyOutDir). The last build stays served,
    // however often the folder is looked at.
    std::filesystem::remove(root.path / "index.html");
    std::filesystem::remove(root.path / "assets" / "index-DMD2RVAF.js");
    files.refresh();
    files.refresh();
    CHECK(files.find("index.html") == before);
    CHECK(files.find("assets/index-DMD2RVAF.js"));

    // The build writes its files: at the first look after a change the folder may still be
    // being written, so the last build stays.
    root.write("assets/index-NEWHASH1.js", "console.log('new')");
    root.write("index.html", "<!doctype html><script src=./assets/index-NEWHASH1.js></script>");
    files.refresh();
    CHECK(files.find("index.html") == before);
    CHECK_FALSE(files.find("assets/index-NEWHASH1.js"));

    // Unchanged one interval later: the new page and its assets, and the old assets are gone.
    files.refresh();
    auto after = files.find("index.html");
    REQUIRE(after);
    CHECK(after->body.find("NEWHASH1") != std::string::npos);
    CHECK(after->etag != before->etag);
    CHECK(files.find("assets/index-NEWHASH1.js"));
    CHECK_FALSE(files.find("assets/index-DMD2RVAF.js"));
    // What an answer still holds of the old table stays valid.
    CHECK(before->body.find("index-DMD2RVAF") != std::string::npos);
}

TEST_CASE("static files: the folder is read at start, never by a lookup", "[server][static]") {
    WebRoot root;
    StaticFiles files(root.path.string(), std::chrono::milliseconds(0));
    auto first = files.find("index.html");
    REQUIRE(first);
    CHECK(first->body == root.page);
    root.write("index.html", "changed");
    root.write("late.html", "late");
    CHECK(files.find("index.html") == first);
    CHECK_FALSE(files.find("late.html"));
    CHECK_FALSE(files.find("nothing.html"));
}

TEST_CASE("static files: a missing web root serves nothing until it appears", "[server][static]") {
    const auto path = std::filesystem::temp_directory_path() /
                      ("outpost-static-late-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    StaticFiles files(path.string(), std::chrono::milliseconds(0));
    CHECK_FALSE(files.find("index.html"));
    files.refresh();
    CHECK_FALSE(files.find("index.html"));
    std::filesystem::create_directories(path);
    std::ofstream(path / "index.html") << "<!doctype html>";
    files.refresh();  // a change: let it settle
    CHECK_FALSE(files.find("index.html"));
    files.refresh();
    REQUIRE(files.find("index.html"));
    CHECK(files.find("index.html")->body == "<!doctype html>");
    std::filesystem::remove_all(path);
}

TEST_CASE("static files: lookups while the watcher swaps tables see whole builds",
          "[server][static]") {
    WebRoot root;
    const auto version = [](int n) { return "<!doctype html>build " + std::to_string(n); };
    root.write("index.html", version(0));
    constexpr int kBuilds = 20;
    StaticFiles files(root.path.string(), std::chrono::milliseconds(1));
    std::atomic<bool> done{false};
    std::atomic<int> torn{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < 2; ++r) {
        readers.emplace_back([&] {
            while (!done.load()) {
                const auto file = files.find("index.html");
                if (!file || file->body.rfind("<!doctype html>build ", 0) != 0) torn.fetch_add(1);
            }
        });
    }
    // Each build replaces index.html whole (written aside, then renamed), as a deploy would.
    for (int n = 1; n <= kBuilds; ++n) {
        root.write("index.tmp", version(n));
        std::filesystem::rename(root.path / "index.tmp", root.path / "index.html");
    }
    const bool last = eventually([&] {
        const auto file = files.find("index.html");
        return file && file->body == version(kBuilds);
    });
    done = true;
    for (auto& reader : readers) reader.join();
    CHECK(last);
    CHECK(torn.load() == 0);
}

TEST_CASE("static files: every answer sends the table's own bytes, no copy", "[server][static]") {
    WebRoot root;
    ServerConfig config = testConfig();
    config.webRoot = root.path.string();
    HandlerFixture f(config);
    const auto file = f.context.staticFiles.find("index.html");
    REQUIRE(file);

    auto first = f.call(verb::get, "/");
    auto second = f.call(verb::get, "/index.html");
    REQUIRE(first->status() == 200);
    REQUIRE(first->sharedBody());
    CHECK(first->sharedBody()->data() == file->body.data());
    CHECK(second->sharedBody()->data() == file->body.data());
    CHECK(header(first, http::field::content_length) == std::to_string(file->body.size()));

    auto gzipped = f.call(verb::get, "/", "", {{"Accept-Encoding", "gzip"}});
    REQUIRE(gzipped->sharedBody());
    CHECK(gzipped->sharedBody()->data() == file->gzipped.data());

    // No body at all for HEAD and 304 (and a 404 is a small JSON error of its own).
    auto head = f.call(verb::head, "/");
    CHECK_FALSE(head->sharedBody());
    CHECK(header(head, http::field::content_length) == std::to_string(file->body.size()));
    CHECK_FALSE(f.call(verb::get, "/", "", {{"If-None-Match", file->etag}})->sharedBody());
    CHECK_FALSE(f.call(verb::get, "/missing.js")->sharedBody());
}

namespace {

// Holds every thread of a store executor until released (at the latest when destroyed), so a
// test can show what does not wait for the store.
class StoreBlocker {
  public:
    StoreBlocker(StoreExecutor& work, int threads) : state_(std::make_shared<State>()) {
        state_->gate = state_->release.get_future().share();
        for (int i = 0; i < threads; ++i) {
            work.post([state = state_] {
                state->blocked.fetch_add(1);
                state->gate.wait();
            });
        }
        allBlocked_ = eventually([&] { return state_->blocked.load() == threads; });
    }
    ~StoreBlocker() { release(); }
    StoreBlocker(const StoreBlocker&) = delete;
    StoreBlocker& operator=(const StoreBlocker&) = delete;

    bool allBlocked() const { return allBlocked_; }
    void release() {
        if (!released_) state_->release.set_value();
        released_ = true;
    }

  private:
    struct State {
        std::promise<void> release;
        std::shared_future<void> gate;
        std::atomic<int> blocked{0};
    };
    std::shared_ptr<State> state_;
    bool allBlocked_ = false;
    bool released_ = false;
};

}  // namespace

TEST_CASE("static files: answered at once while every store thread is held", "[server][static]") {
    WebRoot root;
    ServerConfig config = testConfig();
    config.webRoot = root.path.string();
    config.storeThreads = 2;
    HandlerFixture f(config);
    StoreBlocker blocker(f.context.storeWork, config.storeThreads);
    REQUIRE(blocker.allBlocked());

    // A game needs the store: it waits.
    auto game = f.call(verb::post, "/api/v1/games", "{}", {}, false);
    // The page does not: each answer is given before the router returns.
    for (int i = 0; i < 100; ++i) {
        auto page = f.call(verb::get, i % 2 ? "/" : "/assets/index-DMD2RVAF.js", "", {}, false);
        REQUIRE(page->ended());
        CHECK(page->status() == 200);
    }
    CHECK(f.call(verb::get, "/missing.js", "", {}, false)->ended());
    CHECK(f.call(verb::get, "/", "", {{"If-None-Match", "*"}}, false)->status() == 304);
    CHECK_FALSE(game->ended());

    blocker.release();
    REQUIRE(game->wait());
    CHECK(game->status() == 201);
}

TEST_CASE("live server: concurrent static GETs while the store is held, bodies whole",
          "[server][static][live]") {
    WebRoot root;
    // Above the per-connection queue bound (maxQueuedBytes): a shared body is not held against
    // it, so a large file goes out whole.
    const std::string big(1536 * 1024, 'x');
    root.write("big.png", big);
    ServerConfig config = testConfig();
    config.webRoot = root.path.string();
    config.storeThreads = 2;
    LiveServer live(config);
    StoreBlocker blocker(live.server->context().storeWork, config.storeThreads);
    REQUIRE(blocker.allBlocked());

    constexpr int kClients = 6;
    constexpr int kRounds = 10;
    std::atomic<int> whole{0};
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&, c] {
            try {
                HttpClient client(live.port());
                for (int round = 0; round < kRounds; ++round) {
                    // One keep-alive connection: each answer must end where its length says.
                    const auto page = client.request(verb::get, "/");
                    client.send(verb::head, "/assets/index-DMD2RVAF.js");
                    const auto head = client.read(kClientTimeout, true);
                    const auto script = client.request(verb::get, "/assets/index-DMD2RVAF.js");
                    const bool ok =
                        page.status == 200 && page.body == root.page && head.status == 200 &&
                        head.header("Content-Length") == std::to_string(root.script.size()) &&
                        script.body == root.script;
                    bool bigOk = true;
                    if (round == c % kRounds) {
                        const auto image = client.request(verb::get, "/big.png");
                        bigOk = image.status == 200 && image.body == big;
                    }
                    if (ok && bigOk) whole.fetch_add(1);
                }
            } catch (const std::exception&) {
                // counted as missing
            }
        });
    }
    for (auto& client : clients) client.join();
    CHECK(whole.load() == kClients * kRounds);
    blocker.release();
}

TEST_CASE("static files: with CORS on, Vary names Origin besides Accept-Encoding",
          "[server][static][live]") {
    // A gzipped page fetched with an allowed Origin said only `Vary: Origin` (the CORS header
    // replaced the handler's Accept-Encoding), so a shared cache could give the gzip body to a
    // client that does not take gzip; an answer made without an Origin said no Origin at all,
    // so a cache could give it, without Allow-Origin, to a page of an allowed origin.
    WebRoot root;
    ServerConfig config = testConfig();
    config.webRoot = root.path.string();
    config.corsOrigins = {"https://board.example"};
    LiveServer live(config);
    HttpClient client(live.port());
    auto varies = [](const HttpResult& result, const std::string& name) {
        return result.header("Vary").find(name) != std::string::npos;
    };

    const auto cross = client.request(
        verb::get, "/", "", {{"Origin", "https://board.example"}, {"Accept-Encoding", "gzip"}});
    REQUIRE(cross.status == 200);
    CHECK(cross.header("Content-Encoding") == "gzip");
    CHECK(cross.header("Access-Control-Allow-Origin") == "https://board.example");
    CHECK(varies(cross, "Accept-Encoding"));
    CHECK(varies(cross, "Origin"));

    const auto plain = client.request(verb::get, "/");
    REQUIRE(plain.status == 200);
    CHECK(plain.header("Access-Control-Allow-Origin").empty());
    CHECK(varies(plain, "Accept-Encoding"));
    CHECK(varies(plain, "Origin"));

    const auto api = client.request(verb::get, "/api/v1/engine");
    REQUIRE(api.status == 200);
    CHECK(api.header("Vary") == "Origin");
}
