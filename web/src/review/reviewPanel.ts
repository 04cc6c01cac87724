// The review card beside the board: progress, each side's summary, the move on the board with
// its class and the better move, and "previous/next mistake" navigation.
import type { MoveClass, Review, ReviewedMove, Score, SideSummary } from '../api/types';
import { lineToSan, numberedLine, viewAt } from '../chess/position';
import { byId, el } from '../ui/dom';
import { CLASS_MARK, countOf, formatScore } from '../ui/format';
import type { ReviewSession } from './reviewSession';

/** The badge of each class; `good` means "not judged" (Lichess leaves such a move unmarked). */
export const CLASS_NAME: Record<MoveClass, string> = {
  best: 'Best move',
  good: '',
  inaccuracy: 'Inaccuracy',
  mistake: 'Mistake',
  blunder: 'Blunder',
};

export interface PanelContext {
  session: ReviewSession;
  /** The position on the board (moves played from the review's start). */
  viewPly: number;
  /** How many leading moves of the game on screen the review covers. */
  covered: number;
  /** Moves of the game on screen. */
  gameMoves: number;
}

export interface PanelActions {
  select: (ply: number) => void;
  again: () => void;
  stop: () => void;
}

/** Marks an accuracy the page worked out itself: a plain mean, not Lichess's game accuracy. */
const PROVISIONAL = '≈';

/**
 * A move's accuracy: the server's own (docs/review.md), else worked out from its win loss the way
 * the server does (a server older than the per-move field).
 */
function moveAccuracy(move: ReviewedMove): number {
  if (typeof move.accuracy === 'number') return move.accuracy;
  const acc = 103.1668 * Math.exp(-0.04354 * (100 * move.winLoss)) - 3.1669;
  return Math.max(0, Math.min(100, acc));
}

/**
 * The summary of the moves reviewed so far, until the server's own arrives. Its accuracy is the
 * plain mean of the moves' accuracies, only an estimate of the game accuracy the server computes
 * (weighted by the game's volatility, with a harmonic mean), so the page marks it provisional.
 */
function summarise(moves: ReviewedMove[]): { white: SideSummary; black: SideSummary } {
  const side = (color: 'white' | 'black'): SideSummary => {
    const mine = moves.filter((m) => m.side === color);
    const count = (cls: MoveClass) => mine.filter((m) => m.class === cls).length;
    const mean = (f: (m: ReviewedMove) => number) => (mine.length ? mine.reduce((s, m) => s + f(m), 0) / mine.length : 0);
    return {
      accuracy: mean(moveAccuracy),
      inaccuracies: count('inaccuracy'),
      mistakes: count('mistake'),
      blunders: count('blunder'),
      acpl: mean((m) => m.cpLoss),
    };
  };
  return { white: side('white'), black: side('black') };
}

/** A score for people; a position already mated (mate 0) says so. */
function scoreText(score: Score): string {
  return score.mate === 0 ? 'mate' : formatScore(score);
}

function limitsText(review: Review | null): string {
  const l = review?.limitsApplied;
  if (!l) return '';
  const parts = [l.depth ? `depth ${l.depth}` : '', l.nodes ? `${l.nodes.toLocaleString('en')} nodes` : '', l.movetime ? `${l.movetime} ms` : ''];
  const text = parts.filter(Boolean).join(', ');
  return text ? ` · ${text} per position` : '';
}

/** Positions the time cap cut short make a review that may differ when run again: said once done. */
function timeCappedText(review: Review | null): string {
  const n = review?.timeCapped ?? 0;
  if (n <= 0) return '';
  const positions = n === 1 ? '1 position was' : `${n} positions were`;
  return ` · ${positions} cut short by the time cap (a second review may differ)`;
}

export class ReviewPanel {
  private countdown: number | undefined;
  private last: PanelContext | null = null;

  constructor(private readonly actions: PanelActions) {
    byId('review-stop').addEventListener('click', () => actions.stop());
    byId('review-again').addEventListener('click', () => actions.again());
    byId('review-prev').addEventListener('click', () => this.jump(-1));
    byId('review-next').addEventListener('click', () => this.jump(1));
  }

