// Offers and endings between people, with the Lichess Board API's semantics (docs/play.md):
// draw offers, takeback requests, abort, and claims against a side that is gone.
//
// A side offers by saying yes (/draw/yes, /takeback/yes) and the other accepts by saying yes
// too; no (/draw/no, /takeback/no) declines the other's offer or withdraws one's own. The game
// keeps the offering side (GameRecord::drawOffer, takebackOffer) until it is answered, withdrawn,
// or a move is played (a move declines it). Against the engine a draw offer is answered at once by
// the rule below, and a takeback needs no consent (as POST /takeback).
//
// The rules are pure functions on a GameRecord (the tests use them directly); OfferService loads,
// authorizes, stores (compare-and-set, published) and, for a draw offered to the engine, asks the
// search pool. Call it on the store executor, never on an I/O thread.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "errors/api_error.h"
#include "errors/client_info.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

// The engine's answer to a draw offer: it accepts when, after at least kEngineDrawMinPlies plies
// (pliesPlayed),
// a search of kEngineDrawSearchNodes nodes (bounded by kEngineDrawSearchMaxMs) scores the
// position at or below kEngineDrawAcceptCp for the engine's own side (a mate against it counts as
// below, a mate for it as above); otherwise it declines. So it never gives away a game it thinks
// it is winning, and takes the half point when it stands worse or the position is level. The
// answer is for the game's version the offer was made at: if the game moved on while the engine
// searched (its reply, a takeback), the offer was answered by that move and is declined
// ("reason": "moved_on").
inline constexpr std::size_t kEngineDrawMinPlies = 40;
inline constexpr int kEngineDrawAcceptCp = 10;
inline constexpr std::uint64_t kEngineDrawSearchNodes = 150'000;
inline constexpr std::int64_t kEngineDrawSearchMaxMs = 1000;

// Whether the engine accepts a draw at `engineCp` (centipawns for the engine's side; a mate is
// given as +/- a large number) after `plies` plies.
bool engineAcceptsDraw(std::size_t plies, int engineCp);
// Plies played in this game: its moves. A game set up from a FEN counts from there, whatever the
// FEN's move number says (anyone may set up a position "at move 90").
std::size_t pliesPlayed(const GameRecord& game);

// The rules. `white`: the side of the player who asks. Each returns an error (the game unchanged)
// or nothing; a change bumps game.version and sets updatedAtMs = nowMs (an answer that changes
// nothing, like offering twice, leaves the version as it was).
std::optional<ApiError> applyDrawAnswer(GameRecord& game, bool white, bool yes, std::int64_t nowMs);
std::optional<ApiError> applyTakebackAnswer(GameRecord& game, bool white, bool yes,
                                            std::int64_t nowMs);
std::optional<ApiError> applyAbort(GameRecord& game, std::int64_t nowMs);
// `game.presence` must be set (GameService::load fills it).
std::optional<ApiError> applyClaim(GameRecord& game, bool white, bool victory, std::int64_t nowMs);

// The game at its new version, and what the answer adds to it (the engine's answer to a draw).
struct OfferReply {
    GameRecord game;
    nlohmann::json extra = nlohmann::json::object();
};
using OfferOutcome = std::variant<OfferReply, ApiError>;
using OfferDone = std::function<void(OfferOutcome)>;

enum class OfferAction { DrawYes, DrawNo, TakebackYes, TakebackNo, Abort, ClaimVictory, ClaimDraw };

class OfferService {
  public:
    explicit OfferService(ServerContext& context) : context_(context) {}

    // `done` is called once: on this thread, or (a draw offered to the engine) on the store
    // executor after the engine's search.
    void act(OfferAction action, const std::string& id, const std::optional<std::string>& token,
             const ClientInfo& client, OfferDone done);

  private:
    void offerDrawToEngine(const GameRecord& game, const std::optional<std::string>& token,
                           const ClientInfo& client, OfferDone done);

    ServerContext& context_;
};

}  // namespace outpost::server
