#include "games/move_request.h"

#include "errors/error_codes.h"

namespace outpost::server {

std::variant<MoveRequest, ApiError> parseMoveRequest(
    const nlohmann::json& body, std::initializer_list<std::string_view> carrierFields) {
    for (const auto& item : body.items()) {
        const std::string& key = item.key();
        bool known = key == "move" || key == "version" || key == "wait";
        for (std::string_view field : carrierFields) known = known || key == field;
        // The same answer as every other body with a field it does not know (rejectUnknownFields).
        if (!known) return badRequest("unknown field " + quotedInput(key) + " in the move");
    }
    if (!body.contains("move") || !body.at("move").is_string())
        return badRequest("'move' (a UCI or SAN string) is required");
    MoveRequest request;
    request.move = body.at("move").get<std::string>();
    if (body.contains("version") && !body.at("version").is_null()) {
        if (!body.at("version").is_number_unsigned())
            return badRequest("'version' must be a non-negative integer");
        request.version = body.at("version").get<std::uint64_t>();
    }
    if (body.contains("wait") && !body.at("wait").is_null()) {
        if (!body.at("wait").is_boolean()) return badRequest("'wait' must be a boolean");
        request.wait = body.at("wait").get<bool>();
    }
    return request;
}

}  // namespace outpost::server
