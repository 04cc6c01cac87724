// Content negotiation by the Accept header (RFC 9110 12.5.1): which of the media types a route
// can answer with the client takes, and which of them it prefers.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "http/http_types.h"

namespace outpost::server {

inline constexpr std::string_view kMediaJson = "application/json";
inline constexpr std::string_view kMediaNdjson = "application/x-ndjson";

// Every Accept field of `request` as one list (several fields are one comma-separated list,
// RFC 9110 5.3); empty without any.
std::string acceptList(const Request& request);

// The media type of `offered` ("type/subtype", lower case, most preferred by the server first)
// that `accept` (an Accept list) ranks highest; nullopt when it gives every one quality 0 (the
// answer is 406 then). A type's quality is that of the most specific range naming it
// ("type/subtype" before "type/*" before "*/*"; q=1 when not given), 0 when none does. Ties go to
// the type named by the more specific range, then to the one the client lists first, then to
// the server's order. Media type names are case-insensitive; parameters other than q are not
// compared. An empty list, or one with no element that reads as a media range, accepts anything
// (the header is ignored, as RFC 9110 12.5.1 allows for one that is invalid).
std::optional<std::string_view> negotiateMediaType(std::string_view accept,
                                                   std::span<const std::string_view> offered);

}  // namespace outpost::server
