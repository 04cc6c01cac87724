// The move sent and not answered yet (a slow server, or a request sent again after a network
// failure: moveRetry.ts). The page shows it at once, as pending: the board in the position after
// it (whatever redraws the page meanwhile: a presence or clock update on the WebSocket), the move
// list with it dimmed, the status saying it is being sent; no other move is taken until the
// answer. A refusal or a final failure drops it, and the page shows the server's game again.
// No DOM here.
import type { Game } from '../api/types';
import { lineToSan, viewAt, type BoardView } from '../chess/position';

export interface PendingMove {
  /** The game it was made in, and that game's version when it was sent. */
  gameId: string;
  from: number;
  /** The move in UCI (null: a typed move the page could not read; the server will answer). */
  uci: string | null;
  /** As the person sees it: SAN, or the text typed when it could not be read. */
  san: string;
  /** Its request failed on the network and it is being sent again. */
  retrying: boolean;
}

/** The pending move of `typed` (UCI or SAN) made in `game`, where `uci` is it read in UCI. */
export function pendingMove(game: Game, typed: string, uci: string | null): PendingMove {
  return { gameId: game.id, from: game.version, uci, san: (uci && lineToSan(game.fen, [uci])[0]) || typed, retrying: false };
}

/** Whether `pending` is a move made in `game` as it is (not moved on since). */
export function pendingIn(pending: PendingMove | null, game: Game | null): pending is PendingMove {
  return !!pending && !!game && pending.gameId === game.id && pending.from === game.version;
}

/** The position after the pending move, to draw (null: it could not be read). */
export function pendingView(game: Game, pending: PendingMove): BoardView | null {
  return pending.uci ? viewAt(game.fen, [pending.uci], 1) : null;
}

/** What the status line says while it waits. */
export function pendingText(pending: PendingMove): string {
  return pending.retrying
    ? `Sending your move ${pending.san} again — the last try was not confirmed…`
    : `Sending your move ${pending.san}…`;
}
