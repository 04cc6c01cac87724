// A move sent while the connection drops (a phone between networks, a Wi-Fi blip): the request
// fails without an answer, and the move may or may not have reached the server. It carries the
// game's version, so sending it again is safe: the server plays it once, and a second copy that
// finds the move already stored is refused as a version conflict. So a move whose request fails on
// the network is sent again a few times over some ten seconds, and a refusal after such a failure
// is checked against the game: a game that moved on by this very move means it was played.
// No DOM here.
import { ApiError } from '../api/rest';

/** The waits before each new try (ms): about ten seconds in all. */
export const MOVE_RETRY_DELAYS_MS = [500, 1000, 2000, 3000, 4000];

/** The request failed without an answer from the server (it may have been stored or not). */
export function isNetworkFailure(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'network';
}

/**
 * The server answered that its game store did not settle the move: `write_unconfirmed` (the
 * store got it, its answer or its replicas' confirmation never came: the move may be kept),
 * `store_unavailable` (the store could not be reached: nothing changed) or `shutting_down` (this
 * replica drains; the next request goes to another). Each is a 503 that asks to read the game or
 * try again, which the game's version makes safe.
 */
export function isStoreUnsettled(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    err.status === 503 &&
    (err.code === 'write_unconfirmed' || err.code === 'store_unavailable' || err.code === 'shutting_down')
  );
}

/**
 * Sends with `send`, again after each wait of `delays` while it fails on the network (or the
 * store did not settle it, isStoreUnsettled) and
 * `wanted()` holds (the same game is on screen, in the position the move was made in); `onRetry`
 * is told before each new try. The last error is thrown, and a refusal (an answer) at once.
 */
export async function sendWithRetry<T>(
  send: () => Promise<T>,
  wanted: () => boolean,
  onRetry: (attempt: number, err: unknown) => void,
  delays: readonly number[] = MOVE_RETRY_DELAYS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (!(isNetworkFailure(err) || isStoreUnsettled(err)) || attempt >= delays.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
      if (!wanted()) throw err;
      onRetry(attempt + 1, err);
    }
  }
}

/** Whether `after` is the game `before` with `uci` played next (and maybe more since). */
export function playedNext(
  before: { id: string; moves: string[] },
  after: { id: string; moves: string[] } | null,
  uci: string | null,
): boolean {
  if (!after || !uci || after.id !== before.id || after.moves.length <= before.moves.length) return false;
  return before.moves.every((m, i) => after.moves[i] === m) && after.moves[before.moves.length] === uci;
}
