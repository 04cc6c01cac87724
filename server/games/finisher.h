// Every way a game ends, in one place (as lila's Finisher): a resignation, a flag fall, a missed
// first move, an abort, a claim against a side that is gone, a draw agreed (between people or by
// the engine), and the position's own end (mate, stalemate, the draw rules). Each ending goes
// through finish(), which reads the clock first, so no ending forgets what the clocks showed.
#pragma once

#include <cstdint>
#include <string>

#include "games/chess_rules.h"
#include "store/game_record.h"

namespace outpost::server {

// The reason of a game aborted because a side of a game between people missed its first-move
// deadline (GameRecord::firstMoveMs).
inline constexpr const char* kFirstMoveMissed = "first_move_missed";

// Counts a change of the game: version + 1, updatedAtMs = nowMs.
void markChanged(GameRecord& game, std::int64_t nowMs);

// Ends `game` at nowMs with `end`: a running clock is read first (each side keeps what it has left
// now) and stops; status, result, reason and winner are set; the offers go (nothing is left to
// answer); the change is counted.
void finish(GameRecord& game, const GameEnd& end, std::int64_t nowMs);

// The endings that do not come from the position (ChessState::outcome gives those).
// `resigningWhite` resigns: the other side wins.
GameEnd resignation(bool resigningWhite);
// Both sides agreed (or the engine accepted the player's offer).
GameEnd drawAgreed();
// Claimed by `claimantWhite` against the other side, gone: a win (victory) or a draw.
GameEnd abandonment(bool claimantWhite, bool victory);
// Nobody loses a game that never began: no result (Lichess's rule). `reason` may be empty.
GameEnd abortion(std::string reason);
// `flaggedWhite` ran out of time: the other side wins, unless it could never mate (a draw).
GameEnd outOfTime(bool flaggedWhite, bool otherCanMate);

// Records a flag fall if the side to move ran out of time by nowMs. True when it changed game.
bool applyFlagFall(GameRecord& game, const ChessState& state, std::int64_t nowMs);
// Aborts a game between people whose side to move missed its first-move deadline by nowMs
// (store/clock_deadline.h). True when it changed game.
bool applyFirstMoveTimeout(GameRecord& game, std::int64_t nowMs);
// Either of the two above: every deadline of a game's clocks, in one place.
bool applyTimeouts(GameRecord& game, const ChessState& state, std::int64_t nowMs);

}  // namespace outpost::server
