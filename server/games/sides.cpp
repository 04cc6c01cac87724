#include "games/sides.h"

#include "ops/tokens.h"

namespace outpost::server {

bool enginesTurn(const GameRecord& game) {
    return game.engine.side == sideName(whiteToPlay(game));
}

bool owesEngineReply(const GameRecord& game) {
    return game.status == "ongoing" && enginesTurn(game);
}

bool actsForWhite(const GameRecord& game, const std::string& token) {
    if (game.engine.side != "none") return game.engine.side == "black";
    const bool white = tokenMatches(token, game.whiteTokenHash);
    if (white == tokenMatches(token, game.blackTokenHash)) return whiteToPlay(game);
    return white;
}

}  // namespace outpost::server
