#include "review/review_service.h"

#include <algorithm>

#include "analysis/analysis.h"
#include "errors/error_codes.h"
#include "games/game_service.h"
#include "games/pgn_import.h"
#include "ops/tokens.h"
#include "review/review_limits.h"

namespace outpost::server {

namespace {

// Pasted reviews' ids: "p" and 96 random bits (never a dot, unlike a game review's id).
constexpr std::size_t kPastedIdBytes = 12;

ApiError notFound(const std::string& what) {
    return {ErrorStatus::not_found, errors::not_found, what};
}

ApiError storeError(StoreStatus status, const std::string& what) {
    if (status == StoreStatus::NotFound) return notFound(what);
    if (status == StoreStatus::Corrupt) {
        return {ErrorStatus::internal_server_error, errors::corrupt_review,
                "the stored review cannot be read"};
    }
    return {ErrorStatus::service_unavailable, errors::store_unavailable,
            "the game store is unavailable", 1};
}

// A stored Review document, or Corrupt.
std::variant<nlohmann::json, StoreStatus> parseStored(const StoreDocResult& read) {
    if (read.status != StoreStatus::Ok) return read.status;
    nlohmann::json doc = nlohmann::json::parse(read.doc, nullptr, false);
    if (!doc.is_object() || !doc.contains("id") || !doc.contains("status")) {
        return StoreStatus::Corrupt;
    }
    return doc;
}

bool fieldsAllowed(const nlohmann::json& body, std::initializer_list<std::string_view> own,
                   std::initializer_list<std::string_view> extra, ApiError& error) {
    for (const auto& [key, value] : body.items()) {
        const bool known = std::find(own.begin(), own.end(), key) != own.end() ||
                           std::find(extra.begin(), extra.end(), key) != extra.end();
        if (!known) {
            error = badRequest("unknown field " + quotedInput(key));
            return false;
        }
    }
    return true;
}

ApiError tooLarge(std::string message) {
    return {ErrorStatus::payload_too_large, errors::too_large, std::move(message)};
}

}  // namespace

std::string gameReviewId(const std::string& gameId, std::uint64_t version) {
    return gameId + "." + std::to_string(version);
}

ReviewResult ReviewService::startRun(const std::string& id, const std::string& gameId,
                                     std::uint64_t gameVersion,
                                     std::shared_ptr<const review::ReviewGame> game,
                                     const nlohmann::json& limitsJson, const ClientInfo& client) {
    auto limits = parseLimits(limitsJson);
    if (auto* error = std::get_if<ApiError>(&limits)) return *error;
    if (context_.draining.load()) return admissionError(Admission::ShuttingDown, context_.config);
    review::ReviewLimits budget =
        review::reviewLimits(std::get<LimitsSpec>(limits), context_.config);
    review::ReviewState state;
    state.id = id;
    state.gameId = gameId;
    state.gameVersion = gameVersion;
    state.limitsApplied = budget.applied;
    auto admitted = context_.reviews.admit(
        id, client.address, context_.config.perClientReviews, context_.config.maxReviews, [&] {
            return std::make_shared<ReviewRun>(context_, game, std::move(state), budget.limits,
                                               client.address);
        });
    switch (admitted.admission) {
        case ReviewRegistry::Admission::RateLimited:
            context_.metrics.searchRejected("review_rate_limited");
            return ApiError{ErrorStatus::too_many_requests, errors::rate_limited,
                            "this client has " + std::to_string(context_.config.perClientReviews) +
                                " review(s) running already",
                            context_.config.retryAfterSeconds};
        case ReviewRegistry::Admission::Overloaded:
            context_.metrics.searchRejected("review_overloaded");
            return ApiError{ErrorStatus::service_unavailable, errors::overloaded,
                            "the server runs " + std::to_string(context_.config.maxReviews) +
                                " reviews already",
                            context_.config.retryAfterSeconds};
        case ReviewRegistry::Admission::Existing:
            return ReviewHandle{admitted.run, admitted.run->snapshot(), false};
        case ReviewRegistry::Admission::Started:
            break;
    }
    admitted.run->start();
    return ReviewHandle{admitted.run, admitted.run->snapshot(), true};
}

ReviewResult ReviewService::startForGame(const std::string& gameId, const nlohmann::json& body,
                                         const ClientInfo& client,
                                         std::initializer_list<std::string_view> extraFields) {
    ApiError error;
    if (!fieldsAllowed(body, {"limits"}, extraFields, error)) return error;
    auto loaded = GameService(context_).load(gameId);
    if (auto* failed = std::get_if<ApiError>(&loaded)) return *failed;
    const GameRecord& game = std::get<GameRecord>(loaded);
    if (game.moves.size() > kMaxReviewPlies) {
        return tooLarge("the game has more than " + std::to_string(kMaxReviewPlies) + " plies");
    }
    const std::string id = gameReviewId(game.id, game.version);
    // One review per game version: a running one is joined, a finished one is reused; a stopped
    // or failed one is not (it is started again), whether this replica still keeps its run or
    // only the store has it.
    if (auto run = context_.reviews.find(id)) {
        nlohmann::json snapshot = run->snapshot();
        const std::string status = snapshot.value("status", "");
        if (status == "running" || status == "done") {
            return ReviewHandle{run, std::move(snapshot), false};
        }
        context_.reviews.forgetEnded(id, run);
    }
    auto stored = parseStored(context_.store->getGameReview(game.id));
    if (auto* doc = std::get_if<nlohmann::json>(&stored)) {
        if (doc->value("id", "") == id && doc->value("status", "") == "done") {
            return ReviewHandle{nullptr, *doc, false};
        }
    }
    return startRun(id, game.id, game.version, review::makeReviewGame(game.initialFen, game.moves),
                    body.contains("limits") ? body.at("limits") : nlohmann::json(), client);
}

ReviewResult ReviewService::startPasted(const nlohmann::json& body, const ClientInfo& client,
                                        std::initializer_list<std::string_view> extraFields) {
    ApiError error;
    if (!fieldsAllowed(body, {"pgn", "fen", "moves", "limits"}, extraFields, error)) return error;
    const bool hasPgn = body.contains("pgn") && !body.at("pgn").is_null();
    const bool hasMoves = body.contains("moves") && !body.at("moves").is_null();
    if (hasPgn == hasMoves) {
        return badRequest("give either 'pgn' or 'moves' (with an optional 'fen')");
    }
    std::string fen;
    std::vector<std::string> uciMoves;
    if (hasPgn) {
        if (!body.at("pgn").is_string()) return badRequest("'pgn' must be a string");
        if (body.contains("fen") && !body.at("fen").is_null()) {
            return badRequest("'fen' goes with 'moves'; a PGN gives its own [FEN] tag");
        }
        PgnImport imported = importPgn(body.at("pgn").get<std::string>());
        if (!imported.ok()) {
            if (imported.errorCode == errors::too_large) return tooLarge(imported.error);
            return unprocessable(imported.errorCode, imported.error);
        }
        // A text without moves (empty, tags, comments only; a [FEN] tag alone is a position, which
        // POST /api/v1/analysis analyses) has nothing to review.
        if (imported.moves.empty()) {
            return unprocessable(errors::bad_pgn,
                                 "the PGN has no moves: nothing to review (paste a game's "
                                 "movetext; POST /api/v1/analysis analyses a position)");
        }
        fen = imported.initialFen;
        uciMoves = std::move(imported.moves);
    } else {
        if (auto fenError = readFen(body, fen)) return *fenError;
        const auto& moves = body.at("moves");
        if (!moves.is_array()) return badRequest("'moves' must be an array of strings");
        if (moves.empty()) {
            return unprocessable(errors::invalid_value,
                                 "'moves' is empty: a review needs at least one move "
                                 "(POST /api/v1/analysis analyses a position)");
        }
        if (moves.size() > kMaxReviewPlies) {
            return tooLarge("more than " + std::to_string(kMaxReviewPlies) + " moves");
        }
        std::vector<std::string> given;
        for (const auto& move : moves) {
            if (!move.is_string()) return badRequest("'moves' must be an array of strings");
            given.push_back(move.get<std::string>());
        }
        auto loaded = loadPosition(fen, given, uciMoves);
        if (auto* failed = std::get_if<ApiError>(&loaded)) return *failed;
    }
    const std::string id = "p" + randomUrlSafe(kPastedIdBytes);
    return startRun(id, "", 0, review::makeReviewGame(fen, uciMoves),
                    body.contains("limits") ? body.at("limits") : nlohmann::json(), client);
}

ReviewResult ReviewService::find(const std::string& reviewId) {
    if (auto run = context_.reviews.find(reviewId)) {
        return ReviewHandle{run, run->snapshot(), false};
    }
    const std::string missing = "no review " + quotedInput(reviewId);
    const std::size_t dot = reviewId.rfind('.');
    if (dot != std::string::npos) {
        auto stored = parseStored(context_.store->getGameReview(reviewId.substr(0, dot)));
        if (auto* status = std::get_if<StoreStatus>(&stored)) return storeError(*status, missing);
        nlohmann::json& doc = std::get<nlohmann::json>(stored);
        // The game keeps the review of its latest reviewed version only.
        if (doc.value("id", "") != reviewId) return notFound(missing);
        return ReviewHandle{nullptr, std::move(doc), false};
    }
    auto stored = parseStored(context_.store->getReview(reviewId));
    if (auto* status = std::get_if<StoreStatus>(&stored)) return storeError(*status, missing);
    return ReviewHandle{nullptr, std::move(std::get<nlohmann::json>(stored)), false};
}

std::variant<ReviewHandle, StoreStatus> ReviewService::reviewOfGame(const GameRecord& game,
                                                                    bool finishedOnly) {
    // A review of the current version running here is the freshest answer.
    if (auto run = context_.reviews.find(gameReviewId(game.id, game.version));
        run && (!finishedOnly || run->finished())) {
        return ReviewHandle{run, run->snapshot(), false};
    }
    auto stored = parseStored(context_.store->getGameReview(game.id));
    if (auto* status = std::get_if<StoreStatus>(&stored)) return *status;
    return ReviewHandle{nullptr, std::move(std::get<nlohmann::json>(stored)), false};
}

ReviewResult ReviewService::findForGame(const std::string& gameId) {
    auto loaded = GameService(context_).load(gameId);
    if (auto* failed = std::get_if<ApiError>(&loaded)) return *failed;
    auto found = reviewOfGame(std::get<GameRecord>(loaded), false);
    if (auto* status = std::get_if<StoreStatus>(&found)) {
        return storeError(*status, "game " + quotedInput(gameId) + " has no review");
    }
    return std::move(std::get<ReviewHandle>(found));
}

std::optional<nlohmann::json> ReviewService::keptForGame(const GameRecord& game) {
    auto found = reviewOfGame(game, true);
    if (auto* handle = std::get_if<ReviewHandle>(&found)) return std::move(handle->review);
    return std::nullopt;
}

std::optional<nlohmann::json> ReviewService::summaryForGame(const GameRecord& game) {
    auto found = reviewOfGame(game, false);
    if (auto* handle = std::get_if<ReviewHandle>(&found)) {
        const nlohmann::json& review = handle->review;
        return nlohmann::json{
            {"id", review.at("id")},
            {"status", review.at("status")},
            {"gameVersion", review.value("gameVersion", nlohmann::json(nullptr))}};
    }
    if (std::get<StoreStatus>(found) == StoreStatus::NotFound) return nlohmann::json(nullptr);
    return std::nullopt;  // the store could not say
}

ReviewResult ReviewService::stop(const std::string& reviewId) {
    if (auto run = context_.reviews.find(reviewId)) {
        run->stop();
        return ReviewHandle{run, run->snapshot(), false};
    }
    return find(reviewId);
}

}  // namespace outpost::server
