// The game actions on top of the store: create, move, engine move, takeback, resign, with tokens
// and the one "load, change, compare-and-set, publish" step (update) every change goes through.
// The rules themselves are elsewhere: moves and clocks (games/move_rules.h), the endings
// (games/finisher.h), the takeback (games/undo.h), whose turn (games/sides.h); so are the
// engine's replies (games/engine_replies.h) and the deadlines (games/deadlines.h).
// Shared by the REST handlers and the WebSocket protocol. Stateless: construct one per use.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "errors/api_error.h"
#include "errors/client_info.h"
#include "games/chess_rules.h"
#include "games/finisher.h"
#include "games/move_rules.h"
#include "games/sides.h"
#include "search/search_pool.h"
#include "server_context.h"
#include "store/game_record.h"

namespace outpost::server {

struct GameReply {
    GameRecord game;
    nlohmann::json engineMove;   // null unless the engine moved
    bool enginePending = false;  // the move is stored; the engine's reply comes later (202)
};

using GameOutcome = std::variant<GameReply, ApiError>;

// A new game and its secrets, which exist only in this answer (the store keeps their hashes).
struct CreatedGame {
    GameRecord game;
    std::string playerToken;  // moves the creator's side (between people: the colour asked for)
    std::string playerSide;   // "white" | "black"
    std::string inviteToken;  // people on both sides: moves the other side, for the invited player
};
using GameDone = std::function<void(GameOutcome)>;

// A new game checked and built from a creation's body (GameService::prepare): not stored, with
// neither an id nor tokens yet.
struct NewGame {
    GameRecord game;
    bool creatorWhite = true;  // the side the creator's playerToken moves
};

// What a new game is stored under: its id and its secrets (inviteToken serves only between
// people). Fresh ones are random; a creation retried with its Idempotency-Key reuses the first
// attempt's (games/idempotent_create.h).
struct GameIdentity {
    std::string id;
    std::string playerToken;
    std::string inviteToken;
    static GameIdentity fresh();
};

// A change of a loaded game (GameService::update): an error refuses it (nothing is stored); a
// change that leaves the version as it was stores nothing.
using GameChange = std::function<std::optional<ApiError>(GameRecord& game)>;

class GameService {
  public:
    explicit GameService(ServerContext& context) : context_(context) {}

    // A game created from a request's body (POST /api/v1/games), in two halves. prepare:
    // validates the body and builds the game (a coin decides a "random" colour), storing nothing.
    // storeNew: admits it (against the engine), stores it under `identity` (AlreadyExists when the
    // id is taken: 500 internal), starts the engine if it moves first; `stored`, when given, gets
    // the store's answer to the write (untouched when refused before it).
    std::variant<NewGame, ApiError> prepare(const nlohmann::json& body);
    std::variant<CreatedGame, ApiError> storeNew(NewGame prepared, const GameIdentity& identity,
                                                 const ClientInfo& client,
                                                 StoreStatus* stored = nullptr);

    // The stored game; a flag that fell since the last change is recorded first.
    std::variant<GameRecord, ApiError> load(const std::string& id);
    // load(), read by whoever holds `token` (none, or a wrong one: anyone may read a game): a
    // player's read is a sign of life of its side, as any request with its token is (a client
    // that only polls over REST is present while it polls).
    std::variant<GameRecord, ApiError> loadReadBy(const std::string& id,
                                                  const std::optional<std::string>& token);
    // Refuses a new game against the engine while the searchers fall behind the running games.
    std::optional<ApiError> admitNewGame() const;
    // Counts the game as active against the engine (ActiveGames), or no longer once it ended.
    // `owner`: the client that created it (at creation), so one client's games count only up to
    // perClientEngineGames.
    void noteActivity(const GameRecord& game, const std::string& owner = {});
    // How many of one client's active games count against the replica's `limit`.
    std::size_t perClientEngineGames(std::size_t limit) const;

