#include "handlers/static_handler.h"

#include <algorithm>
#include <cctype>

#include "errors/error_codes.h"
#include "http/header_text.h"
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

// The ETag of the gzip form: another representation, so another strong tag.
std::string gzipEtag(const std::string& etag) {
    return etag.substr(0, etag.size() - 1) + "-gzip\"";
}

std::string_view view(boost::beast::string_view value) {
    return {value.data(), value.size()};
}

}  // namespace

bool acceptsGzip(std::string_view acceptEncoding) {
    bool accepted = false;
    forEachListItem(acceptEncoding, [&](std::string_view item) {
        const auto semicolon = item.find(';');
        if (!equalsIgnoringCase(trimHeaderSpace(item.substr(0, semicolon)), "gzip")) return;
        accepted = true;
        if (semicolon == std::string_view::npos) return;
        std::string_view parameter = trimHeaderSpace(item.substr(semicolon + 1));
        if (parameter.size() < 2 || std::tolower(static_cast<unsigned char>(parameter[0])) != 'q' ||
            parameter[1] != '=')
            return;
        parameter.remove_prefix(2);
        // q=0, q=0.0, q=0.000: "not acceptable".
        accepted = !std::all_of(parameter.begin(), parameter.end(),
                                [](char c) { return c == '0' || c == '.'; });
    });
    return accepted;
}

bool etagMatches(std::string_view ifNoneMatch, std::string_view etag) {
    bool matched = false;
    forEachListItem(ifNoneMatch, [&](std::string_view item) {
        if (item.substr(0, 2) == "W/") item.remove_prefix(2);
        if (item == "*" || item == etag) matched = true;
    });
    return matched;
}

StaticAnswer handleStaticFile(const Request& request, const StaticFiles& files) {
    const std::string_view target = view(request.target());
    std::string path(target.substr(0, target.find_first_of("?#")));
    // No "..", no backslashes, no NULs: the path must stay under the root.
    if (path.empty() || path.front() != '/' || path.find("..") != std::string::npos ||
        path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) {
        return {errorFor(request, http::status::not_found, errors::not_found, "no such file"), {}};
    }
    if (path.back() == '/') path += "index.html";
    const auto file = files.find(path.substr(1));
    if (!file) {
        return {errorFor(request, http::status::not_found, errors::not_found, "no such file"), {}};
    }

    const bool gzip =
        !file->gzipped.empty() && acceptsGzip(view(request[http::field::accept_encoding]));
    const std::string etag = gzip ? gzipEtag(file->etag) : file->etag;
    const std::string_view ifNoneMatch = view(request[http::field::if_none_match]);
    const bool notModified =
        !ifNoneMatch.empty() &&
        (etagMatches(ifNoneMatch, file->etag) || etagMatches(ifNoneMatch, gzipEtag(file->etag)));

    Response response{notModified ? http::status::not_modified : http::status::ok,
                      request.version()};
    response.keep_alive(request.keep_alive());
    response.set(http::field::etag, etag);
    response.set(http::field::cache_control,
                 file->immutable ? kImmutableCacheControl : kRevalidateCacheControl);
    if (!file->gzipped.empty()) response.set(http::field::vary, "Accept-Encoding");
    if (notModified) return {std::move(response), {}};

    response.set(http::field::content_type, file->contentType);
    if (file->contentType.rfind("text/html", 0) == 0) {
        response.set("Content-Security-Policy", kPageSecurityPolicy);
    }
    if (gzip) response.set(http::field::content_encoding, "gzip");
    // Shares the file's ownership: the table may be replaced while the answer is written.
    std::shared_ptr<const std::string> body(file, gzip ? &file->gzipped : &file->body);
    response.content_length(body->size());
    if (request.method() == http::verb::head) return {std::move(response), {}};
    return {std::move(response), std::move(body)};
}

void sendStaticAnswer(StaticAnswer answer, ResponseSink& sink) {
    if (answer.body) {
        sink.respondShared(std::move(answer.head), std::move(answer.body));
    } else {
        sink.respond(std::move(answer.head));
    }
}

}  // namespace outpost::server
