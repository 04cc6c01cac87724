#include "analysis/analysis.h"

#include <algorithm>

#include "api/json_types.h"
#include "errors/error_codes.h"
#include "openings/openings.h"

namespace outpost::server {

namespace {

// A positive integer field, or an error: wrong type is malformed (400), a value out of range is
// well-formed but invalid (422).
template <typename T>
std::optional<ApiError> positiveInteger(const nlohmann::json& object, const char* name,
                                        std::optional<T>& out) {
    if (!object.contains(name)) return std::nullopt;
    const auto& value = object.at(name);
    if (value.is_null()) return std::nullopt;
    if (!value.is_number_integer()) {
        return badRequest(std::string("'") + name + "' must be an integer");
    }
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number == 0)
            return unprocessable(errors::invalid_value,
                                 std::string("'") + name + "' must be positive");
        out = number > static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                  ? std::numeric_limits<T>::max()
                  : static_cast<T>(number);
        return std::nullopt;
    }
    const auto number = value.get<std::int64_t>();
    if (number <= 0)
        return unprocessable(errors::invalid_value, std::string("'") + name + "' must be positive");
    out = number > static_cast<std::int64_t>(std::numeric_limits<T>::max())
              ? std::numeric_limits<T>::max()
              : static_cast<T>(number);
    return std::nullopt;
}

std::variant<std::vector<std::string>, ApiError> stringList(const nlohmann::json& object,
                                                            const char* name) {
    std::vector<std::string> out;
    if (!object.contains(name) || object.at(name).is_null()) return out;
    const auto& value = object.at(name);
    if (value.is_string()) {
        // "e2e4 e7e5" is accepted as well as ["e2e4", "e7e5"].
        std::string text = value.get<std::string>();
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find(' ', start);
            if (end == std::string::npos) end = text.size();
            if (end > start) out.push_back(text.substr(start, end - start));
            start = end + 1;
        }
        return out;
    }
    if (!value.is_array())
        return badRequest(std::string("'") + name + "' must be an array of strings");
    for (const auto& item : value) {
        if (!item.is_string()) {
            return badRequest(std::string("'") + name + "' must be an array of strings");
        }
        out.push_back(item.get<std::string>());
    }
    return out;
}

}  // namespace

std::variant<LimitsSpec, ApiError> parseLimits(const nlohmann::json& limits) {
    LimitsSpec spec;
    if (limits.is_null()) return spec;
    if (!limits.is_object()) return badRequest("'limits' must be an object");
    if (auto error = rejectUnknownFields(limits, {"depth", "movetime", "nodes"}, "limits")) {
        return *error;
    }
    if (auto error = positiveInteger(limits, "depth", spec.depth)) return *error;
    if (auto error = positiveInteger(limits, "movetime", spec.movetimeMs)) return *error;
    if (auto error = positiveInteger(limits, "nodes", spec.nodes)) return *error;
    return spec;
}

CappedLimits capLimits(const LimitsSpec& requested, const ServerConfig& config) {
    CappedLimits capped;
    bool clamped = false;
    if (requested.depth) {
        capped.limits.depth = std::min(*requested.depth, config.maxDepth);
        clamped |= *capped.limits.depth != *requested.depth;
        capped.applied["depth"] = *capped.limits.depth;
    }
    if (requested.movetimeMs) {
        capped.limits.movetimeMs = std::min(*requested.movetimeMs, config.maxMovetimeMs);
        clamped |= *capped.limits.movetimeMs != *requested.movetimeMs;
        capped.applied["movetime"] = *capped.limits.movetimeMs;
    }
    if (requested.nodes) {
        capped.limits.nodes = std::min(*requested.nodes, config.maxNodes);
        clamped |= *capped.limits.nodes != *requested.nodes;
        capped.applied["nodes"] = *capped.limits.nodes;
    }
    // --max-depth caps every search, also one that asked for no depth (a search of a bare
    // ending reaches any depth in no time); limitsApplied shows only what was asked.
    if (!capped.limits.depth) capped.limits.depth = config.maxDepth;
    if (requested.empty()) {
        capped.limits.movetimeMs = config.defaultMovetimeMs;
        capped.applied["movetime"] = config.defaultMovetimeMs;
        capped.applied["default"] = true;
    }
    capSearchTime(capped.limits, capped.applied, config);
    capped.applied["clamped"] = clamped;
    return capped;
}