    // `token`: nullopt when the client sent none (401); a wrong one is 403.
    // `done` is called once, on this thread or on a searcher thread. It answers as soon as the
    // move is stored (the engine's reply, when one is owed, is searched meanwhile and reaches
    // the game's subscribers); `waitForEngine`: after the engine's reply, with engineMove.
    void move(const std::string& id, const std::optional<std::string>& token,
              const std::string& moveText, std::optional<std::uint64_t> version, bool waitForEngine,
              const ClientInfo& client, GameDone done);
    void engineMove(const std::string& id, const std::optional<std::string>& token,
                    const std::optional<LimitsSpec>& limits, const ClientInfo& client,
                    GameDone done);
    std::variant<GameRecord, ApiError> takeback(const std::string& id,
                                                const std::optional<std::string>& token);
    std::variant<GameRecord, ApiError> resign(const std::string& id,
                                              const std::optional<std::string>& token);

    // The event bus was cut off and subscribed to game `id` again: sends the game as stored to
    // its subscribers (a feed forwards it only when it is newer than what it sent), since the
    // events published meanwhile were lost. Call on the store executor.
    void resendGame(const std::string& id);

    // What a token is asked to do. Against the engine the one token does everything; between
    // people each side has its own token: a move (or engine-move) needs the side to move's, a
    // takeback the side that moved last's; Play (a resignation, an offer, a claim, a chat line,
    // a rematch) either side's (the caller works out which).
    enum class TokenUse { Move, Takeback, Play };

    // The game, when `token` may do `use` (its side shows life), with its presence: to read.
    std::variant<GameRecord, ApiError> loadForPlayer(const std::string& id,
                                                     const std::optional<std::string>& token,
                                                     TokenUse use = TokenUse::Play) {
        return loadAuthorized(id, token, use);
    }

    // The one write step of every change a player asks for: load (as loadForPlayer), change,
    // compare-and-set (stored only if the game is still at the loaded version), publish (and
    // watch its deadlines). `change` refuses with an error, or changes the game (counting the
    // change: games/finisher.h markChanged) or leaves it as it is (nothing stored). A lost
    // compare-and-set starts again from a fresh load, `attempts` times in all; the last one's
    // conflict is the answer (409 version_conflict). The game as stored, or as it was.
    std::variant<GameRecord, ApiError> update(const std::string& id,
                                              const std::optional<std::string>& token, TokenUse use,
                                              const GameChange& change, int attempts = 1);

    // The compare-and-set half of update, for the server's own changes (the engine's move, a
    // flag fall): stores `updated` if the game is still at expectedVersion, then publishes it
    // and watches its deadlines (games/deadlines.h). A player's change goes through update.
    std::optional<ApiError> commit(const GameRecord& updated, std::uint64_t expectedVersion);
    // What follows a stored change (commit's second half): the state published with its
    // presence, its deadlines watched, an ended game's presence and activity let go. Also for a
    // change whose store answer came late (GameDeadlines::settle).
    void announceStored(const GameRecord& updated);

    // A game made elsewhere (a lobby seek accepted, a rematch: lobby/, games/rematch.h): stores
    // `game` as given (the caller sets its id and its tokens' hashes), then starts the engine
    // when it moves first. Fills game.presence.
    std::optional<ApiError> createPrepared(GameRecord& game, const ClientInfo& client);

  private:
    // What storeNew and createPrepared share once the game is built: stores it (`stored`, when
    // given, gets the store's answer), logs it, notes the activity, watches its deadlines and
    // starts the engine when it moves first. An error when the store refused it.
    std::optional<ApiError> storeAndStart(const GameRecord& game, const ClientInfo& client,
                                          StoreStatus* stored);
    // The game's presence as this replica shows it: the sides' signs of life (games/presence.h)
    // and the spectators it serves (games/spectators.h).
    std::optional<GamePresence> presenceOf(const GameRecord& game);
    // A request made with the token of White, Black (or both) is a sign of life of that side,
    // between people while the game goes on; `game` then shows it.
    void noteSignOfLife(GameRecord& game, bool white, bool black);
    std::variant<GameRecord, ApiError> loadAuthorized(const std::string& id,
                                                      const std::optional<std::string>& token,
                                                      TokenUse use);
    ServerContext& context_;
};

}  // namespace outpost::server
