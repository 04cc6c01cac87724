// The game review routes (docs/review.md): start, read, stop, and follow a review as NDJSON.
import { ApiError, apiUrl, errorFrom, request } from './rest';
import type { Limits, Review, ReviewProgress } from './types';

const enc = encodeURIComponent;

export const reviewApi = {
  /** Reviews a stored game's current version (or answers the review already kept for it). */
  startForGame: (gameId: string, limits?: Limits) =>
    request<Review>('POST', `games/${enc(gameId)}/review`, limits ? { limits } : {}),
  /** Reviews a game that is not stored, given as PGN. */
  startForPgn: (pgn: string, limits?: Limits) => request<Review>('POST', 'review', limits ? { pgn, limits } : { pgn }),
  get: (reviewId: string) => request<Review>('GET', `reviews/${enc(reviewId)}`),
  /** The review kept for a game, or null when it has none. */
  forGame: async (gameId: string): Promise<Review | null> => {
    try {
      return await request<Review>('GET', `games/${enc(gameId)}/review`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },
  stop: (reviewId: string) => request<Review>('POST', `reviews/${enc(reviewId)}/stop`, {}),
};

/** One line of a review stream, as the page understands it. */
export type ReviewEvent = { kind: 'review'; review: Review } | { kind: 'progress'; progress: ReviewProgress };

/** Reads a line of the stream: a bare Review, `{type: "review", review}` or a reviewProgress. */
function parseLine(line: string): ReviewEvent | ApiError | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  if (value.type === 'reviewProgress') return { kind: 'progress', progress: value as unknown as ReviewProgress };
  if (value.type === 'review' && value.review && typeof value.review === 'object') {
    return { kind: 'review', review: value.review as Review };
  }
  if (value.type === 'error' || (value.error && typeof value.error === 'object' && !('status' in value))) {
    const error = (value.error ?? value) as { code?: string; message?: string };
    return new ApiError(0, String(error.code ?? 'review_failed'), String(error.message ?? 'The review failed'));
  }
  if (typeof value.status === 'string' && typeof value.id === 'string') return { kind: 'review', review: value as unknown as Review };
  return null;
}

/**
 * Follows a review: GET /api/v1/reviews/{id}/stream, one callback per line (keep-alive lines are
 * skipped). Resolves when the stream ends (normally after the final review line); rejects with an
 * ApiError when it cannot be opened or the connection breaks, or with an AbortError when aborted.
 */
export async function followReview(reviewId: string, onEvent: (event: ReviewEvent) => void, signal: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await fetch(apiUrl(`reviews/${enc(reviewId)}/stream`), {
      headers: { Accept: 'application/x-ndjson' },
      signal,
      cache: 'no-store',
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ApiError(0, 'network', `The server cannot be reached (${String(err)})`);
  }
  if (!response.ok) throw await errorFrom(response);
  if (!response.body) {
    // No streaming body (very old browsers): the whole answer at once.
    for (const line of (await response.text()).split('\n')) emit(line, onEvent);
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        emit(line, onEvent);
      }
    }
  } catch (err) {
    if (signal.aborted || err instanceof ApiError) throw err;
    throw new ApiError(0, 'network', 'The review stream broke off');
  }
  emit(buffered + decoder.decode(), onEvent);
}

function emit(line: string, onEvent: (event: ReviewEvent) => void): void {
  if (!line.trim()) return;
  const parsed = parseLine(line);
  if (parsed instanceof ApiError) throw parsed;
  if (parsed) onEvent(parsed);
}
