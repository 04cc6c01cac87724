#include "store/game_record_json.h"

#include "ops/tokens.h"

namespace outpost::server {

namespace {

nlohmann::json limitsToJson(const LimitsSpec& limits) {
    nlohmann::json json = nlohmann::json::object();
    if (limits.depth) json["depth"] = *limits.depth;
    if (limits.movetimeMs) json["movetime"] = *limits.movetimeMs;
    if (limits.nodes) json["nodes"] = *limits.nodes;
    return json;
}

LimitsSpec limitsFromJson(const nlohmann::json& json) {
    LimitsSpec limits;
    if (json.contains("depth")) limits.depth = json.at("depth").get<int>();
    if (json.contains("movetime")) limits.movetimeMs = json.at("movetime").get<std::int64_t>();
    if (json.contains("nodes")) limits.nodes = json.at("nodes").get<std::uint64_t>();
    return limits;
}

}  // namespace

nlohmann::json toStoredJson(const GameRecord& game) {
    nlohmann::json engine = {{"side", game.engine.side}};
    if (game.engine.level) engine["level"] = *game.engine.level;
    if (game.engine.limits) engine["limits"] = limitsToJson(*game.engine.limits);
    nlohmann::json json = {
        {"id", game.id},
        {"whiteTokenSha256", game.whiteTokenHash},
        {"blackTokenSha256", game.blackTokenHash},
        {"initialFen", game.initialFen},
        {"moves", game.moves},
        {"status", game.status},
        {"result", game.result},
        {"reason", game.reason},
        {"winner", game.winner},
        {"engine", engine},
        {"version", game.version},
        {"createdAtMs", game.createdAtMs},
        {"updatedAtMs", game.updatedAtMs},
    };
    if (!game.drawOffer.empty()) json["drawOffer"] = game.drawOffer;
    if (!game.takebackOffer.empty()) json["takebackOffer"] = game.takebackOffer;
    if (game.clock) {
        const ClockState& c = *game.clock;
        json["clock"] = {{"initialMs", c.initialMs},
                         {"incrementMs", c.incrementMs},
                         {"whiteMs", c.whiteMs},
                         {"blackMs", c.blackMs},
                         {"turnStartedAtMs", c.turnStartedAtMs},
                         {"running", c.running}};
    }
    if (!game.moveClocksMs.empty()) json["moveClocksMs"] = game.moveClocksMs;
    if (!game.rematchOffer.empty()) json["rematchOffer"] = game.rematchOffer;
    if (!game.rematchGameId.empty()) json["rematchGameId"] = game.rematchGameId;
    if (game.firstMoveMs > 0) json["firstMoveMs"] = game.firstMoveMs;
    return json;
}

GameRecord gameRecordFromStoredJson(const nlohmann::json& json) {
    GameRecord game;
    game.id = json.at("id").get<std::string>();
    game.whiteTokenHash = json.value("whiteTokenSha256", "");
    game.blackTokenHash = json.value("blackTokenSha256", "");
    game.initialFen = json.at("initialFen").get<std::string>();
    game.moves = json.at("moves").get<std::vector<std::string>>();
    game.status = json.at("status").get<std::string>();
    game.result = json.at("result").get<std::string>();
    game.reason = json.value("reason", "");
    game.winner = json.value("winner", "");
    game.drawOffer = json.value("drawOffer", "");
    game.takebackOffer = json.value("takebackOffer", "");
    game.rematchOffer = json.value("rematchOffer", "");
    game.rematchGameId = json.value("rematchGameId", "");
    const auto& engine = json.at("engine");
    game.engine.side = engine.at("side").get<std::string>();
    if (engine.contains("level")) game.engine.level = engine.at("level").get<int>();
    if (engine.contains("limits")) game.engine.limits = limitsFromJson(engine.at("limits"));
    if (game.whiteTokenHash.empty() && game.blackTokenHash.empty() &&
        json.contains("playerToken")) {
        // Stored before tokens were per side and hashed: one plain token moved every side a
        // person plays. It still does (hashed now; the next write stores only the hashes).
        const std::string hash = tokenHash(json.at("playerToken").get<std::string>());
        if (game.engine.side != "white") game.whiteTokenHash = hash;
        if (game.engine.side != "black") game.blackTokenHash = hash;
    }
    game.version = json.at("version").get<std::uint64_t>();
    game.createdAtMs = json.value("createdAtMs", std::int64_t{0});
    game.updatedAtMs = json.value("updatedAtMs", std::int64_t{0});
    if (json.contains("clock")) {
        const auto& c = json.at("clock");
        game.clock = ClockState{
            c.at("initialMs").get<std::int64_t>(),       c.at("incrementMs").get<std::int64_t>(),
            c.at("whiteMs").get<std::int64_t>(),         c.at("blackMs").get<std::int64_t>(),
            c.at("turnStartedAtMs").get<std::int64_t>(), c.at("running").get<bool>()};
    }
    // Absent in records stored before each move's clock was kept.
    if (json.contains("moveClocksMs"))
        game.moveClocksMs = json.at("moveClocksMs").get<std::vector<std::int64_t>>();
    game.firstMoveMs = json.value("firstMoveMs", std::int64_t{0});
    return game;
}

std::optional<GameRecord> parseStoredGame(std::string_view doc) {
    try {
        return gameRecordFromStoredJson(nlohmann::json::parse(doc));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace outpost::server
