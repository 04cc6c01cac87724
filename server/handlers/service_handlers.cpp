#include "handlers/service_handlers.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/openapi_document.h"
#include "http/json_response.h"

namespace outpost::server {

namespace {
// The board page loads only its own files: scripts and style sheets from the server (no inline
// script, no eval, no <style>), images and fonts from itself or data: URIs (the bundle inlines
// them), connections (fetch, WebSocket) to its own origin; no plugins, no framing, no <base>.
// Style attributes are allowed (style-src-attr): the board library sets one on its SVG layer.
constexpr const char* kPageSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
}  // namespace

Response handleHealth(const Request& request) {
    return jsonFor(request, http::status::ok, {{"status", "ok"}});
}

Response handleReady(const Request& request, ServerContext& context) {
    const bool ready = context.ready.load() && !context.draining.load() && context.store->healthy();
    if (ready) return jsonFor(request, http::status::ok, {{"status", "ready"}});
    const char* status = context.draining.load() ? "draining" : "not_ready";
    return jsonFor(request, http::status::service_unavailable, {{"status", status}});
}

Response handleMetrics(const Request& request, ServerContext& context) {
    Response response{http::status::ok, request.version()};
    response.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    response.keep_alive(request.keep_alive());
    response.body() = context.metrics.render(context.gauges());
    response.prepare_payload();
    return response;
}

Response handleOpenApi(const Request& request) {
    Response response{http::status::ok, request.version()};
    response.set(http::field::content_type, "application/yaml");
    response.keep_alive(request.keep_alive());
    response.body() = std::string(api::openApiDocument());
    response.prepare_payload();
    return response;
}

std::string contentTypeFor(const std::string& path) {
    static const std::pair<const char*, const char*> kTypes[] = {
        {".html", "text/html; charset=utf-8"},
        {".htm", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".json", "application/json"},
        {".map", "application/json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".ico", "image/x-icon"},
        {".webp", "image/webp"},
        {".woff", "font/woff"},
        {".woff2", "font/woff2"},
        {".txt", "text/plain; charset=utf-8"},
        {".wasm", "application/wasm"},
        {".yaml", "application/yaml"},
        {".webmanifest", "application/manifest+json"},
    };
    const auto dot = path.rfind('.');
    if (dot != std::string::npos && path.find('/', dot) == std::string::npos) {
        const std::string extension = path.substr(dot);
        for (const auto& [ext, type] : kTypes) {
            if (extension == ext) return type;
        }
    }
    return "application/octet-stream";
}

Response handleStaticFile(const Request& request, const std::string& webRoot) {
    std::string path(request.target());
    path = path.substr(0, path.find_first_of("?#"));
    // No "..", no backslashes, no NULs: the path must stay under the root.
    if (path.empty() || path.front() != '/' || path.find("..") != std::string::npos ||
        path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) {
        return errorFor(request, http::status::not_found, "not_found", "no such file");
    }
    if (path.back() == '/') path += "index.html";
    const std::string fullPath = webRoot + path;
    std::error_code error;
    if (!std::filesystem::is_regular_file(fullPath, error)) {
        return errorFor(request, http::status::not_found, "not_found", "no such file");
    }
    std::ifstream file(fullPath, std::ios::binary);
    if (!file) return errorFor(request, http::status::not_found, "not_found", "no such file");
    std::ostringstream contents;
    contents << file.rdbuf();
    Response response{http::status::ok, request.version()};
    const std::string type = contentTypeFor(path);
    response.set(http::field::content_type, type);
    if (type.rfind("text/html", 0) == 0) {
        response.set("Content-Security-Policy", kPageSecurityPolicy);
    }
    response.keep_alive(request.keep_alive());
    response.body() = contents.str();
    response.prepare_payload();
    if (request.method() == http::verb::head) {
        const auto length = response.body().size();
        response.body().clear();
        response.content_length(length);
    }
    return response;
}

}  // namespace outpost::server
