#include "handlers/engine_info_handler.h"

#include "core/cpu.h"
#include "engine.h"
#include "games/engine_replies.h"
#include "http/json_response.h"
#include "search/levels.h"

namespace outpost::server {

nlohmann::json engineInfoJson(const ServerConfig& config, const std::string& fingerprint) {
    nlohmann::json techniques = nlohmann::json::array();
    for (const auto& [name, on] : SearchConfig{}.list())
        techniques.push_back({{"name", name}, {"default", on}});

    nlohmann::json levels = nlohmann::json::array();
    for (int level = search::kMinLevel; level <= search::kMaxLevel; ++level) {
        const search::LevelSettings settings = search::levelSettings(level);
        nlohmann::json entry = {{"level", level},
                                {"elo", search::levelElo(level)},
                                {"movetimeMs", levelMovetimeMs(level)},
                                {"candidates", settings.multiPv},
                                {"marginCp", settings.marginCp}};
        // Null: the level sets no cap of that kind (only the move time limits it).
        entry["depth"] = settings.depth > 0 ? nlohmann::json(settings.depth) : nlohmann::json();
        entry["nodes"] = settings.nodes > 0 ? nlohmann::json(settings.nodes) : nlohmann::json();
        levels.push_back(std::move(entry));
    }

    return {{"name", kEngineName},
            {"version", kEngineVersion},
            // Changes with the network or any search change (search/fingerprint.h); the
            // analysis cache answers only with analyses of this fingerprint.
            {"fingerprint", fingerprint},
            {"techniques", std::move(techniques)},
            {"levels", std::move(levels)},
            {"limits",
             {{"maxDepth", config.maxDepth},
              {"maxNodes", config.maxNodes},
              {"maxMovetimeMs", config.maxMovetimeMs},
              {"maxMultiPv", config.maxMultiPv},
              {"defaultMovetimeMs", config.defaultMovetimeMs}}},
            {"searchThreads", config.effectiveSearchThreads()},
            // The code paths this process picked for its CPU at start (engine/core/cpu.h).
            {"cpu",
             {{"kernel", kernelName(cpuChoice().kernel)},
              {"sliders", slidersName(cpuChoice().sliders)}}}};
}

Response handleEngineInfo(const Request& request, const ServerContext& context) {
    return jsonFor(request, http::status::ok, engineInfoJson(context.config, context.fingerprint));
}

}  // namespace outpost::server