  /** The previous (−1) or next (+1) inaccuracy, mistake or blunder from the position shown. */
  jump(direction: -1 | 1): void {
    const ctx = this.last;
    if (!ctx) return;
    const target = this.neighbour(ctx, direction);
    if (target !== undefined) this.actions.select(target);
  }

  private neighbour(ctx: PanelContext, direction: -1 | 1): number | undefined {
    const flagged = ctx.session.flaggedPlies().filter((ply) => ply <= ctx.covered);
    return direction > 0 ? flagged.find((ply) => ply > ctx.viewPly) : [...flagged].reverse().find((ply) => ply < ctx.viewPly);
  }

  render(ctx: PanelContext): void {
    this.last = ctx;
    const { session } = ctx;
    const card = byId('review-card');
    card.hidden = session.phase === 'idle';
    card.dataset.phase = session.phase;
    if (card.hidden) return;
    const review = session.review;

    // Status line and progress.
    const status = byId('review-status');
    const total = session.total || (review ? review.moves.length + 1 : 0);
    const reviewedMoves = review?.moves.length ?? 0;
    let text = '';
    window.clearTimeout(this.countdown);
    switch (session.phase) {
      case 'starting':
        text = 'Starting the review…';
        break;
      case 'running':
        text = `Reviewing… ${session.done} of ${total} positions`;
        break;
      case 'done':
        text = `${countOf(reviewedMoves, 'move')} reviewed${limitsText(review)}`;
        text += timeCappedText(review);
        // The line on screen goes on from the reviewed game, or parts from it (a line tried).
        if (ctx.covered < ctx.gameMoves) {
          text +=
            ctx.covered >= reviewedMoves
              ? ` — the game has ${ctx.gameMoves - ctx.covered} more since`
              : ctx.covered > 0
                ? ` — the line on screen leaves the reviewed game after move ${ctx.covered}`
                : ' — the line on screen is not the reviewed game';
        }
        break;
      case 'stopped':
        text = `Stopped after ${session.done} of ${total} positions; the summary covers what was done.${timeCappedText(review)}`;
        break;
      case 'failed':
        text = `The review failed: ${session.message}`;
        break;
      case 'busy': {
        const seconds = Math.max(0, Math.ceil((session.retryAt - Date.now()) / 1000));
        text = `${session.message} ${seconds > 0 ? `Try again in ${seconds} s.` : 'Try again now.'}`;
        if (seconds > 0) this.countdown = window.setTimeout(() => this.last && this.render(this.last), 1000);
        break;
      }
      case 'error':
        text = `The review could not start: ${session.message}`;
        break;
      default:
        break;
    }
    if (session.phase === 'running' && session.message) text += ` (${session.message})`;
    status.textContent = text;
    // Not read out on every position while it runs (the progress bar carries that); the end is.
    status.setAttribute('aria-busy', String(session.phase === 'running'));
    status.classList.toggle('error', ['failed', 'busy', 'error'].includes(session.phase));

    const progress = byId('review-progress');
    const showProgress = session.phase === 'running' || session.phase === 'starting';
    progress.hidden = !showProgress;
    const fraction = total ? Math.min(1, session.done / total) : 0;
    progress.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
    progress.querySelector<HTMLElement>('.review-progress-fill')!.style.width = `${(fraction * 100).toFixed(1)}%`;

    const stop = byId<HTMLButtonElement>('review-stop');
    stop.hidden = session.phase !== 'running';
    const again = byId<HTMLButtonElement>('review-again');
    const outdated = session.phase === 'done' && ctx.covered < ctx.gameMoves;
    again.hidden = !(outdated || ['stopped', 'failed', 'busy', 'error'].includes(session.phase));
    again.textContent = session.phase === 'stopped' || outdated ? 'Review again' : 'Try again';
    again.disabled = session.phase === 'busy' && Date.now() < session.retryAt;

    this.renderSummary(session, review);
    this.renderMove(ctx, review);

    const prev = byId<HTMLButtonElement>('review-prev');
    const next = byId<HTMLButtonElement>('review-next');
    byId('review-nav').hidden = !review;
    prev.disabled = this.neighbour(ctx, -1) === undefined;
    next.disabled = this.neighbour(ctx, 1) === undefined;
  }

