// The REST half of the API: games and PGN. Every call that changes a game carries the player token.
import type { ApiErrorBody, EngineInfo, Game, GameSummary, NewGameRequest } from './types';

const API = 'api/v1';

/** An error answered by the server (or a network failure, code "network"). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before asking again (the Retry-After of a 429 or 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** The server is busy (rate limited or overloaded): asking again later may work. */
  get busy(): boolean {
    return this.status === 429 || this.status === 503;
  }
}

export function apiUrl(path: string): string {
  // Relative to the page, so a deployment under a path prefix keeps working.
  return new URL(`${API}/${path}`, document.baseURI).toString();
}

/** The ApiError of a failed response: its JSON error body, else the HTTP status. */
export async function errorFrom(response: Response): Promise<ApiError> {
  let code = `http_${response.status}`;
  let message = response.statusText || 'Request failed';
  try {
    const parsed = (await response.json()) as ApiErrorBody;
    if (parsed?.error) {
      code = parsed.error.code;
      message = parsed.error.message;
    }
  } catch {
    // Not JSON: keep the HTTP status as the message.
  }
  const retry = Number(response.headers.get('Retry-After'));
  return new ApiError(response.status, code, message, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string | null,
  accept = 'application/json',
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders, Accept: accept };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, 'network', `The server cannot be reached (${String(err)})`);
  }
  if (!response.ok) throw await errorFrom(response);
  if (accept === 'application/json') return (await response.json()) as T;
  return (await response.text()) as T;
}

/**
 * A fresh random Idempotency-Key (128 bits, hex): one per user action, sent again with each retry
 * of that action's request, so a creation whose answer was lost never makes a second game.
 * getRandomValues, not randomUUID: the page may be served over plain HTTP, where only the first
 * exists.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const api = {
  engineInfo: () => request<EngineInfo>('GET', 'engine'),
  /** `key`: the action's Idempotency-Key (newIdempotencyKey), the same on each retry. */
  createGame: (req: NewGameRequest, key?: string) =>
    request<Game>('POST', 'games', req, null, 'application/json', key ? { 'Idempotency-Key': key } : {}),
  getGame: (id: string) => request<Game>('GET', `games/${encodeURIComponent(id)}`),
  /** Summaries of the games among `ids` that exist (at most 50 ids), in the order asked. */
  listGames: (ids: string[]) =>
    request<{ games: GameSummary[] }>('GET', `games?ids=${ids.map(encodeURIComponent).join(',')}`),
  move: (id: string, token: string, move: string, version?: number) =>
    request<Game>('POST', `games/${encodeURIComponent(id)}/moves`, { move, version }, token),
  takeback: (id: string, token: string) =>
    request<Game>('POST', `games/${encodeURIComponent(id)}/takeback`, {}, token),
  resign: (id: string, token: string) =>
    request<Game>('POST', `games/${encodeURIComponent(id)}/resign`, {}, token),
  /** Games between people: offer or accept a draw (`yes`), decline or withdraw one (`no`). */
  draw: (id: string, token: string, yes: boolean) =>
    request<Game>('POST', `games/${encodeURIComponent(id)}/draw/${yes ? 'yes' : 'no'}`, {}, token),
  /** Games between people: ask for or accept a takeback (`yes`), decline or withdraw one (`no`). */
  takebackOffer: (id: string, token: string, yes: boolean) =>
    request<Game>('POST', `games/${encodeURIComponent(id)}/takeback/${yes ? 'yes' : 'no'}`, {}, token),
  abort: (id: string, token: string) => request<Game>('POST', `games/${encodeURIComponent(id)}/abort`, {}, token),
  /** The other side has been gone past the server's grace time: end the game as won or drawn. */
  claim: (id: string, token: string, what: 'victory' | 'draw') =>
    request<Game>('POST', `games/${encodeURIComponent(id)}/claim-${what}`, {}, token),
  engineMove: (id: string, token: string) =>
    request<Game>('POST', `games/${encodeURIComponent(id)}/engine-move`, {}, token),
  /** The game's PGN; `withReview`: with the kept review's comments (GET …/pgn?review=1). */
  pgn: (id: string, withReview = false) =>
    request<string>('GET', `games/${encodeURIComponent(id)}/pgn${withReview ? '?review=1' : ''}`, undefined, null, 'application/x-chess-pgn'),
};
