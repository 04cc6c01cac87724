#include "errors/api_error.h"

#include <algorithm>

#include "errors/error_codes.h"

namespace outpost::server {

ApiError badRequest(std::string message) {
    return {ErrorStatus::bad_request, errors::bad_request, std::move(message)};
}

ApiError conflict(std::string code, std::string message) {
    return {ErrorStatus::conflict, std::move(code), std::move(message)};
}

std::string quotedInput(std::string_view text) {
    if (text.size() <= kMaxQuotedInput) return "'" + std::string(text) + "'";
    std::size_t cut = kMaxQuotedInput;
    // Not inside a UTF-8 character: back to the first byte of the one that was cut.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return "'" + std::string(text.substr(0, cut)) + "...'";
}

ApiError unprocessable(std::string code, std::string message) {
    return {ErrorStatus::unprocessable_entity, std::move(code), std::move(message)};
}

std::variant<nlohmann::json, ApiError> parseJsonObject(std::string_view body) {
    if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        return nlohmann::json::object();
    }
    nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded()) {
        return ApiError{ErrorStatus::bad_request, errors::bad_json, "the body is not valid JSON"};
    }
    if (!json.is_object()) {
        return ApiError{ErrorStatus::bad_request, errors::bad_request,
                        "the body must be a JSON object"};
    }
    return json;
}

std::optional<ApiError> rejectUnknownFields(const nlohmann::json& object,
                                            std::initializer_list<std::string_view> allowed,
                                            std::string_view where) {
    for (const auto& [key, value] : object.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            return ApiError{ErrorStatus::bad_request, errors::bad_request,
                            "unknown field " + quotedInput(key) + " in " + std::string(where)};
        }
    }
    return std::nullopt;
}

}  // namespace outpost::server
