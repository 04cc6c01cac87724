#include "games/game_json.h"

#include <algorithm>
#include <initializer_list>

#include "games/game_clock.h"
#include "games/game_replay.h"
#include "games/presence.h"
#include "openings/openings.h"
#include "store/clock_deadline.h"

namespace outpost::server {

namespace {

// The Game object's fields that are absent when the game has none; the gameState event carries
// them as null instead.
constexpr std::initializer_list<const char*> kOptionalLiveFields = {
    "reason", "winner",  "clock",  "firstMoveDeadlineMs", "drawOffer", "takebackOffer", "presence",
    "gone",   "opening", "rematch"};

}  // namespace

void addLiveFields(nlohmann::json& json, const GameRecord& game, const ChessState& state,
                   std::int64_t nowMs) {
    const bool ongoing = game.status == "ongoing";
    const bool whiteToMove = state.whiteToMove();
    json["fen"] = state.fen();
    json["turn"] = whiteToMove ? "white" : "black";
    json["status"] = game.status;
    json["result"] = game.result;
    if (!game.reason.empty()) json["reason"] = game.reason;
    if (!game.winner.empty()) json["winner"] = game.winner;
    json["check"] = state.inCheck();
    json["legalMoves"] = ongoing ? state.legalMoves() : std::vector<std::string>{};
    if (game.clock) json["clock"] = clockJson(*game.clock, whiteToMove, nowMs);
    // Between people, before the clocks start: what the side to move has left for its first
    // move at the clock's reading (clock.at), or the game is aborted.
    if (const auto deadline = firstMoveDeadlineMs(game))
        json["firstMoveDeadlineMs"] = std::max<std::int64_t>(0, *deadline - nowMs);
    // The engine owes a reply while the game goes on and it plays the side to move (its search
    // runs, or is taken up again by whichever replica finds it overdue).
    json["engineThinking"] = ongoing && game.engine.side == json["turn"].get<std::string>();
    if (!game.drawOffer.empty()) json["drawOffer"] = game.drawOffer;
    if (!game.takebackOffer.empty()) json["takebackOffer"] = game.takebackOffer;
    if (game.presence) addPresenceFields(json, *game.presence);
    if (game.presence) json["spectators"] = game.presence->spectators;
    addOpening(json, game.initialFen, game.moves);
    // Rematch (games/rematch.h): offered, then made.
    if (!game.rematchGameId.empty()) {
        json["rematch"] = {{"gameId", game.rematchGameId}};
    } else if (!game.rematchOffer.empty()) {
        json["rematch"] = {{"offeredBy", game.rematchOffer}};
    }
}

nlohmann::json gameJson(const GameRecord& game, const ChessState& state, std::int64_t nowMs) {
    nlohmann::json engine = {{"side", game.engine.side}};
    if (game.engine.level) engine["level"] = *game.engine.level;
    if (game.engine.limits) {
        nlohmann::json limits = nlohmann::json::object();
        if (game.engine.limits->depth) limits["depth"] = *game.engine.limits->depth;
        if (game.engine.limits->movetimeMs) limits["movetime"] = *game.engine.limits->movetimeMs;
        if (game.engine.limits->nodes) limits["nodes"] = *game.engine.limits->nodes;
        engine["limits"] = limits;
    }
    // SAN needs the position before each move: replay from the start.
    std::string error;
    bool badMove = false;
    auto walker = ChessState::load(game.initialFen, {}, error, badMove);
    std::vector<std::string> san;
    if (walker) san = walker->sanLine(game.moves);

    nlohmann::json json = {
        {"id", game.id},    {"initialFen", game.initialFen}, {"moves", game.moves}, {"san", san},
        {"engine", engine}, {"version", game.version},
    };
    // Each move's clock (the mover's remaining ms after it, increment included; -1 where not
    // known), by ply like `moves`: games with a clock only.
    if (game.clock) {
        std::vector<std::int64_t> moveClocks = game.moveClocksMs;
        moveClocks.resize(game.moves.size(), -1);
        json["moveClocks"] = moveClocks;
    }
    addLiveFields(json, game, state, nowMs);
    return json;
}

nlohmann::json gameJson(const GameRecord& game, std::int64_t nowMs) {
    return gameJson(game, replay(game), nowMs);
}

nlohmann::json gameStateJson(const GameRecord& game, const ChessState& state, std::int64_t nowMs) {
    nlohmann::json lastMove = nullptr;
    if (!game.moves.empty()) {
        // SAN of the last move needs the position before it.
        std::vector<std::string> before(game.moves.begin(), game.moves.end() - 1);
        std::string error;
        bool badMove = false;
        if (auto previous = ChessState::load(game.initialFen, before, error, badMove)) {
            lastMove = {{"uci", game.moves.back()}, {"san", previous->san(game.moves.back())}};
        } else {
            lastMove = {{"uci", game.moves.back()}, {"san", nullptr}};
        }
    }
    nlohmann::json json = {
        {"type", "gameState"},
        {"gameId", game.id},
        {"version", game.version},
        {"lastMove", lastMove},
        {"moveCount", game.moves.size()},
    };
    addLiveFields(json, game, state, nowMs);
    for (const char* field : kOptionalLiveFields) {
        if (!json.contains(field)) json[field] = nullptr;
    }
    return json;
}

nlohmann::json gameFullMessage(const GameRecord& game, std::int64_t nowMs) {
    return {{"type", "gameFull"}, {"game", gameJson(game, nowMs)}};
}

std::string gameEventPayload(const GameRecord& game, std::int64_t nowMs) {
    return gameStateJson(game, replay(game), nowMs).dump();
}

bool endsGame(const GameRecord& game) {
    return game.status != "ongoing";
}

}  // namespace outpost::server
