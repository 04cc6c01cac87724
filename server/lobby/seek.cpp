#include "lobby/seek.h"

#include <algorithm>

#include "errors/error_codes.h"
#include "games/game_clock.h"

namespace outpost::server {

namespace {

nlohmann::json clockJson(const std::optional<SeekClock>& clock) {
    if (!clock) return nullptr;
    return {{"initial", clock->initialMs}, {"increment", clock->incrementMs}};
}

}  // namespace

std::string seekStatus(const Seek& seek, std::int64_t nowMs, const SeekTiming& timing) {
    if (seek.state != "open") return seek.state;
    if (nowMs - seek.createdAtMs > timing.maxAgeMs) return "expired";
    if (nowMs - seek.seenAtMs > timing.graceMs) return "expired";
    return "open";
}

std::variant<Seek, ApiError> parseSeekRequest(const nlohmann::json& body) {
    if (auto error = rejectUnknownFields(body, {"clock", "color"}, "the seek")) return *error;
    Seek seek;
    if (body.contains("clock") && !body.at("clock").is_null()) {
        auto asked = parseClockRequest(body.at("clock"));
        if (auto* error = std::get_if<ApiError>(&asked)) return *error;
        const auto [initial, increment] = std::get<ClockRequest>(asked);
        seek.clock = SeekClock{initial, increment};
    }
    if (body.contains("color") && !body.at("color").is_null()) {
        if (!body.at("color").is_string()) return badRequest("'color' must be a string");
        seek.color = body.at("color").get<std::string>();
        if (seek.color != "white" && seek.color != "black" && seek.color != "random") {
            return unprocessable(errors::invalid_value, "'color' must be white, black or random");
        }
    }
    return seek;
}

SeekDoc toSeekDoc(const Seek& seek, const SeekTiming& timing) {
    nlohmann::json doc = {{"tokenHash", seek.tokenHash},
                          {"clientKey", seek.clientKey},
                          {"clock", clockJson(seek.clock)},
                          {"color", seek.color},
                          {"createdAtMs", seek.createdAtMs},
                          {"seenAtMs", seek.seenAtMs},
                          {"state", seek.state},
                          {"closedAtMs", seek.closedAtMs},
                          {"gameId", seek.gameId},
                          {"seekerSide", seek.seekerSide}};
    SeekDoc stored;
    stored.id = seek.id;
    stored.version = seek.version;
    stored.open = seek.state == "open";
    stored.createdAtMs = seek.createdAtMs;
    stored.expiresAtMs = stored.open ? seek.createdAtMs + timing.maxAgeMs + kClosedSeekKeepMs
                                     : seek.closedAtMs + kClosedSeekKeepMs;
    stored.doc = doc.dump();
    stored.clientKey = seek.clientKey;
    // An open seek counts against its client while its seeker may still be there.
    stored.liveUntilMs =
        stored.open ? std::min(seek.seenAtMs + timing.graceMs, seek.createdAtMs + timing.maxAgeMs)
                    : 0;
    return stored;
}

std::optional<Seek> fromSeekDoc(const SeekDoc& stored) {
    const nlohmann::json doc = nlohmann::json::parse(stored.doc, nullptr, false);
    if (!doc.is_object()) return std::nullopt;
    try {
        Seek seek;
        seek.id = stored.id;
        seek.version = stored.version;
        seek.tokenHash = doc.at("tokenHash").get<std::string>();
        seek.clientKey = doc.at("clientKey").get<std::string>();
        if (doc.contains("clock") && doc.at("clock").is_object()) {
            seek.clock = SeekClock{doc.at("clock").at("initial").get<std::int64_t>(),
                                   doc.at("clock").at("increment").get<std::int64_t>()};
        }
        seek.color = doc.at("color").get<std::string>();
        seek.createdAtMs = doc.at("createdAtMs").get<std::int64_t>();
        seek.seenAtMs = doc.at("seenAtMs").get<std::int64_t>();
        seek.state = doc.at("state").get<std::string>();
        seek.closedAtMs = doc.at("closedAtMs").get<std::int64_t>();
        seek.gameId = doc.at("gameId").get<std::string>();
        seek.seekerSide = doc.at("seekerSide").get<std::string>();
        return seek;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

nlohmann::json publicSeekJson(const Seek& seek, std::int64_t nowMs) {
    return {{"id", seek.id},
            {"clock", clockJson(seek.clock)},
            {"color", seek.color},
            {"createdAt", seek.createdAtMs},
            {"age", std::max<std::int64_t>(0, nowMs - seek.createdAtMs)}};
}

nlohmann::json ownerSeekJson(const Seek& seek, std::int64_t nowMs, const SeekTiming& timing,
                             const std::string& token) {
    nlohmann::json json = publicSeekJson(seek, nowMs);
    json["status"] = seekStatus(seek, nowMs, timing);
    if (seek.state == "accepted") {
        json["gameId"] = seek.gameId;
        json["playerSide"] = seek.seekerSide;
        json["playerToken"] = token;
    }
    return json;
}

std::string seekerSide(const Seek& seek, bool coin) {
    if (seek.color == "white" || seek.color == "black") return seek.color;
    return coin ? "white" : "black";
}

}  // namespace outpost::server
