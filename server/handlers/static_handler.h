// The board page: GET/HEAD of a file of the web root ("/" is index.html), from the in-memory
// table of web/static_files.h, with validators. Content-hashed assets are cached for a year
// (`public, max-age=31536000, immutable`); every other file (index.html) is revalidated
// (`no-cache`) with its ETag, and If-None-Match answers 304. Text is sent gzipped to a client
// that accepts gzip (`Vary: Accept-Encoding`). 404 for a missing file and for a path that tries
// to leave the root. Blocks the first time (the table is read): call it off the I/O threads.
#pragma once

#include <string_view>

#include "http/http_types.h"
#include "web/static_files.h"

namespace outpost::server {

inline constexpr const char* kImmutableCacheControl = "public, max-age=31536000, immutable";
inline constexpr const char* kRevalidateCacheControl = "no-cache";

Response handleStaticFile(const Request& request, StaticFiles& files);

// Whether an Accept-Encoding value accepts gzip (listed, and not with q=0).
bool acceptsGzip(std::string_view acceptEncoding);
// Whether an If-None-Match value names `etag` (or is "*"); weak tags compare by their value.
bool etagMatches(std::string_view ifNoneMatch, std::string_view etag);

}  // namespace outpost::server