void capSearchTime(SearchLimits& limits, nlohmann::json& applied, const ServerConfig& config) {
    // Whatever the client asked (a depth of 64, a billion nodes, a long clock), no search
    // outlives the movetime cap: it is a deadline for the engine, not a plan.
    limits.maxTimeMs = config.maxMovetimeMs;
    applied["timeCapMs"] = config.maxMovetimeMs;
}

std::optional<ApiError> readFen(const nlohmann::json& body, std::string& fen) {
    fen.clear();
    if (!body.contains("fen") || body.at("fen").is_null()) return std::nullopt;
    if (!body.at("fen").is_string()) return badRequest("'fen' must be a string");
    fen = body.at("fen").get<std::string>();
    if (fen.find_first_not_of(" \t\r\n") == std::string::npos) {
        return unprocessable(errors::invalid_fen,
                             "invalid FEN: 'fen' is empty (leave it out, or null, for the start "
                             "position)");
    }
    return std::nullopt;
}

std::variant<ChessState, ApiError> loadPosition(const std::string& fen,
                                                const std::vector<std::string>& moves,
                                                std::vector<std::string>& uciMoves,
                                                bool refuseAfterEnd) {
    std::string error;
    bool badMove = false;
    auto state = ChessState::load(fen, {}, error, badMove);
    if (!state) return unprocessable(errors::invalid_fen, "invalid FEN: " + error);
    uciMoves.clear();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (refuseAfterEnd) {
            if (const auto end = state->outcome()) {
                const std::string how = end->reason.empty() ? end->status : end->reason;
                return unprocessable(errors::game_over,
                                     "move " + std::to_string(i + 1) + " " + quotedInput(moves[i]) +
                                         ": the game was already over (" + how + ")");
            }
        }
        ParsedMove parsed = state->parse(moves[i]);
        if (parsed.uci.empty()) {
            return unprocessable(errors::illegal_move, "move " + std::to_string(i + 1) + " " +
                                                           quotedInput(moves[i]) + ": " +
                                                           parsed.error);
        }
        state->play(parsed.uci);
        uciMoves.push_back(parsed.uci);
    }
    return std::move(*state);
}

std::optional<ApiError> noMoveToAnalyse(const ChessState& state) {
    if (!state.legalMoves().empty()) return std::nullopt;
    auto end = state.outcome();
    return unprocessable(
        errors::game_over,
        "the position has no legal moves (" + (end ? end->status : std::string("game over")) + ")");
}

std::variant<AnalysisSpec, ApiError> parseAnalysis(
    const nlohmann::json& body, const ServerConfig& config,
    std::initializer_list<std::string_view> extraFields) {
    for (const auto& [key, value] : body.items()) {
        static constexpr std::string_view kFields[] = {"fen",     "moves",       "limits",
                                                       "multipv", "searchmoves", "options"};
        const bool known =
            std::find(std::begin(kFields), std::end(kFields), key) != std::end(kFields) ||
            std::find(extraFields.begin(), extraFields.end(), key) != extraFields.end();
        if (!known) return badRequest("unknown field " + quotedInput(key));
    }
    std::string fen;
    if (auto error = readFen(body, fen)) return *error;
    auto moves = stringList(body, "moves");
    if (auto* error = std::get_if<ApiError>(&moves)) return *error;
    auto searchmoves = stringList(body, "searchmoves");
    if (auto* error = std::get_if<ApiError>(&searchmoves)) return *error;

    auto limits = parseLimits(body.contains("limits") ? body.at("limits") : nlohmann::json());
    if (auto* error = std::get_if<ApiError>(&limits)) return *error;

    AnalysisSpec spec;
    spec.request.multiPv = 1;
    bool multiPvClamped = false;  // more lines asked for than --max-multipv: limitsApplied says so
    if (body.contains("multipv") && !body.at("multipv").is_null()) {
        std::optional<int> multipv;
        if (auto error = positiveInteger(body, "multipv", multipv)) return *error;
        spec.request.multiPv = std::min(*multipv, config.maxMultiPv);
        multiPvClamped = spec.request.multiPv != *multipv;
    }
    if (body.contains("options") && !body.at("options").is_null()) {
        const auto& options = body.at("options");
        if (!options.is_object()) return badRequest("'options' must be an object of booleans");
        SearchConfig searchConfig;
        for (const auto& [name, value] : options.items()) {
            if (!value.is_boolean())
                return badRequest("option '" + name + "' must be true or false");
            if (!searchConfig.set(name, value.get<bool>())) {
                return badRequest("unknown option " + quotedInput(name));
            }
        }
        spec.request.config = searchConfig;
    }

    std::vector<std::string> uciMoves;
    auto state = loadPosition(fen, std::get<std::vector<std::string>>(moves), uciMoves);
    if (auto* error = std::get_if<ApiError>(&state)) return *error;
    auto root = std::make_shared<const ChessState>(std::move(std::get<ChessState>(state)));
    if (auto error = noMoveToAnalyse(*root)) return *error;
    for (const std::string& text : std::get<std::vector<std::string>>(searchmoves)) {
        ParsedMove parsed = root->parse(text);
        if (parsed.uci.empty()) {
            return unprocessable(errors::illegal_move,
                                 "searchmove " + quotedInput(text) + ": " + parsed.error);
        }
        spec.request.limits.searchmoves.push_back(parsed.uci);
    }

    CappedLimits capped = capLimits(std::get<LimitsSpec>(limits), config);
    capped.limits.searchmoves = std::move(spec.request.limits.searchmoves);
    spec.request.limits = std::move(capped.limits);
    spec.limitsApplied = std::move(capped.applied);
    if (spec.request.multiPv > 1) spec.limitsApplied["multipv"] = spec.request.multiPv;
    if (multiPvClamped) spec.limitsApplied["clamped"] = true;
    if (auto opening = openingOf(fen, uciMoves)) spec.opening = openingJson(*opening);
    spec.request.fen = fen;
    spec.request.moves = std::move(uciMoves);
    spec.root = std::move(root);
    return spec;
}

