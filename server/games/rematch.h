// Rematch once a game is over (docs/play.md, "Rematch"), with Lichess's offer semantics: a side
// offers by saying yes (POST /api/v1/games/{id}/rematch/yes) and the other accepts by saying yes
// too; no (/rematch/no) declines the other's offer or withdraws one's own. Against the engine yes
// makes the rematch at once.
//
// The new game has the colours swapped, the same start position, clock and engine settings (its
// side swapped, its level kept), and each player's token of the old game moves that player's new
// colour: the new game takes the old one's token hashes, swapped. The old game keeps the offer
// (GameRecord::rematchOffer), then the new game's id (rematchGameId); its Game JSON and gameState
// show them as "rematch": {"offeredBy"} / {"gameId"}.
//
// The rules are pure functions (the tests use them directly); RematchService loads, authorizes,
// stores (compare-and-set, published) and makes the new game. Call it on the store executor.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "errors/api_error.h"
#include "errors/client_info.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

enum class RematchStep { Unchanged, Offered, Withdrawn, Declined, Accept, Made };

// What an answer does to `game` (the old game): an error (the game unchanged), or the step.
// Offered, Withdrawn and Declined change game (version bumped, updatedAtMs = nowMs); Accept asks
// the caller to make the new game (rematchNewGame) and record it; Made: the rematch exists
// already (its id is in game.rematchGameId).
std::variant<RematchStep, ApiError> applyRematchAnswer(GameRecord& game, bool white, bool yes,
                                                       std::int64_t nowMs);

// The rematch of `old`: a new id, colours (and token hashes, and the engine's side) swapped, the
// same start position, clock and engine level, no moves.
GameRecord rematchNewGame(const GameRecord& old, std::int64_t nowMs);

struct RematchReply {
    GameRecord game;                    // the old game at its new version
    std::optional<GameRecord> created;  // the new game, when this answer made (or found) it
};
using RematchOutcome = std::variant<RematchReply, ApiError>;

class RematchService {
  public:
    explicit RematchService(ServerContext& context) : context_(context) {}

    RematchOutcome answer(const std::string& id, const std::optional<std::string>& token, bool yes,
                          const ClientInfo& client);

  private:
    ServerContext& context_;
};

}  // namespace outpost::server
