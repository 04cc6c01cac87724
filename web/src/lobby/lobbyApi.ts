// The lobby's REST routes (docs/play.md, "The lobby") and the seek's NDJSON stream.
import { apiUrl, errorFrom, request, ApiError } from '../api/rest';
import type { Color, Game } from '../api/types';

export interface SeekClock {
  initial: number;
  increment: number;
}

/** An open seek as the lobby lists it. */
export interface Seek {
  id: string;
  clock: SeekClock | null;
  color: Color | 'random';
  createdAt: number;
  age: number;
}

/** A seek as its seeker reads it. */
export interface OwnSeek extends Seek {
  status: 'open' | 'accepted' | 'cancelled' | 'expired';
  seekToken?: string;
  gameId?: string;
  playerSide?: Color;
  playerToken?: string;
}

/** A line of the seek's stream: the seek first, then how it closed. */
export interface SeekEvent {
  type: 'seek' | 'seekAccepted' | 'seekClosed';
  status?: OwnSeek['status'];
  gameId?: string;
  playerSide?: Color;
  playerToken?: string;
}

const seekPath = (id: string) => `seeks/${encodeURIComponent(id)}`;

export const lobbyApi = {
  list: () => request<{ seeks: Seek[] }>('GET', 'seeks'),
  create: (clock: SeekClock | null, color: Color | 'random') =>
    request<OwnSeek>('POST', 'seeks', clock ? { clock, color } : { color }),
  get: (id: string, token: string) => request<OwnSeek>('GET', seekPath(id), undefined, token),
  cancel: (id: string, token: string) => request<OwnSeek>('DELETE', seekPath(id), undefined, token),
  accept: (id: string) => request<Game>('POST', `${seekPath(id)}/accept`, {}),
};

/**
 * Follows one's seek until it closes: calls `onEvent` per line; resolves when the stream ends
 * (or `signal` aborts it). Keeping it open keeps the seek open.
 */
export async function followSeek(
  id: string,
  token: string,
  onEvent: (event: SeekEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(apiUrl(`${seekPath(id)}/stream`), {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/x-ndjson' },
      signal,
    });
  } catch (err) {
    if (signal.aborted) return;
    throw new ApiError(0, 'network', `The server cannot be reached (${String(err)})`);
  }
  if (!response.ok || !response.body) throw await errorFrom(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return; // aborted, or the connection dropped
    }
    if (chunk.done) return;
    pending += decoder.decode(chunk.value, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line) onEvent(JSON.parse(line) as SeekEvent);
      newline = pending.indexOf('\n');
    }
  }
}