  private renderSummary(session: ReviewSession, review: Review | null): void {
    const table = byId('review-summary');
    const moves: ReviewedMove[] = [];
    if (review) for (let ply = 1; ply <= review.moves.length; ply++) {
      const move = session.moveAt(ply);
      if (move) moves.push(move);
    }
    if (!review || moves.length === 0) {
      table.hidden = true;
      return;
    }
    table.hidden = false;
    // The server's summary once the review ends; until then the page's own, marked provisional.
    const final = session.phase !== 'running' ? review.summary : undefined;
    const provisional = !final;
    const summary = final ?? summarise(moves);
    const head = el('thead');
    const headRow = el('tr');
    headRow.append(el('th', undefined, session.phase === 'running' ? 'So far' : ''));
    for (const side of ['White', 'Black']) {
      const th = el('th', `rs-side rs-${side.toLowerCase()}`, side);
      th.scope = 'col';
      headRow.append(th);
    }
    head.append(headRow);
    const body = el('tbody');
    const row = (label: string, cls: string, value: (s: SideSummary) => string) => {
      const tr = el('tr', cls);
      const th = el('th', undefined, label);
      th.scope = 'row';
      tr.append(th, el('td', undefined, value(summary.white)), el('td', undefined, value(summary.black)));
      body.append(tr);
    };
    row('Accuracy', 'rs-accuracy', (s) => `${provisional ? PROVISIONAL : ''}${Math.round(s.accuracy)}%`);
    if (provisional) {
      body.querySelector('.rs-accuracy th')!.setAttribute('title', 'So far: the mean of the moves\u2019 accuracies; the game accuracy comes at the end');
    }
    row('Inaccuracies', 'rs-count rs-inaccuracy', (s) => String(s.inaccuracies));
    row('Mistakes', 'rs-count rs-mistake', (s) => String(s.mistakes));
    row('Blunders', 'rs-count rs-blunder', (s) => String(s.blunders));
    row('Average loss (cp)', 'rs-acpl', (s) => String(Math.round(s.acpl)));
    table.replaceChildren(head, body);
  }

  private renderMove(ctx: PanelContext, review: Review | null): void {
    const box = byId('review-move');
    box.replaceChildren();
    if (!review) return;
    const ply = ctx.viewPly;
    if (ply === 0) {
      box.append(el('p', 'hint', 'Pick a move, a point on the graph, or jump to the next mistake.'));
      return;
    }
    if (ply > ctx.covered) {
      box.append(el('p', 'hint', 'This move is not part of the review.'));
      return;
    }
    const move = ctx.session.moveAt(ply);
    const fenBefore = viewAt(review.initialFen, review.moves, ply - 1).fen;
    const san = review.san?.[ply - 1] ?? move?.san ?? lineToSan(fenBefore, [review.moves[ply - 1]])[0] ?? review.moves[ply - 1];
    const head = el('p', 'rm-head');
    const mark = move ? CLASS_MARK[move.class] ?? '' : '';
    head.append(el('span', 'rm-san', `${numberedLine(fenBefore, [san])}${mark}`));
    if (!move) {
      head.append(el('span', 'rm-pending', ctx.session.phase === 'running' ? 'not reviewed yet…' : 'not reviewed'));
      box.append(head);
      return;
    }
    // A move not judged (`good`) gets no badge, as on Lichess.
    if (CLASS_NAME[move.class]) head.append(el('span', `rm-class rv-${move.class}`, CLASS_NAME[move.class]));
    head.append(el('span', 'rm-eval', `${scoreText(move.before)} → ${scoreText(move.after)}`));
    box.append(head);
    const notes: string[] = [];
    if (move.walkedIntoMate) notes.push('This allows a forced mate.');
    if (move.missedMate) notes.push('A forced mate was missed.');
    if (notes.length) box.append(el('p', 'rm-note', notes.join(' ')));
    if (move.best && move.best.move !== move.move) {
      const bestSan = move.best.san ?? lineToSan(fenBefore, [move.best.move])[0] ?? move.best.move;
      const best = el('p', 'rm-best');
      best.append('Best was ', el('strong', 'rm-best-move', bestSan));
      const pvSan = move.best.pvSan?.length ? move.best.pvSan : lineToSan(fenBefore, move.best.pv ?? []);
      if (pvSan.length > 1) best.append(el('span', 'rm-pv', numberedLine(fenBefore, pvSan.slice(0, 8))));
      box.append(best);
    }
  }
}
