// Starting and finding reviews, shared by the REST handlers and the WebSocket protocol: request
// validation (the game or the pasted PGN / FEN + moves, the limits), admission (the registry's
// bounds: 429 per client, 503 overall), reuse (one review per game version: a running one is
// joined, a finished one is returned), and lookups that fall back to the store.
//
// Call on the store executor (the methods read the store), never on an I/O thread.
#pragma once

#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "errors/api_error.h"
#include "errors/client_info.h"
#include "review/review_run.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

// Games with more plies than this are not reviewed (413 too_large).
inline constexpr std::size_t kMaxReviewPlies = 1200;

struct ReviewHandle {
    std::shared_ptr<ReviewRun> run;  // set while this replica runs it (or ran it lately)
    nlohmann::json review;           // the Review now
    bool started = false;            // this call started it
    bool running() const { return review.value("status", "") == "running"; }
};

using ReviewResult = std::variant<ReviewHandle, ApiError>;

class ReviewService {
  public:
    explicit ReviewService(ServerContext& context) : context_(context) {}

    // POST /api/v1/games/{id}/review: `body` {limits?} (plus `extraFields`).
    ReviewResult startForGame(const std::string& gameId, const nlohmann::json& body,
                              const ClientInfo& client,
                              std::initializer_list<std::string_view> extraFields = {});
    // POST /api/v1/review: `body` {pgn} or {fen?, moves}, limits? (plus `extraFields`).
    ReviewResult startPasted(const nlohmann::json& body, const ClientInfo& client,
                             std::initializer_list<std::string_view> extraFields = {});
    // GET /api/v1/reviews/{id}: running here, or stored.
    ReviewResult find(const std::string& reviewId);
    // GET /api/v1/games/{id}/review: the review kept for the game.
    ReviewResult findForGame(const std::string& gameId);
    // POST /api/v1/reviews/{id}/stop: a review running here is stopped; a finished one is
    // returned as it is.
    ReviewResult stop(const std::string& reviewId);
    // The PGN export's review (?review=1): one of the game's current version that ended on this
    // replica (announced before its store write ends), else the one the store keeps; none when
    // neither has one.
    std::optional<nlohmann::json> keptForGame(const GameRecord& game);
    // The game's `review` in GET /api/v1/games/{id}: {id, status, gameVersion} of the review
    // findForGame answers, null when none; nullopt when the store could not say (unavailable,
    // or its review unreadable).
    std::optional<nlohmann::json> summaryForGame(const GameRecord& game);

  private:
    // The review of `game`'s current version: the one running on this replica (with
    // `finishedOnly`, only once it is finished), else the one the store keeps; else NotFound, or
    // why the store could not say. (findForGame, keptForGame and summaryForGame read it.)
    std::variant<ReviewHandle, StoreStatus> reviewOfGame(const GameRecord& game, bool finishedOnly);
    ReviewResult startRun(const std::string& id, const std::string& gameId,
                          std::uint64_t gameVersion, std::shared_ptr<const review::ReviewGame> game,
                          const nlohmann::json& limits, const ClientInfo& client);

    ServerContext& context_;
};

// "<gameId>.<version>": a stored game's review id (game ids never hold a dot).
std::string gameReviewId(const std::string& gameId, std::uint64_t version);

}  // namespace outpost::server
