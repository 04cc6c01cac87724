// The first-move countdown of a game between people (docs/play.md): the clocks wait until both
// sides have moved, and until then the side to move has `firstMoveDeadlineMs` (read at clock.at,
// the server's time) for its first move, or the server aborts the game.
import type { Game } from '../api/types';

/** Milliseconds the side to move has left for its first move at `serverNowMs`; null when none. */
export function firstMoveLeftMs(game: Game, serverNowMs: number): number | null {
  if (game.status !== 'ongoing' || game.firstMoveDeadlineMs == null) return null;
  const at = game.clock?.at ?? serverNowMs;
  return Math.max(0, game.firstMoveDeadlineMs - Math.max(0, serverNowMs - at));
}

/** The status line's countdown: who must move, and within how long. */
export function firstMoveText(game: Game, leftMs: number, mySide: Game['turn'] | null): string {
  const seconds = Math.ceil(leftMs / 1000);
  const who = mySide === null ? (game.turn === 'white' ? 'White' : 'Black') : game.turn === mySide ? 'You' : 'Your friend';
  const verb = who === 'You' ? 'have' : 'has';
  return `${who} ${verb} ${seconds} s for the first move, or the game is aborted`;
}
