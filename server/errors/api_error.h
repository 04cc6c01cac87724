// An error as the API reports it: status, code, message (and Retry-After for 429/503). Neutral of
// any transport: http/api_error_response.h turns one into an HTTP response.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace outpost::server {

// The statuses services report, valued as their HTTP numbers (the API's vocabulary).
enum class ErrorStatus : unsigned {
    bad_request = 400,
    unauthorized = 401,
    forbidden = 403,
    not_found = 404,
    conflict = 409,
    payload_too_large = 413,
    unprocessable_entity = 422,
    too_many_requests = 429,
    internal_server_error = 500,
    service_unavailable = 503,
};

struct ApiError {
    ApiError() = default;
    ApiError(ErrorStatus s, std::string c, std::string m,
             std::optional<int> retryAfter = std::nullopt)
        : status(s), code(std::move(c)), message(std::move(m)), retryAfterSeconds(retryAfter) {}

    ErrorStatus status = ErrorStatus::bad_request;
    std::string code;
    std::string message;
    std::optional<int> retryAfterSeconds;
};

// The seconds a 503 from an unavailable store asks the client to wait (Retry-After).
inline constexpr int kRetryAfterUnavailableSeconds = 1;

// The common shapes, so no file writes its own copy: 400 bad_request, 409 and 422 with `code`.
ApiError badRequest(std::string message);
ApiError conflict(std::string code, std::string message);
ApiError unprocessable(std::string code, std::string message);

// A piece of the client's input quoted in an error message ('e4'), cut to its first
// kMaxQuotedInput bytes (at a character boundary, with "..." after it): a message names what was
// refused without echoing a whole oversized field back.
inline constexpr std::size_t kMaxQuotedInput = 40;
std::string quotedInput(std::string_view text);

// `text` as JSON, discarded (is_discarded()) when it is not JSON or when one of its objects names
// a key twice: `duplicateKey` then holds that key. RFC 8259 4 leaves such an object's meaning to
// the reader (I-JSON, RFC 7493 2.3, forbids it): read as its last value here, it may be read as
// the first by a proxy, a log or a client library, so a request never means two things.
nlohmann::json parseJsonText(std::string_view text, std::string& duplicateKey);

// Parses a request body as a JSON object: 400 bad_json when it is not JSON (or names a key twice
// in one object), 400 bad_request when it is not an object. An empty body is an empty object (all
// fields optional).
std::variant<nlohmann::json, ApiError> parseJsonObject(std::string_view body);

// 400 bad_request naming the first key of `object` not in `allowed`.
std::optional<ApiError> rejectUnknownFields(const nlohmann::json& object,
                                            std::initializer_list<std::string_view> allowed,
                                            std::string_view where);

}  // namespace outpost::server
