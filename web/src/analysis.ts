// Live analysis over the WebSocket: one search at a time for the position on screen, MultiPV
// lines as they arrive, a stop button, and the technique switches sent as `options`.
import type { Socket, SocketMessage } from './api/socket';
import type { BestMove, SearchInfo } from './api/types';
import { legalMovesAt } from './chess/position';
import { byId, el, toast } from './ui/dom';
import { pvText } from './ui/enginePanel';
import { formatCount, formatScore } from './ui/format';
import { normaliseStats, renderTechniques, TECHNIQUES } from './ui/techniques';

const MULTIPV_KEY = 'outpost.multipv';
const OPTIONS_KEY = 'outpost.techniques';
const DEFAULT_MULTIPV = 2;
// Analysis runs until stopped or until this much time; the server clamps it to its own cap.
const ANALYSIS_LIMITS = { movetime: 60000 };
const START_DELAY_MS = 120;

/** What is analysed: a start position, the moves from it, and the FEN they lead to. */
export interface AnalysisTarget {
  initialFen: string;
  moves: string[];
  fen: string;
}

export class Analysis {
  private id: string | null = null;
  private running = false;
  private lines = new Map<number, SearchInfo>();
  /** The position the lines belong to. */
  private fen = '';
  private stats = new Map<string, number>();
  /** False after Stop: position changes do not start a new search until Analyse is pressed. */
  private wanted = true;
  private multipv = Number(localStorage.getItem(MULTIPV_KEY) ?? DEFAULT_MULTIPV) || DEFAULT_MULTIPV;
  private options: Record<string, boolean> = JSON.parse(localStorage.getItem(OPTIONS_KEY) ?? '{}');
  private target: AnalysisTarget | null = null;
  private startTimer: number | undefined;

  /** `changed` is called whenever the lines change (the owner redraws arrows and the bar). */
  constructor(
    private readonly socket: Socket,
    private readonly changed: () => void,
    /** Plays a line's first move on the board (clicking a line). */
    private readonly playMove: (uci: string) => void,
  ) {
    byId('btn-stop').addEventListener('click', () => {
      this.wanted = false;
      this.stop();
      this.render();
    });
    byId('btn-analyse').addEventListener('click', () => {
      this.wanted = true;
      this.restart();
    });
    const multipv = byId<HTMLSelectElement>('multipv');
    multipv.value = String(this.multipv);
    multipv.addEventListener('change', () => {
      this.multipv = Number(multipv.value);
      localStorage.setItem(MULTIPV_KEY, String(this.multipv));
      this.wanted = true;
      this.restart();
    });
  }

  /** Analyses `target` from now on (null: the page shows no analysis board). */
  follow(target: AnalysisTarget | null, options: { wanted?: boolean } = {}): void {
    if (options.wanted !== undefined) this.wanted = options.wanted;
    const samePosition =
      target && this.target && target.fen === this.target.fen && target.moves.join() === this.target.moves.join();
    const opened = target && !this.target;
    this.target = target;
    if (!target) {
      this.stop();
      this.stats = new Map();
      this.render();
      return;
    }
    if (opened) this.renderTechniques();
    if (!samePosition || (!this.running && this.wanted)) this.restart();
  }

  /** Search again (after a reconnect, or when the settings changed). */
  restart(): void {
    this.stop();
    window.clearTimeout(this.startTimer);
    const target = this.target;
    if (!target || !this.wanted || this.socket.state !== 'open') {
      // Stopped (or offline: the search starts when the connection is back), and another position
      // on screen (a move, another line): the lines were the old position's, and so would be the
      // final ones of its search still to come. They go, else their text, arrows and "play this
      // line" would read as this position's.
      if (target && target.fen !== this.fen) this.forgetLines(target.fen);
      this.render();
      return;
    }
    if (legalMovesAt(target.initialFen, target.moves, target.moves.length).length === 0) {
      // Checkmate or stalemate on the board (a finished game opened to review): nothing to search.
      this.running = false;
      this.lines = new Map();
      this.fen = target.fen;
      this.render();
      return;
    }
    // Shown as running at once; sent a moment later, so stepping quickly through the moves
    // starts one search at the end rather than one per position (the server limits searches
    // per client).
    this.id = null;
    this.running = true;
    this.lines = new Map();
    this.fen = target.fen;
    this.render();
    this.startTimer = window.setTimeout(() => this.begin(target), START_DELAY_MS);
  }

