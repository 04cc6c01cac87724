// The engine's search as it reported itself, kept so that the panel can show the line of the move
// the engine actually played. Below full strength the engine often plays another candidate than
// the first line of its search (a level picks among its MultiPV lines), so "the last info" is not
// that line; the deepest line starting with the played move is.
import type { EngineMove, SearchInfo } from '../api/types';

export class EngineLines {
  private fen: string | null = null;
  /** The deepest line seen for each first move, of the search from `fen`. */
  private byFirstMove = new Map<string, SearchInfo>();

  /** An info of the engine's search from `fen`. */
  add(fen: string, info: SearchInfo): void {
    if (fen !== this.fen) this.reset(fen);
    const first = info.pv?.[0];
    if (!first) return;
    const known = this.byFirstMove.get(first);
    if (!known || (info.depth ?? 0) >= (known.depth ?? 0)) this.byFirstMove.set(first, info);
  }

  reset(fen: string | null = null): void {
    this.fen = fen;
    this.byFirstMove.clear();
  }

  /**
   * What the panel shows for the move `uci` the engine played from `fen`: the reply's own report
   * when its line starts with that move, else the deepest reported line that does, else the move
   * alone (with the reply's depth and nodes).
   */
  playedLine(fen: string, uci: string, reply?: EngineMove): SearchInfo {
    const seen = this.fen === fen ? this.byFirstMove.get(uci) : undefined;
    const replied = reply && reply.move === uci ? reply : undefined;
    if (replied && replied.pv?.[0] === uci) {
      const timeMs = (replied as { timeMs?: number }).timeMs;
      const nps = replied.nodes && timeMs ? Math.round((replied.nodes * 1000) / timeMs) : seen?.nps;
      const pvSan = (replied as { pvSan?: string[] }).pvSan;
      return { ...seen, score: replied.score, depth: replied.depth, nodes: replied.nodes, nps, pv: replied.pv, pvSan };
    }
    if (seen) return seen;
    return { depth: replied?.depth, nodes: replied?.nodes, pv: [uci], pvSan: replied?.san ? [replied.san] : undefined };
  }
}
