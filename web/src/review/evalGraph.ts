// The evaluation graph of a review: White's win probability after every move, as an inline SVG.
// White's share fills from the bottom (like the evaluation bar); inaccuracies, mistakes and
// blunders are dots in their colours; the position on the board is a vertical line. A click (or
// tap) shows the position at that point; the graph is a slider for the keyboard (← → Home End).
import type { MoveClass } from '../api/types';

const SVG_NS = 'http://www.w3.org/2000/svg';
const HEIGHT = 96;
const PAD_X = 6;
const PAD_Y = 6;

export interface GraphModel {
  /** Moves in the reviewed game: the graph has positions 0..plies. */
  plies: number;
  /** White's win probability after `ply` moves, when known. */
  winAt: (ply: number) => number | undefined;
  /** The class of the move that led to `ply`, when known. */
  classAt: (ply: number) => MoveClass | undefined;
  /** "12. Nf3 — White 54%" style text for a position, for the slider and tooltips. */
  describe: (ply: number) => string;
  /** The position on the board (−1: none of the graph's). */
  current: number;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

export class EvalGraph {
  private model: GraphModel | null = null;
  private width = 0;

  constructor(
    private readonly host: HTMLElement,
    private readonly onSelect: (ply: number) => void,
  ) {
    host.addEventListener('click', (event) => {
      const ply = this.plyAt(event.clientX);
      if (ply !== null) this.onSelect(ply);
    });
    // The pointer's position, as a tooltip.
    host.addEventListener('mousemove', (event) => {
      const ply = this.plyAt(event.clientX);
      if (ply !== null && this.model) host.title = this.model.describe(ply);
    });
    // Redraw at the new width (the board and the graph follow the window).
    new ResizeObserver(() => {
      if (this.model && this.host.clientWidth !== this.width) this.render(this.model);
    }).observe(host);
  }

  private plyAt(clientX: number): number | null {
    const model = this.model;
    if (!model || model.plies === 0) return null;
    const rect = this.host.getBoundingClientRect();
    const step = (rect.width - 2 * PAD_X) / model.plies;
    const ply = Math.round((clientX - rect.left - PAD_X) / step);
    return Math.max(0, Math.min(model.plies, ply));
  }

  render(model: GraphModel): void {
    this.model = model;
    const width = Math.max(120, this.host.clientWidth || 480);
    this.width = this.host.clientWidth;
    const n = Math.max(1, model.plies);
    const x = (ply: number) => PAD_X + (ply * (width - 2 * PAD_X)) / n;
    const y = (win: number) => PAD_Y + (1 - win) * (HEIGHT - 2 * PAD_Y);

    const root = svg('svg', { width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, class: 'eval-graph-svg' });
    root.setAttribute('tabindex', '0');
    root.setAttribute('role', 'slider');
    root.setAttribute('aria-label', 'Evaluation graph: White’s winning chances after each move');
    root.setAttribute('aria-valuemin', '0');
    root.setAttribute('aria-valuemax', String(model.plies));
    const current = Math.max(0, Math.min(model.plies, model.current));
    root.setAttribute('aria-valuenow', String(current));
    root.setAttribute('aria-valuetext', model.describe(current));

    root.appendChild(svg('rect', { x: 0, y: 0, width, height: HEIGHT, class: 'eg-black', rx: 4 }));

    // Positions not reviewed (yet): a hatched band, so they do not read as Black's.
    const defs = svg('defs', {});
    const pattern = svg('pattern', { id: 'eg-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
    pattern.appendChild(svg('rect', { width: 6, height: 6, class: 'eg-pending' }));
    pattern.appendChild(svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'eg-hatch-line' }));
    defs.appendChild(pattern);
    root.appendChild(defs);
    let gapStart: number | null = null;
    for (let ply = 0; ply <= model.plies + 1; ply++) {
      const known = ply <= model.plies && model.winAt(ply) !== undefined;
      if (!known && ply <= model.plies && gapStart === null) gapStart = ply;
      if ((known || ply > model.plies) && gapStart !== null) {
        const left = gapStart === 0 ? 0 : x(gapStart - 1);
        const right = ply > model.plies ? width : x(ply);
        root.appendChild(svg('rect', { x: left, y: 0, width: Math.max(0, right - left), height: HEIGHT, fill: 'url(#eg-hatch)' }));
        gapStart = null;
      }
    }

    // White's area, one path per run of known positions (a review fills in as it goes).
    let run: Array<[number, number]> = [];
    const flush = () => {
      if (run.length === 0) return;
      // The first and last positions reach the edges (no dark strip beside the curve).
      if (run[0][0] === x(0)) run.unshift([0, run[0][1]]);
      if (run[run.length - 1][0] === x(model.plies)) run.push([width, run[run.length - 1][1]]);
      const line = run.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' L');
      const first = run[0][0].toFixed(1);
      const last = run[run.length - 1][0].toFixed(1);
      root.appendChild(svg('path', { d: `M${first},${HEIGHT} L${line} L${last},${HEIGHT} Z`, class: 'eg-white' }));
      root.appendChild(svg('path', { d: `M${line}`, class: 'eg-line' }));
      run = [];
    };
    for (let ply = 0; ply <= model.plies; ply++) {
      const win = model.winAt(ply);
      if (win === undefined) flush();
      else run.push([x(ply), y(win)]);
    }
    flush();
    root.appendChild(svg('line', { x1: 0, x2: width, y1: y(0.5), y2: y(0.5), class: 'eg-mid' }));

    if (model.current >= 0 && model.current <= model.plies) {
      root.appendChild(svg('line', { x1: x(current), x2: x(current), y1: 0, y2: HEIGHT, class: 'eg-cursor' }));
    }
    for (let ply = 1; ply <= model.plies; ply++) {
      const cls = model.classAt(ply);
      const win = model.winAt(ply);
      if (win === undefined || !cls || cls === 'best' || cls === 'good') continue;
      const dot = svg('circle', { cx: x(ply), cy: y(win), r: ply === current ? 5.5 : 4, class: `eg-dot eg-${cls}` });
      dot.dataset.ply = String(ply);
      const title = svg('title', {});
      title.textContent = model.describe(ply);
      dot.appendChild(title);
      root.appendChild(dot);
    }
    if (model.current >= 0 && model.current <= model.plies) {
      const win = model.winAt(current);
      if (win !== undefined && !root.querySelector(`.eg-dot[data-ply="${current}"]`)) {
        root.appendChild(svg('circle', { cx: x(current), cy: y(win), r: 3.5, class: 'eg-here' }));
      }
    }
    // Keep keyboard focus across redraws (the graph is redrawn on every move shown).
    const hadFocus = this.host.contains(document.activeElement);
    this.host.replaceChildren(root);
    if (hadFocus) root.focus({ preventScroll: true });
  }
}
