// One game review as the page holds it: started (or found again) over REST, followed live over
// the NDJSON stream, merged move by move as reviewProgress lines arrive. It knows nothing of the
// DOM; whoever owns it redraws when `changed` is called.
import { ApiError } from '../api/rest';
import { followReview, reviewApi, type ReviewEvent } from '../api/review';
import type { KeptReview, Limits, MoveClass, Review, ReviewedMove, Score } from '../api/types';
import { knownReviews } from './knownReviews';

/**
 * idle: no review; starting: asked, no answer yet; running/done/stopped/failed: the review's own
 * status; busy: the server said 429/503 (try again after `retryAt`); error: the request failed.
 */
export type ReviewPhase = 'idle' | 'starting' | 'running' | 'done' | 'stopped' | 'failed' | 'busy' | 'error';

export type ReviewSource = { gameId: string } | { pgn: string };

/** Limits for the reviews this page starts: none (the server's default) unless set here (tests do). */
const LIMITS_KEY = 'outpost.review.limits';
const FLAGGED: ReadonlySet<MoveClass> = new Set(['inaccuracy', 'mistake', 'blunder']);
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 8000;

function storedLimits(): Limits | undefined {
  try {
    const raw = localStorage.getItem(LIMITS_KEY);
    return raw ? (JSON.parse(raw) as Limits) : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

export class ReviewSession {
  review: Review | null = null;
  phase: ReviewPhase = 'idle';
  /** Positions analysed / to analyse, as last reported. */
  done = 0;
  total = 0;
  /** The reason of a failure or of a busy server, for people. */
  message = '';
  /** Busy: when asking again makes sense (epoch ms). */
  retryAt = 0;
  /** What the last start asked for (the "try again" button asks again). */
  lastSource: ReviewSource | null = null;
  private plies = new Map<number, ReviewedMove>();
  private abort: AbortController | null = null;
  /** Bumped by every reset and start: answers to older requests are dropped. */
  private generation = 0;
  private notifyQueued = false;

  constructor(private readonly changed: () => void) {}

  /** Forgets the review (another game is shown) and stops following its stream. */
  reset(): void {
    this.generation++;
    this.abort?.abort();
    this.abort = null;
    this.review = null;
    this.plies = new Map();
    this.phase = 'idle';
    this.done = this.total = 0;
    this.message = '';
    this.retryAt = 0;
    this.lastSource = null;
    this.notify();
  }

  /**
   * Shows the review named (a pasted game's), or the review kept for a game (reload, link);
   * quietly nothing when none. `kept` is what the game says of its review (`Game.review`): one is
   * kept, or null for none; a server that does not say (undefined) is asked only about the games
   * this browser has seen reviewed, as a 404 would be logged in the browser's console
   * (knownReviews.ts).
   */
  async load(gameId: string | null, reviewId: string | null, kept?: KeptReview | null): Promise<void> {
    const generation = this.generation;
    let review: Review | null = null;
    try {
      if (reviewId) review = await reviewApi.get(reviewId).catch(() => null);
      const hasKept = kept === undefined ? !!gameId && knownReviews.has(gameId) : kept !== null;
      if (!review && gameId && hasKept) {
        review = await reviewApi.forGame(gameId);
        if (!review) knownReviews.remove(gameId);
      }
    } catch {
      return; // no kept review to show (or no server): the page works without
    }
    if (!review || generation !== this.generation) return;
    this.adopt(review);
  }

  /** Starts a review (or joins the one the server already has for the same game version). */
  async start(source: ReviewSource): Promise<Review | null> {
    this.reset();
    const generation = this.generation;
    this.lastSource = source;
    this.phase = 'starting';
    this.notify();
    const limits = storedLimits();
    try {
      const review =
        'gameId' in source ? await reviewApi.startForGame(source.gameId, limits) : await reviewApi.startForPgn(source.pgn, limits);
      if (generation !== this.generation) return null;
      this.adopt(review);
      return review;
    } catch (err) {
      if (generation !== this.generation) return null;
      this.failRequest(err);
      return null;
    }
  }

  async stop(): Promise<void> {
    const review = this.review;
    if (!review || this.phase !== 'running') return;
    const generation = this.generation;
    try {
      const stopped = await reviewApi.stop(review.id);
      if (generation === this.generation && stopped.status !== 'running') {
        this.abort?.abort();
        this.abort = null;
        this.adopt(stopped);
      }
    } catch (err) {
      // A review that finished meanwhile cannot be stopped: the stream brings its end.
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 409))) this.failRequest(err, true);
    }
  }

  // ---- What the page shows --------------------------------------------------------------------

  /** The reviewed move at a ply (1 = the first move of the review), once known. */
  moveAt(ply: number): ReviewedMove | undefined {
    return this.plies.get(ply);
  }

  /** White's win probability in the position after `ply` moves, once known. */
  winAt(ply: number): number | undefined {
    return this.plies.get(ply)?.winAfter ?? this.plies.get(ply + 1)?.winBefore;
  }

  /** The evaluation (White's view) of the position after `ply` moves, once known. */
  scoreAt(ply: number): Score | undefined {
    return this.plies.get(ply)?.after ?? this.plies.get(ply + 1)?.before;
  }

  /** Whether any reviewed move is known. */
  hasPositions(): boolean {
    return this.plies.size > 0;
  }

  /** Plies of the inaccuracies, mistakes and blunders, in order. */
  flaggedPlies(): number[] {
    return [...this.plies.values()]
      .filter((m) => FLAGGED.has(m.class))
      .map((m) => m.ply)
      .sort((a, b) => a - b);
  }

  /** How many leading moves of a game (from `initialFen`) the review covers. */
  coveredPlies(initialFen: string, moves: string[]): number {
    const review = this.review;
    if (!review || review.initialFen.split(' ').slice(0, 4).join(' ') !== initialFen.split(' ').slice(0, 4).join(' ')) return 0;
    let n = 0;
    while (n < review.moves.length && n < moves.length && review.moves[n] === moves[n]) n++;
    return n;
  }

  // ---- Following --------------------------------------------------------------------------------

  private adopt(review: Review): void {
    this.review = review;
    if (review.gameId) knownReviews.add(review.gameId);
    for (const move of review.plies ?? []) this.plies.set(move.ply, move);
    this.done = Math.max(review.status === 'running' ? this.done : 0, review.done ?? 0);
    this.total = review.total ?? review.moves.length + 1;
    this.phase = review.status;
    this.message = review.status === 'failed' ? errorText(review.error) : '';
    this.notify();
    if (review.status === 'running' && !this.abort) void this.follow(review.id);
  }

  private apply(event: ReviewEvent): void {
    if (event.kind === 'review') {
      // The first line repeats what we know; the last one is the finished review.
      const { review } = event;
      if (review.status === 'running') {
        this.review = review;
        for (const move of review.plies ?? []) this.plies.set(move.ply, move);
        this.done = Math.max(this.done, review.done ?? 0);
        this.total = review.total ?? this.total;
        this.notify();
      } else {
        this.abort = null;
        this.adopt(review);
      }
      return;
    }
    const { progress } = event;
    if (progress.move) this.plies.set(progress.move.ply, progress.move);
    this.done = Math.max(this.done, progress.done ?? 0);
    if (progress.total) this.total = progress.total;
    this.notify();
  }

  /** Follows the stream until the review ends; reconnects when the connection breaks. */
  private async follow(reviewId: string): Promise<void> {
    const generation = this.generation;
    const controller = new AbortController();
    this.abort = controller;
    let pause = RECONNECT_FIRST_MS;
    while (generation === this.generation && this.phase === 'running' && !controller.signal.aborted) {
      try {
        await followReview(reviewId, (event) => {
          if (generation === this.generation) this.apply(event);
        }, controller.signal);
        pause = RECONNECT_FIRST_MS;
      } catch (err) {
        if (controller.signal.aborted || generation !== this.generation) return;
        if (err instanceof ApiError && err.status === 404) {
          this.abort = null;
          this.phase = 'failed';
          this.message = 'The server no longer has this review';
          this.notify();
          return;
        }
        if (err instanceof ApiError && err.status === 0 && err.code !== 'network') {
          // An error line in the stream: the review failed.
          this.abort = null;
          this.phase = 'failed';
          this.message = err.message;
          this.notify();
          return;
        }
      }
      if (generation !== this.generation || this.phase !== 'running') return;
      // The stream ended or broke before the review did: read it, then listen again.
      await sleep(pause);
      pause = Math.min(pause * 2, RECONNECT_MAX_MS);
      if (generation !== this.generation) return;
      try {
        const review = await reviewApi.get(reviewId);
        if (generation !== this.generation) return;
        if (review.status !== 'running') {
          this.abort = null;
          this.adopt(review);
          return;
        }
        this.apply({ kind: 'review', review });
      } catch {
        // Still unreachable: try the stream again after the pause.
      }
    }
  }

  private failRequest(err: unknown, keepReview = false): void {
    if (err instanceof ApiError && err.busy) {
      this.phase = 'busy';
      this.retryAt = Date.now() + (err.retryAfter ?? 5) * 1000;
      this.message =
        err.status === 429
          ? 'You already have a review running on this server.'
          : 'The server is busy with other reviews.';
    } else {
      if (!keepReview) this.phase = 'error';
      this.message = err instanceof Error ? err.message : String(err);
    }
    this.notify();
  }

  /** Redraws at most once per frame: a fast review sends many lines. */
  private notify(): void {
    if (this.notifyQueued) return;
    this.notifyQueued = true;
    const run = () => {
      this.notifyQueued = false;
      this.changed();
    };
    if (document.visibilityState === 'visible') requestAnimationFrame(run);
    else window.setTimeout(run, 50);
  }
}

function errorText(error: Review['error']): string {
  if (!error) return 'The review failed';
  return typeof error === 'string' ? error : error.message || error.code;
}