  private begin(target: AnalysisTarget): void {
    if (target !== this.target) return;
    const id = this.socket.newId('analysis-');
    const options: Record<string, boolean> = {};
    for (const technique of TECHNIQUES) {
      const on = this.options[technique.name];
      if (on !== undefined && on !== technique.defaultOn) options[technique.name] = on;
    }
    const sent = this.socket.send({
      type: 'analyse',
      id,
      fen: target.initialFen,
      moves: target.moves,
      limits: ANALYSIS_LIMITS,
      multipv: this.multipv,
      options,
    });
    this.id = sent ? id : null;
    this.running = sent;
    this.render();
  }

  /** No lines (and no search whose lines would still be taken) until `fen` is searched. */
  private forgetLines(fen: string): void {
    this.id = null;
    this.lines = new Map();
    this.fen = fen;
  }

  stop(): void {
    window.clearTimeout(this.startTimer);
    if (this.id && this.running) this.socket.send({ type: 'stop', id: this.id });
    this.running = false;
  }

  /**
   * The connection dropped: the server stopped our search. A wanted one starts again when the
   * connection is back (restart, from the owner); meanwhile the card says it waits for it.
   */
  connectionLost(): void {
    this.running = false;
    this.id = null;
    this.render();
  }

  /** A search is wanted but the connection is down: it starts when the connection is back. */
  private waiting(): boolean {
    return this.wanted && this.socket.state !== 'open';
  }

  /** Handles a socket message if it belongs to the current analysis; true when it did. */
  handle(message: SocketMessage): boolean {
    if (!message.id || message.id !== this.id) return false;
    if (message.type === 'info') {
      const info = message as unknown as SearchInfo;
      this.lines.set(info.multipv ?? 1, info);
      this.render();
    } else if (message.type === 'bestmove') {
      const best = message as unknown as BestMove;
      this.running = false;
      for (const line of best.lines ?? []) {
        const previous = this.lines.get(line.multipv ?? 1);
        this.lines.set(line.multipv ?? 1, { ...previous, ...line });
      }
      this.stats = normaliseStats(best.stats);
      this.render();
      this.renderTechniques();
    } else if (message.type === 'error') {
      this.running = false;
      this.render();
      toast(String(message.message ?? message.code ?? 'Analysis failed'), 'error');
    }
    return true;
  }

  /** The lines, best first. */
  sortedLines(): SearchInfo[] {
    return [...this.lines.values()].sort((a, b) => (a.multipv ?? 1) - (b.multipv ?? 1));
  }

  /** Whether a search is wanted (Analyse pressed, or never stopped). */
  want(): void {
    this.wanted = true;
  }

  /** No search until Analyse is pressed (a board opened to show a review). */
  pause(): void {
    this.wanted = false;
    this.stop();
  }

  render(): void {
    const card = byId('analysis-card');
    card.hidden = !this.target;
    if (!this.target) return;
    byId<HTMLButtonElement>('btn-stop').disabled = !this.running;
    byId<HTMLButtonElement>('btn-analyse').disabled = this.running;
    card.dataset.running = String(this.running);

    const sorted = this.sortedLines();
    const best = sorted[0];
    const summary = byId('analysis-summary');
    if (best) {
      const depth = `${best.depth ?? '–'}${best.seldepth ? `/${best.seldepth}` : ''}`;
      const state = this.running ? 'Analysing' : this.waiting() ? 'Waiting for the server' : 'Stopped';
      summary.textContent = `${state} · depth ${depth} · ${formatCount(best.nps)} nodes/s · ${formatCount(best.nodes)} nodes`;
    } else {
      const over = legalMovesAt(this.target.initialFen, this.target.moves, this.target.moves.length).length === 0;
      summary.textContent = this.running
        ? 'Analysing…'
        : over
          ? 'No moves to analyse: the game is over'
          : this.waiting()
            ? 'Waiting for the server: the analysis starts when the connection is back'
            : 'Analysis stopped';
    }
    const list = byId('analysis-lines');
    list.replaceChildren();
    for (const line of sorted) {
      const item = el('li', 'line');
      item.dataset.multipv = String(line.multipv ?? 1);
      const button = el('button', 'line-button');
      button.type = 'button';
      const first = line.pv?.[0];
      button.title = first ? 'Play this line’s first move' : '';
      button.disabled = !first;
      button.append(el('span', 'line-score', formatScore(line.score)), el('span', 'line-pv', pvText(this.fen, line)));
      if (first) button.addEventListener('click', () => this.playMove(first));
      item.appendChild(button);
      list.appendChild(item);
    }
    this.changed();
  }

  /** The technique switches: redrawn only when the counters change, so keyboard focus stays put. */
  renderTechniques(): void {
    if (!this.target) return;
    renderTechniques(byId('technique-list'), byId('other-stats'), this.options, this.stats, (name, on) => {
      this.options[name] = on;
      localStorage.setItem(OPTIONS_KEY, JSON.stringify(this.options));
      this.wanted = true;
      this.restart();
    });
  }
}
