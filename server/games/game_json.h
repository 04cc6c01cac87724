// What clients see of a stored game: the public Game object (derived fields recomputed from the
// moves) and the events subscribers get (docs/events.md).
//
// The Game object and the gameState event share their "live" fields (position, turn, status,
// clock, offers, presence, legal moves, engine, opening) through addLiveFields(), so a field added
// there appears in both.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "games/chess_rules.h"
#include "store/game_record.h"

namespace outpost::server {

// Adds to `json` the fields of a game that change as it is played: fen, turn, status, result,
// reason and winner (absent when none), check, legalMoves, clock (read at nowMs, absent without
// one), engineThinking, and the offers, presence and opening where the game has them.
void addLiveFields(nlohmann::json& json, const GameRecord& game, const ChessState& state,
                   std::int64_t nowMs);

// The API's Game object (never the token).
nlohmann::json gameJson(const GameRecord& game, const ChessState& state, std::int64_t nowMs);
// ... read at `nowMs` (the cluster's time: ServerContext::clock).
nlohmann::json gameJson(const GameRecord& game, std::int64_t nowMs);

// {"type":"gameState", gameId, version, lastMove: {uci, san} | null, moveCount, the live
// fields}: what a subscriber needs to go on after a change, of a size bounded whatever the
// game's length (no move list). Optional live fields are null rather than absent, so a client
// that merges a state into its copy of the game clears what ended.
nlohmann::json gameStateJson(const GameRecord& game, const ChessState& state, std::int64_t nowMs);

// {"type":"gameFull","game":{...}}: a subscriber's first message.
nlohmann::json gameFullMessage(const GameRecord& game, std::int64_t nowMs);

// The bus payload of a change of `game`: its gameState (dumped), computed by the replica that
// stored the change, so a subscriber on any replica forwards it as it is.
std::string gameEventPayload(const GameRecord& game, std::int64_t nowMs);

// Whether a gameState (or Game) of a finished game: the last state its stream sends.
bool endsGame(const GameRecord& game);

}  // namespace outpost::server
