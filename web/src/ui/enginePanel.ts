// The live engine panel and the evaluation bar.
import type { Score, SearchInfo } from '../api/types';
import { lineToSan, numberedLine } from '../chess/position';
import { byId } from './dom';
import { formatCount, formatScore, whiteWinChance } from './format';

const PV_MAX_MOVES = 12;

/** SAN of an info's PV: the server's pvSan when given, else computed from the position. */
export function pvText(fen: string, info: SearchInfo, maxMoves = PV_MAX_MOVES): string {
  const san = info.pvSan && info.pvSan.length ? info.pvSan : lineToSan(fen, info.pv ?? []);
  return numberedLine(fen, san.slice(0, maxMoves));
}

export function renderEngineInfo(info: SearchInfo | null, fen: string, thinking: boolean): void {
  const stats = byId('engine-stats');
  const set = (key: string, value: string) => {
    const dd = stats.querySelector<HTMLElement>(`[data-k="${key}"]`);
    if (dd) dd.textContent = value;
  };
  byId('thinking').hidden = !thinking;
  if (!info) {
    for (const key of ['score', 'depth', 'nps', 'nodes']) set(key, '–');
    byId('engine-pv').textContent = '';
    return;
  }
  set('score', formatScore(info.score));
  set('depth', info.depth === undefined ? '–' : `${info.depth}${info.seldepth ? `/${info.seldepth}` : ''}`);
  set('nps', formatCount(info.nps));
  set('nodes', formatCount(info.nodes));
  byId('engine-pv').textContent = pvText(fen, info);
}

/** A score short enough for the narrow bar: "0.3", "5", "#3"; a mated position its result, "1-0". */
function shortScore(score: Score, turn?: 'white' | 'black'): string {
  if (score.mate === 0) return turn ? (turn === 'white' ? '0-1' : '1-0') : '#';
  if (score.mate !== undefined) return `#${Math.abs(score.mate)}`;
  const pawns = Math.abs(score.cp ?? 0) / 100;
  return pawns >= 10 ? pawns.toFixed(0) : pawns.toFixed(1);
}

/** `turn`: the side to move in the position scored (a mated side, when the score is mate 0). */
export function renderEvalBar(score: Score | undefined, orientation: 'white' | 'black', turn?: 'white' | 'black'): void {
  const bar = byId('eval-bar');
  const white = whiteWinChance(score, turn);
  const fill = bar.querySelector<HTMLElement>('.eval-fill');
  const label = bar.querySelector<HTMLElement>('.eval-label');
  // The white part grows from White's side of the board.
  bar.dataset.orientation = orientation;
  if (fill) fill.style.height = `${(white * 100).toFixed(1)}%`;
  if (label) {
    label.textContent = score ? shortScore(score, turn) : '';
    // The number sits at the end of the side that is better.
    label.dataset.side = white >= 0.5 ? 'white' : 'black';
  }
  bar.dataset.known = score ? 'true' : 'false';
}
