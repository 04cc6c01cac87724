// Which side does what in a game: whose turn it is (store/game_turn.h), whether it is the
// engine's, and the side a player's token acts for. The rules ask here instead of working it out.
#pragma once

#include <string>

#include "store/game_record.h"
#include "store/game_turn.h"

namespace outpost::server {

// The engine plays the side to move (whatever the game's status).
bool enginesTurn(const GameRecord& game);
// The game is ongoing and the engine plays the side to move: it owes a reply.
bool owesEngineReply(const GameRecord& game);
// The side a request made with `token` acts for (a resignation, an offer, a claim): against the
// engine the player's (the side the engine does not play); between people the token's side, and
// the side to move for a token of both sides (older games). `token` plays the game.
bool actsForWhite(const GameRecord& game, const std::string& token);

}  // namespace outpost::server
