// The board page: GET/HEAD of a file of the web root ("/" is index.html), from the in-memory
// table of web/static_files.h, with validators. Content-hashed assets are cached for a year
// (`public, max-age=31536000, immutable`); every other file (index.html) is revalidated
// (`no-cache`) with its ETag, and If-None-Match answers 304. Text is sent gzipped to a client
// that accepts gzip (`Vary: Accept-Encoding`). 404 for a missing file and for a path that tries
// to leave the root.
//
// Runs on the I/O thread that read the request: a lookup in the in-memory table, no disk, no
// mutex, no store. The body is the table's own bytes, shared with the answer (held until it is
// written), never copied per request.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "http/http_types.h"
#include "web/static_files.h"

namespace outpost::server {

inline constexpr const char* kImmutableCacheControl = "public, max-age=31536000, immutable";
inline constexpr const char* kRevalidateCacheControl = "no-cache";

// What a static GET or HEAD is answered with: `head` alone (304, 404, HEAD) or `head` followed
// by `body` (a 200 to GET), a file's bytes in the table; `head` then has Content-Length set.
struct StaticAnswer {
    Response head;
    std::shared_ptr<const std::string> body;
};

StaticAnswer handleStaticFile(const Request& request, const StaticFiles& files);

// Sends an answer through the sink (respondShared when it has a body).
void sendStaticAnswer(StaticAnswer answer, ResponseSink& sink);

// Whether an Accept-Encoding value accepts gzip (listed, and not with q=0).
bool acceptsGzip(std::string_view acceptEncoding);
// Whether an If-None-Match value names `etag` (or is "*"); weak tags compare by their value.
bool etagMatches(std::string_view ifNoneMatch, std::string_view etag);

}  // namespace outpost::server
