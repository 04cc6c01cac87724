#include "errors/api_error.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

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

nlohmann::json parseJsonText(std::string_view text, std::string& duplicateKey) {
    using Event = nlohmann::json::parse_event_t;
    duplicateKey.clear();
    bool duplicate = false;
    std::vector<std::unordered_set<std::string>> openObjects;  // the keys of each, innermost last
    const nlohmann::json::parser_callback_t noteKeys = [&](int, Event event,
                                                           nlohmann::json& parsed) {
        if (event == Event::object_start) {
            openObjects.emplace_back();
        } else if (event == Event::object_end) {
            if (!openObjects.empty()) openObjects.pop_back();
        } else if (event == Event::key && !openObjects.empty() && !duplicate) {
            std::string key = parsed.get<std::string>();
            if (!openObjects.back().insert(key).second) {
                duplicate = true;
                duplicateKey = std::move(key);
            }
        }
        return true;
    };
    nlohmann::json json = nlohmann::json::parse(text, noteKeys, false);
    if (duplicate) return nlohmann::json(nlohmann::json::value_t::discarded);
    return json;
}

std::variant<nlohmann::json, ApiError> parseJsonObject(std::string_view body) {
    if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        return nlohmann::json::object();
    }
    std::string duplicateKey;
    nlohmann::json json = parseJsonText(body, duplicateKey);
    if (json.is_discarded()) {
        return ApiError{
            ErrorStatus::bad_request, errors::bad_json,
            duplicateKey.empty()
                ? std::string("the body is not valid JSON")
                : "the body names the key " + quotedInput(duplicateKey) + " twice in one object"};
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