nlohmann::json analysisInfoJson(const SearchInfo& info, const AnalysisSpec& spec) {
    return api::infoJson(info, spec.root->whiteToMove(), spec.root->sanLine(info.pv));
}

nlohmann::json analysisResultJson(const JobOutcome& outcome, const AnalysisSpec& spec) {
    const SearchResult& result = outcome.result;
    const bool white = spec.root->whiteToMove();
    nlohmann::json json = api::infoJson(result.info, white, spec.root->sanLine(result.info.pv));
    json.erase("multipv");
    const bool hasMove = !result.bestmove.empty() && result.bestmove != "0000";
    json["bestmove"] = hasMove ? nlohmann::json(result.bestmove) : nlohmann::json();
    json["san"] = hasMove ? nlohmann::json(spec.root->san(result.bestmove)) : nlohmann::json();
    if (!result.ponder.empty()) json["ponder"] = result.ponder;
    nlohmann::json lines = nlohmann::json::array();
    const std::vector<SearchInfo> fallback{result.info};
    for (const SearchInfo& line : result.lines.empty() ? fallback : result.lines) {
        lines.push_back({{"multipv", line.multipv},
                         {"score", api::scoreJson(line.score, white)},
                         {"depth", line.depth},
                         {"pv", line.pv},
                         {"pvSan", spec.root->sanLine(line.pv)}});
    }
    json["lines"] = std::move(lines);
    json["limitsApplied"] = spec.limitsApplied;
    json["queueWaitMs"] = outcome.timing.queueWaitMs;
    json["searchMs"] = outcome.timing.searchMs;
    json["stopped"] = result.stopped;
    if (!spec.opening.is_null()) json["opening"] = spec.opening;
    // How often each search technique fired, so a client can see what a switch changes.
    nlohmann::json stats = nlohmann::json::object();
    for (const auto& [name, count] : result.stats.counters) stats[name] = count;
    json["stats"] = std::move(stats);
    return json;
}

ApiError admissionError(Admission admission, const ServerConfig& config) {
    switch (admission) {
        case Admission::RateLimited:
            return ApiError{ErrorStatus::too_many_requests, errors::rate_limited,
                            "too many searches from this client (limit " +
                                std::to_string(config.perClientSearches) + ")",
                            config.retryAfterSeconds};
        case Admission::ShuttingDown:
            return ApiError{ErrorStatus::service_unavailable, errors::shutting_down,
                            "the server is shutting down", config.retryAfterSeconds};
        case Admission::Overloaded:
        case Admission::Accepted:
            break;
    }
    return ApiError{ErrorStatus::service_unavailable, errors::overloaded,
                    "all searchers are busy and the queue is full", config.retryAfterSeconds};
}

}  // namespace outpost::server
