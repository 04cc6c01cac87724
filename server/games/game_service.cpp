#include "games/game_service.h"

#include <random>
#include <utility>

#include "analysis/analysis.h"
#include "analysis/search_record.h"
#include "api/json_types.h"
#include "errors/error_codes.h"
#include "games/deadlines.h"
#include "games/engine_replies.h"
#include "games/finisher.h"
#include "games/game_errors.h"
#include "games/game_view.h"
#include "games/move_rules.h"
#include "games/sides.h"
#include "games/undo.h"
#include "ops/tokens.h"
#include "search/levels.h"
#include "store/clock_deadline.h"

namespace outpost::server {

namespace {

using search::kMaxLevel;
using search::kMinLevel;

}  // namespace

GameIdentity GameIdentity::fresh() {
    return {newGameId(), newPlayerToken(), newPlayerToken()};
}

std::variant<NewGame, ApiError> GameService::prepare(const nlohmann::json& body) {
    if (auto error =
            rejectUnknownFields(body, {"fen", "moves", "engine", "clock", "color"}, "the game")) {
        return *error;
    }
    std::string fen;
    if (auto error = readFen(body, fen)) return *error;
    std::vector<std::string> moves;
    if (body.contains("moves") && !body.at("moves").is_null()) {
        const auto& list = body.at("moves");
        if (!list.is_array()) return badRequest("'moves' must be an array of strings");
        for (const auto& item : list) {
            if (!item.is_string()) return badRequest("'moves' must be an array of strings");
            moves.push_back(item.get<std::string>());
        }
    }

    GameRecord game;
    if (body.contains("engine") && !body.at("engine").is_null()) {
        const auto& engine = body.at("engine");
        if (!engine.is_object()) return badRequest("'engine' must be an object");
        if (auto error = rejectUnknownFields(engine, {"side", "level", "limits"}, "engine"))
            return *error;
        if (engine.contains("side")) {
            if (!engine.at("side").is_string()) return badRequest("'engine.side' must be a string");
            game.engine.side = engine.at("side").get<std::string>();
            if (game.engine.side != "white" && game.engine.side != "black" &&
                game.engine.side != "none") {
                return unprocessable(errors::invalid_value,
                                     "'engine.side' must be white, black or none");
            }
        }
        if (engine.contains("level") && !engine.at("level").is_null()) {
            if (!engine.at("level").is_number_integer())
                return badRequest("'engine.level' must be an integer");
            const auto level = engine.at("level").get<std::int64_t>();
            if (level < kMinLevel || level > kMaxLevel) {
                return unprocessable(errors::invalid_value, "'engine.level' must be 1..8");
            }
            game.engine.level = static_cast<int>(level);
        }
        if (engine.contains("limits") && !engine.at("limits").is_null()) {
            auto limits = parseLimits(engine.at("limits"));
            if (auto* error = std::get_if<ApiError>(&limits)) return *error;
            if (!std::get<LimitsSpec>(limits).empty())
                game.engine.limits = std::get<LimitsSpec>(limits);
        }
    }
    if (body.contains("clock") && !body.at("clock").is_null()) {
        auto asked = parseClockRequest(body.at("clock"));
        if (auto* error = std::get_if<ApiError>(&asked)) return *error;
        const auto [initial, increment] = std::get<ClockRequest>(asked);
        game.clock = ClockState{initial, increment, initial, initial, 0, false};
        // Between people the clocks wait for both first moves, each with its deadline.
        if (game.engine.side == "none") game.firstMoveMs = context_.config.firstMoveDeadlineMs;
    }

    // Between people, the creator's colour: white (the default), black, or random (a coin).
    std::string color = "white";
    if (body.contains("color") && !body.at("color").is_null()) {
        if (!body.at("color").is_string()) return badRequest("'color' must be a string");
        color = body.at("color").get<std::string>();
        if (color != "white" && color != "black" && color != "random") {
            return unprocessable(errors::invalid_value, "'color' must be white, black or random");
        }
        if (game.engine.side != "none") {
            return unprocessable(errors::invalid_value,
                                 "'color' is for games between people; against the engine, "
                                 "'engine.side' decides");
        }
    }
    if (color == "random") color = (std::random_device{}() & 1U) != 0 ? "white" : "black";

    std::vector<std::string> uciMoves;
    auto loaded = loadPosition(fen, {}, uciMoves);
    if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
    game.initialFen = std::get<ChessState>(loaded).fen();
    auto position = loadPosition(game.initialFen, moves, uciMoves, true);
    if (auto* error = std::get_if<ApiError>(&position)) return *error;
    ChessState& state = std::get<ChessState>(position);

    // The creator plays the side the engine does not; between people, the colour it asked for,
    // and the invited player the other.
    const bool creatorWhite =
        game.engine.side == "none" ? color == "white" : game.engine.side != "white";
    game.moves = std::move(uciMoves);
    // A position that is over already (mate given at creation) makes a game that is over.
    if (auto end = state.outcome()) finish(game, *end, context_.clock.nowMs());
    game.version = 1;
    game.createdAtMs = game.updatedAtMs = context_.clock.nowMs();
    // Moves given at creation may have begun the game already: the next move starts the clocks.
    if (game.moves.size() >= kPliesBeforeClocks) game.firstMoveMs = 0;
    if (game.clock) game.clock->turnStartedAtMs = game.createdAtMs;  // White's first-move time
    return NewGame{std::move(game), creatorWhite};
}

std::variant<CreatedGame, ApiError> GameService::storeNew(NewGame prepared,
                                                          const GameIdentity& identity,
                                                          const ClientInfo& client,
                                                          StoreStatus* stored) {
    GameRecord& game = prepared.game;
    const bool creatorWhite = prepared.creatorWhite;
    if (game.engine.side != "none") {
        if (auto refused = admitNewGame()) return *refused;
    }
    game.id = identity.id;
    CreatedGame created;
    created.playerToken = identity.playerToken;
    created.playerSide = sideName(creatorWhite);
    (creatorWhite ? game.whiteTokenHash : game.blackTokenHash) = tokenHash(created.playerToken);
    if (game.engine.side == "none") {
        created.inviteToken = identity.inviteToken;
        (creatorWhite ? game.blackTokenHash : game.whiteTokenHash) = tokenHash(created.inviteToken);
    }

    if (auto error = storeAndStart(game, client, stored)) return *error;
    // Creating the game is the creator's first sign of life (White between people).
    if (game.engine.side == "none") context_.presence.seen(game, true, false);
    game.presence = presenceOf(game);
    created.game = std::move(game);
    return created;
}

std::optional<ApiError> GameService::admitNewGame() const {
    const auto refuse = [&](const std::string& why) {
        context_.metrics.searchRejected(errors::at_capacity);
        return ApiError{ErrorStatus::service_unavailable, errors::at_capacity,
                        "the engine is at capacity (" + why +
                            "); games already running keep being served, try again later",
                        context_.config.retryAfterSeconds};
    };
    const int threads = context_.pool->threads();
    const auto limit =
        static_cast<std::size_t>(context_.config.maxEngineGames > 0 ? context_.config.maxEngineGames
                                                                    : threads * kGamesPerSearcher);
    if (const std::size_t active = context_.activeGames.count(perClientEngineGames(limit));
        active >= limit) {
        return refuse(std::to_string(active) + " games against it are running on this replica");
    }
    const std::int64_t limitMs = context_.config.admitGameWaitMs;
    if (limitMs <= 0) return std::nullopt;
    const GameBacklog backlog = context_.pool->gameBacklog();
    // The oldest waiting reply past the limit, or the recent ones on average: the searchers
    // cannot keep up with the games they have; a new game would slow every one of them.
    constexpr std::int64_t kOldestWaitFactor = 2;
    if (backlog.recentWaitMs <= static_cast<double>(limitMs) &&
        backlog.oldestWaitMs <= kOldestWaitFactor * limitMs) {
        return std::nullopt;
    }
    return refuse("its replies in running games wait " +
                  std::to_string(static_cast<std::int64_t>(backlog.recentWaitMs)) +
                  " ms on average, " + std::to_string(backlog.queued) + " waiting");
}

std::size_t GameService::perClientEngineGames(std::size_t limit) const {
    if (context_.config.perClientEngineGames > 0)
        return static_cast<std::size_t>(context_.config.perClientEngineGames);
    return std::clamp<std::size_t>(limit / 2, 1, kGamesPerSearcher);
}

void GameService::noteActivity(const GameRecord& game, const std::string& owner) {
    if (game.engine.side == "none") return;
    if (game.status == "ongoing") {
        context_.activeGames.touch(game.id, owner);
    } else {
        context_.activeGames.finished(game.id);
    }
}

std::optional<GamePresence> GameService::presenceOf(const GameRecord& game) {
    std::optional<GamePresence> presence = context_.presence.read(game);
    if (presence) presence->spectators = context_.spectators.count(game.id);
    return presence;
}

std::variant<GameRecord, ApiError> GameService::load(const std::string& id) {
    StoreReadResult read = context_.store->get(id);
    if (read.status != StoreStatus::Ok) return storeError(read.status, id);
    GameRecord game = std::move(*read.game);
    std::optional<ChessState> state;
    try {
        state.emplace(replay(game));
    } catch (const std::exception& error) {
        context_.logger.log(
            {{"event", errors::corrupt_game}, {"game", id}, {"error", error.what()}});
        return corruptGame(id, "its moves do not replay");
    }
    game.presence = presenceOf(game);
    if (game.status != "ongoing") return game;
    if (game.clock) {
        const std::uint64_t before = game.version;
        if (applyTimeouts(game, *state, context_.clock.nowMs())) {
            if (auto error = commit(game, before)) {
                // Someone else recorded it (or another change won): read again.
                read = context_.store->get(id);
                if (read.status != StoreStatus::Ok) return storeError(read.status, id);
                return std::move(*read.game);
            }
            return game;
        }
    }
    // Whoever reads a game that waits for the engine watches that reply too: after a drain or a
    // crash the board reconnects to another replica, and that one delivers it.
    if (owesEngineReply(game)) GameDeadlines(context_).watch(game);
    return game;
}

void GameService::noteSignOfLife(GameRecord& game, bool white, bool black) {
    if (game.engine.side != "none" || game.status != "ongoing" || (!white && !black)) return;
    if (context_.presence.seen(game, white, black)) game.presence = presenceOf(game);
}

std::variant<GameRecord, ApiError> GameService::loadReadBy(
    const std::string& id, const std::optional<std::string>& token) {
    auto loaded = load(id);
    if (token && !token->empty()) {
        if (auto* game = std::get_if<GameRecord>(&loaded)) {
            // Both hashes are always compared, as in loadAuthorized.
            const bool white = tokenMatches(*token, game->whiteTokenHash);
            const bool black = tokenMatches(*token, game->blackTokenHash);
            noteSignOfLife(*game, white, black);
        }
    }
    return loaded;
}

std::variant<GameRecord, ApiError> GameService::loadAuthorized(
    const std::string& id, const std::optional<std::string>& token, TokenUse use) {
    auto loaded = load(id);
    if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
    const GameRecord& game = std::get<GameRecord>(loaded);
    if (!token || token->empty()) {
        return ApiError{ErrorStatus::unauthorized, errors::unauthorized,
                        "changing a game needs its player token (Authorization: Bearer <token>)"};
    }
    // Both hashes are always compared, so the time taken does not tell which side matched.
    const bool white = tokenMatches(*token, game.whiteTokenHash);
    const bool black = tokenMatches(*token, game.blackTokenHash);
    if (!white && !black) {
        return ApiError{ErrorStatus::forbidden, errors::forbidden,
                        "wrong player token for this game"};
    }
    // Any request made with a side's token is a sign of life of that side, refused or not.
    noteSignOfLife(std::get<GameRecord>(loaded), white, black);
    if (game.engine.side != "none" || use == TokenUse::Play || (white && black)) return loaded;
    // A move in a finished game is refused as game_over by the caller, whoever asks.
    if (use == TokenUse::Move && game.status != "ongoing") return loaded;
    const bool whiteToMove = whiteToPlay(game);
    if (use == TokenUse::Takeback && game.moves.empty()) return loaded;
    // Move: the side to move; takeback: the side that moved last.
    const bool needWhite = use == TokenUse::Move ? whiteToMove : !whiteToMove;
    if (needWhite != white) {
        return conflict(
            errors::not_your_turn,
            std::string("this token plays ") + sideName(white) +
                (use == TokenUse::Move ? "; it is " + std::string(sideName(needWhite)) + "'s turn"
                                       : "; only " + std::string(sideName(needWhite)) +
                                             " may take back its last move"));
    }
    return loaded;
}

std::variant<GameRecord, ApiError> GameService::update(const std::string& id,
                                                       const std::optional<std::string>& token,
                                                       TokenUse use, const GameChange& change,
                                                       int attempts) {
    for (int attempt = 1;; ++attempt) {
        auto loaded = loadAuthorized(id, token, use);
        if (auto* error = std::get_if<ApiError>(&loaded)) return *error;
        GameRecord game = std::move(std::get<GameRecord>(loaded));
        const std::uint64_t before = game.version;
        if (auto refused = change(game)) return *refused;
        if (game.version == before) return game;
        auto error = commit(game, before);
        if (!error) return game;
        if (error->code != errors::version_conflict || attempt >= attempts) return *error;
    }
}

std::optional<ApiError> GameService::commit(const GameRecord& updated,
                                            std::uint64_t expectedVersion) {
    const StoreStatus status = context_.store->update(updated, expectedVersion);
    if (status == StoreStatus::Unanswered) {
        // The store got the change, or not; it may yet run it. Nothing is published (it may not
        // be there): the game's deadline check reads it once the store answers, and publishes it
        // then if it is there (GameDeadlines::check).
        context_.unsettled.add(updated.id, updated.version);
        context_.flags.watch(updated.id, updated.version,
                             context_.clock.nowMs() + kUnsettledRecheckMs);
        context_.logger.log(
            {{"event", "write_unanswered"}, {"game", updated.id}, {"version", updated.version}});
        return storeError(status, updated.id);
    }
    // Unconfirmed: the store holds it (perhaps not for long); published as any state, so no
    // player is left behind a state the others act on, and answered write_unconfirmed.
    if (status != StoreStatus::Ok && status != StoreStatus::Unconfirmed)
        return storeError(status, updated.id);
    announceStored(updated);
    if (status == StoreStatus::Unconfirmed) return storeError(status, updated.id);
    return std::nullopt;
}

void GameService::announceStored(const GameRecord& updated) {
    // Subscribers see the presence in every state; a change not made from a loaded game (the
    // engine's move, a flag fall) reads it here.
    std::optional<GameRecord> withPresence;
    if (!updated.presence) {
        withPresence = updated;
        withPresence->presence = presenceOf(updated);
    }
    const GameRecord& shown = withPresence ? *withPresence : updated;
    context_.bus->publish(GameEvent{GameEvent::Kind::GameChanged, updated.id, updated.version,
                                    gameEventPayload(shown, context_.clock.nowMs())});
    if (updated.status == "ongoing") GameDeadlines(context_).watch(updated);
    // An ended game needs no presence: its entries go (every ending is stored here).
    if (updated.status != "ongoing" && updated.engine.side == "none")
        context_.presence.forget(updated.id);
    noteActivity(updated);
}

void GameService::resendGame(const std::string& id) {
    StoreReadResult read = context_.store->get(id);
    if (read.status != StoreStatus::Ok) {
        // Still cut off (or the game is gone): the next reconnection asks again.
        context_.logger.log(
            {{"event", "bus_resync_failed"}, {"game", id}, {"store", toString(read.status)}});
        return;
    }
    const GameRecord& game = *read.game;
    context_.bus->publish(GameEvent{GameEvent::Kind::GameChanged, game.id, game.version,
                                    gameEventPayload(game, context_.clock.nowMs())});
    context_.logger.log({{"event", "bus_resync"}, {"game", id}, {"version", game.version}});
}

void GameService::move(const std::string& id, const std::optional<std::string>& token,
                       const std::string& moveText, std::optional<std::uint64_t> version,
                       bool waitForEngine, const ClientInfo& client, GameDone done) {
    bool played = false;
    auto updated =
        update(id, token, TokenUse::Move, [&](GameRecord& game) -> std::optional<ApiError> {
            if (version && *version != game.version) {
                return conflict(errors::version_conflict, "the game is at version " +
                                                              std::to_string(game.version) +
                                                              ", not " + std::to_string(*version));
            }
            if (game.status != "ongoing") {
                return conflict(errors::game_over, "the game is over (" + game.status + ")");
            }
            if (enginesTurn(game))
                return conflict(errors::not_your_turn, "it is the engine's turn");
            ChessState state = replay(game);
            ParsedMove parsed = state.parse(moveText);
            if (parsed.uci.empty()) {
                return unprocessable(errors::illegal_move,
                                     quotedInput(moveText) + ": " + parsed.error);
            }
            // Not played when the mover's time ran out first: the ending is stored, and refused.
            played = applyMove(game, state, parsed.uci, context_.clock.nowMs());
            return std::nullopt;
        });
    if (auto* error = std::get_if<ApiError>(&updated)) return done(*error);
    GameRecord game = std::move(std::get<GameRecord>(updated));
    if (!played) {
        return done(conflict(errors::game_over, game.status == "aborted"
                                                    ? "the first move came after its deadline: the "
                                                      "game is aborted"
                                                    : "your flag fell before the move"));
    }
    if (owesEngineReply(game)) {
        if (waitForEngine)
            return EngineReplies(context_).start(game, std::nullopt, client, true, std::move(done));
        // The reply reaches the subscribers through the bus; nobody waits for it here.
        EngineReplies(context_).start(game, std::nullopt, client, true, [](const GameOutcome&) {});
    }
    done(GameReply{std::move(game), nullptr});
}

void GameService::engineMove(const std::string& id, const std::optional<std::string>& token,
                             const std::optional<LimitsSpec>& limits, const ClientInfo& client,
                             GameDone done) {
    auto loaded = loadAuthorized(id, token, TokenUse::Move);
    if (auto* error = std::get_if<ApiError>(&loaded)) return done(*error);
    GameRecord game = std::move(std::get<GameRecord>(loaded));
    if (game.status != "ongoing") {
        return done(conflict(errors::game_over, "the game is over (" + game.status + ")"));
    }
    EngineReplies(context_).start(game, limits, client, false, std::move(done));
}

std::variant<GameRecord, ApiError> GameService::takeback(const std::string& id,
                                                         const std::optional<std::string>& token) {
    // Between people a takeback needs the other side's consent (games/offers.h).
    const auto needsConsent = [] {
        return conflict(errors::takeback_needs_consent,
                        "between people a takeback needs the other side's consent: ask with "
                        "POST /api/v1/games/{id}/takeback/yes");
    };
    auto undone =
        update(id, token, TokenUse::Takeback, [&](GameRecord& game) -> std::optional<ApiError> {
            if (game.engine.side == "none") return needsConsent();
            // Only an end the position made (mate, stalemate, a draw by the rules) is taken back;
            // an end someone chose or the clock gave (a resignation, an agreed draw, a flag fall,
            // an abort) stands. The position tells them apart: only the first kind ends on it.
            if (game.status != "ongoing" && !replay(game).outcome()) {
                return conflict(errors::game_over,
                                "the game is over (" + game.status +
                                    (game.reason.empty() ? "" : ", " + game.reason) +
                                    "): only a mate, stalemate or draw by the rules is taken back");
            }
            // On the player's turn the last move is the engine's: with no move before it, the
            // player has none to take back (undoing the engine's first move alone would only
            // have it play again).
            if (game.moves.empty() || (game.moves.size() < 2 && !enginesTurn(game)))
                return conflict(errors::nothing_to_take_back, "no move of yours to take back");
            // The player's last move; against the engine its reply too (when the engine moved
            // last), so it is the player's turn again.
            undoPlies(game, game.moves.size() >= 2 && !enginesTurn(game) ? 2 : 1,
                      context_.clock.nowMs());
            return std::nullopt;
        });
    // Only between people is a token refused for the turn.
    if (auto* error = std::get_if<ApiError>(&undone); error && error->code == errors::not_your_turn)
        return needsConsent();
    return undone;
}

std::variant<GameRecord, ApiError> GameService::resign(const std::string& id,
                                                       const std::optional<std::string>& token) {
    return update(id, token, TokenUse::Play, [&](GameRecord& game) -> std::optional<ApiError> {
        if (game.status != "ongoing")
            return conflict(errors::game_over, "the game is over (" + game.status + ")");
        // The player resigns: against the engine that is the engine's opponent; between people
        // the side of the token (the side to move when one token holds both, as in older games).
        finish(game, resignation(actsForWhite(game, *token)), context_.clock.nowMs());
        return std::nullopt;
    });
}

std::optional<ApiError> GameService::createPrepared(GameRecord& game, const ClientInfo& client) {
    if (game.engine.side != "none") {
        if (auto refused = admitNewGame()) return *refused;
    }
    // A rematch or a lobby game between people with a clock has the first-move deadline of any
    // such game (prepare() above): the clocks wait for both first moves, each with its deadline.
    if (game.engine.side == "none" && game.clock && !game.clock->running &&
        game.moves.size() < kPliesBeforeClocks) {
        game.firstMoveMs = context_.config.firstMoveDeadlineMs;
        game.clock->turnStartedAtMs = game.createdAtMs;  // White's first-move time
    }
    if (auto error = storeAndStart(game, client, nullptr)) return *error;
    game.presence = presenceOf(game);
    return std::nullopt;
}

std::optional<ApiError> GameService::storeAndStart(const GameRecord& game, const ClientInfo& client,
                                                   StoreStatus* stored) {
    const StoreStatus status = context_.store->create(game);
    if (stored) *stored = status;
    if (status != StoreStatus::Ok) return storeError(status, game.id);
    context_.logger.log({{"event", "game_created"}, {"game", game.id}, {"client", client.address}});
    noteActivity(game, client.address);
    // A first move owed between people is watched from now; so is an engine reply (below).
    GameDeadlines(context_).watch(game);
    if (owesEngineReply(game)) {
        // The engine moves first: start at once; the creator sees the move through the stream.
        // Refused (draining, full), the reply is taken up at its deadline, watched above.
        EngineReplies(context_).start(game, std::nullopt, client, true, [](GameOutcome) {});
    }
    return std::nullopt;
}

}  // namespace outpost::server
