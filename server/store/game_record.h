// The stored form of a game: what a GameStore keeps and versions.
//
// Only the facts are stored (start position, moves, result, settings, clocks, token). Everything
// derived from them (current FEN, SAN, side to move, check, legal moves) is recomputed by the
// server from the moves, so a backend never has to understand chess and cannot get out of step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "search/limits_spec.h"

namespace outpost::server {

// Which side the engine plays in a game and how strongly.
struct EngineSettings {
    std::string side = "none";  // "white" | "black" | "none"
    std::optional<int> level;   // 1..8, playing levels for people
    std::optional<LimitsSpec> limits;

    friend bool operator==(const EngineSettings&, const EngineSettings&) = default;
};

// Server-kept clocks. The remaining time of the side to move is whiteMs/blackMs minus the time
// elapsed since turnStartedAtMs (wall-clock epoch milliseconds, so any replica can compute it).
struct ClockState {
    std::int64_t initialMs = 0;
    std::int64_t incrementMs = 0;
    std::int64_t whiteMs = 0;
    std::int64_t blackMs = 0;
    std::int64_t turnStartedAtMs = 0;
    bool running = false;  // starts with the first move; stops when the game ends

    friend bool operator==(const ClockState&, const ClockState&) = default;
};

// Who shows life in a game (games/presence.h). Not stored with the game: read beside it when the
// game is loaded (GameService::load), and shown in its JSON when set.
struct GamePresence {
    bool white = false;  // a live connection (the engine's side: always)
    bool black = false;
    // A side of an ongoing game between people without a live connection is gone: for how long
    // (its last sign of life, on the store's clock; -1 when none was ever recorded), and in how
    // long the other side may claim against it (-1: not at all, as before both sides moved or
    // without any recorded sign of life; 0: now).
    bool whiteGone = false;
    bool blackGone = false;
    std::int64_t whiteGoneForMs = -1;
    std::int64_t blackGoneForMs = -1;
    std::int64_t whiteClaimInMs = -1;
    std::int64_t blackClaimInMs = -1;
    // The same for clients, as times of the reading replica's wall clock (epoch ms; 0: none).
    std::int64_t whiteGoneSinceMs = 0;
    std::int64_t blackGoneSinceMs = 0;
    std::int64_t whiteClaimableAtMs = 0;
    std::int64_t blackClaimableAtMs = 0;
    // Spectators watching on the replica that read it (games/spectators.h).
    int spectators = 0;

    friend bool operator==(const GamePresence&, const GamePresence&) = default;
};

struct GameRecord {
    std::string id;  // unguessable, URL-safe
    // SHA-256 (hex) of each side's player token: the token of a side is what moves it. Empty for
    // the engine's side. The tokens themselves are never stored (docs/security.md).
    std::string whiteTokenHash;
    std::string blackTokenHash;
    std::string initialFen;          // always a full FEN (the start position spelled out)
    std::vector<std::string> moves;  // UCI, in order
    std::string status =
        "ongoing";  // ongoing | checkmate | stalemate | draw | resigned | timeout | aborted
    std::string result = "*";  // 1-0 | 0-1 | 1/2-1/2 | *
    std::string reason;        // for draws and timeouts; empty when none
    std::string winner;        // "white" | "black" | empty
    // The side offering a draw, and the side asking to take back its last move (between people,
    // games/offers.h): "white" | "black" | empty. A move clears both; so does the game's end.
    std::string drawOffer;
    std::string takebackOffer;
    // Rematch (games/rematch.h), once the game is over: the side offering one, then the new
    // game's id once it is made. Empty when none.
    std::string rematchOffer;
    std::string rematchGameId;
    EngineSettings engine;
    std::optional<ClockState> clock;
    // With a clock: the mover's remaining milliseconds after each move (increment included),
    // by ply like `moves`; -1 where not known (moves given at creation). May be shorter than
    // `moves` (records stored before it existed).
    std::vector<std::int64_t> moveClocksMs;
    // Between people with a clock: the clocks start once both sides have moved, and until then
    // the side to move has this long (ms) for its first move, counted from clock->turnStartedAtMs
    // (the creation, then White's first move), or the game is aborted. 0: no such deadline
    // (against the engine, without a clock, older records).
    std::int64_t firstMoveMs = 0;
    // Counts changes: 1 after creation, +1 per stored update. Stores use it for compare-and-set.
    std::uint64_t version = 1;
    std::int64_t createdAtMs = 0;  // epoch milliseconds
    std::int64_t updatedAtMs = 0;
    // Not stored (see GamePresence): filled when the game is loaded.
    std::optional<GamePresence> presence;

    friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

}  // namespace outpost::server
