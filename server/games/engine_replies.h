// The engine's replies in a game: the search for the move the engine owes (its limits from the
// game, its level or its clock), and storing that move when the search ends, if the game is
// still where the search began. A reply that cannot be delivered now is owed: the deadline watch
// (games/deadlines.h) takes it up once it is overdue, on whichever replica reads the game.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "errors/client_info.h"
#include "games/game_service.h"
#include "search/search_pool.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

// An overdue engine reply that could not be started (draining, queue full, store down), or that
// this replica is still computing: look at it again after this long.
inline constexpr std::int64_t kReplyRecheckMs = 1000;

// Thinking time per playing level (1..8) when a game sets no limits and no clock; 0 for any other
// number.
std::int64_t levelMovetimeMs(int level);
// When an owed engine reply counts as overdue: the game's last change, plus the most the engine
// may think for it (its level's or the game's movetime; on a clock, the hard bound of its time
// management; otherwise the time cap), plus --engine-reply-grace.
std::int64_t replyDeadlineMs(const GameRecord& game, const ServerConfig& config);
// The key of the reply a game owes at one version (RepliesInFlight): a search for an older
// version (before a takeback) does not stand for the current one.
std::string replyKey(const std::string& gameId, std::uint64_t version);

class EngineReplies {
  public:
    explicit EngineReplies(ServerContext& context) : context_(context) {}

    // Queues the engine's reply in the search pool. `owed`: a move of the player's is stored
    // and waits for this reply, so a refusal is no error: done() gets the game with
    // enginePending, and the reply is taken up later (GameDeadlines::check).
    void start(const GameRecord& game, const std::optional<LimitsSpec>& limits,
               const ClientInfo& client, bool owed, GameDone done);

  private:
    // The search finished (on the store executor): stores the engine's move if the game is still
    // where the search began.
    void finish(const GameRecord& searched, const JobOutcome& outcome,
                const nlohmann::json& applied, const ClientInfo& client, bool owed, GameDone done);

    ServerContext& context_;
};

}  // namespace outpost::server
