#include "handlers/cached_analysis_handler.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "analysis/analysis.h"
#include "analysis/analysis_cache.h"
#include "errors/error_codes.h"
#include "handlers/static_handler.h"
#include "http/api_error_response.h"
#include "http/json_response.h"
#include "http/query_string.h"
#include "ops/sha256.h"

namespace outpost::server {

namespace {

constexpr std::size_t kEtagHexDigits = 32;

struct CachedQuery {
    std::string fen;
    int multipv = 1;
};

// multipv: a positive integer (the POST body's rules: not an integer 400, not positive 422,
// above --max-multipv clamped).
constexpr std::size_t kMaxIntDigits = 9;

std::variant<int, ApiError> parseMultipv(const std::string& text, int maxMultiPv) {
    const bool negative = !text.empty() && text.front() == '-';
    std::string digits = text.substr(negative ? 1 : 0);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return badRequest("'multipv' must be an integer");
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    if (negative || digits.empty()) {
        return unprocessable(errors::invalid_value, "'multipv' must be positive");
    }
    if (digits.size() > kMaxIntDigits) return maxMultiPv;
    return std::min(std::stoi(digits), maxMultiPv);
}

std::variant<CachedQuery, ApiError> parseQuery(std::string_view target, int maxMultiPv) {
    const std::optional<QueryParameters> parameters = queryParameters(target);
    if (!parameters) return badRequest("malformed percent-encoding in the query");
    std::optional<std::string> fen;
    std::optional<std::string> multipv;
    for (const auto& [name, value] : *parameters) {
        if (isCacheBuster(name)) continue;
        std::optional<std::string>* slot = name == "fen"       ? &fen
                                           : name == "multipv" ? &multipv
                                                               : nullptr;
        if (!slot) {
            return badRequest("unknown query parameter " + quotedInput(name) +
                              " (expected fen and multipv)");
        }
        if (*slot) return badRequest("query parameter '" + name + "' given twice");
        *slot = value;
    }
    if (!fen || fen->empty()) return badRequest("query parameter 'fen' is required");
    CachedQuery parsed;
    parsed.fen = std::move(*fen);
    if (multipv) {
        auto number = parseMultipv(*multipv, maxMultiPv);
        if (auto* error = std::get_if<ApiError>(&number)) return *error;
        parsed.multipv = std::get<int>(number);
    }
    return parsed;
}

}  // namespace

Response handleCachedAnalysis(ServerContext& context, const Request& request) {
    auto parsed = parseQuery(std::string_view(request.target().data(), request.target().size()),
                             context.config.maxMultiPv);
    if (auto* error = std::get_if<ApiError>(&parsed)) return errorFor(request, *error);
    const CachedQuery& query = std::get<CachedQuery>(parsed);
    std::vector<std::string> noMoves;
    auto position = loadPosition(query.fen, {}, noMoves);
    if (auto* error = std::get_if<ApiError>(&position)) return errorFor(request, *error);
    const ChessState& state = std::get<ChessState>(position);
    // As POST says: a mated or stalemated position has no analysis to make, so none is cached
    // (a 404 would tell the client to POST one).
    if (auto error = noMoveToAnalyse(state)) return errorFor(request, *error);
    const std::string key = analysisCacheKey(state);

    AnalysisCacheRead read = context.analysisCache->get(analysisStoreKey(context.fingerprint, key));
    if (read.status == StoreStatus::Unavailable) {
        return errorFor(request, http::status::service_unavailable, errors::store_unavailable,
                        "the analysis cache is unavailable", kRetryAfterUnavailableSeconds);
    }
    std::optional<nlohmann::json> answer;
    if (read.status == StoreStatus::Ok)
        answer = cachedAnalysisAnswer(read.slots, key, query.multipv, halfmoveClock(state),
                                      analysisCacheNow());
    if (!answer) {
        context.metrics.analysisCacheMiss();
        Response missing =
            errorFor(request, http::status::not_found, errors::not_cached,
                     "no analysis of this position with " + std::to_string(query.multipv) +
                         " line(s) is cached; POST /api/v1/analysis makes one");
        missing.set(http::field::cache_control, "no-cache");
        return missing;
    }
    context.metrics.analysisCacheHit();

    Response response = jsonFor(request, http::status::ok, *answer);
    const std::string etag = "\"" + sha256Hex(response.body()).substr(0, kEtagHexDigits) + "\"";
    const std::string cacheControl =
        "public, max-age=" + std::to_string(kCachedAnalysisMaxAgeSeconds);
    const auto ifNoneMatch = request[http::field::if_none_match];
    if (!ifNoneMatch.empty() &&
        etagMatches(std::string_view(ifNoneMatch.data(), ifNoneMatch.size()), etag)) {
        Response notModified{http::status::not_modified, request.version()};
        notModified.keep_alive(request.keep_alive());
        notModified.set(http::field::etag, etag);
        notModified.set(http::field::cache_control, cacheControl);
        return notModified;
    }
    response.set(http::field::etag, etag);
    response.set(http::field::cache_control, cacheControl);
    if (request.method() == http::verb::head) {
        const auto length = response.body().size();
        response.body().clear();
        response.content_length(length);
    }
    return response;
}

}  // namespace outpost::server
