// The analysis board's moves as a tree kept in the page: every line tried from any position stays
// as a variation of the first line played there, and the PGN export holds them all. Nothing is
// stored on the server (a branch used to be a new stored game).
import { lineToSan } from '../chess/position';
import { INITIAL_FEN } from '../chess/position';

interface Node {
  uci: string;
  san: string;
  children: Node[];
}

/**
 * A move of a variation as the move list shows it: its SAN, the line that leads to it (UCI from
 * the start, itself included), and the variations that part from it (the other moves tried in
 * its place), each a line of such moves.
 */
export interface VariationMove {
  san: string;
  line: string[];
  variations: VariationMove[][];
}

export class VariationTree {
  private root: Node[] = [];

  constructor(readonly initialFen: string = INITIAL_FEN) {}

  /** Adds the line `moves` (UCI from the start): new moves become variations where they part. */
  add(moves: string[]): void {
    const san = lineToSan(this.initialFen, moves);
    let level = this.root;
    moves.forEach((uci, i) => {
      let node = level.find((child) => child.uci === uci);
      if (!node) {
        node = { uci, san: san[i] ?? uci, children: [] };
        level.push(node);
      }
      level = node.children;
    });
  }

  /** The main line: the first move tried at each position. */
  mainline(): string[] {
    const out: string[] = [];
    for (let level = this.root; level.length > 0; level = level[0].children) out.push(level[0].uci);
    return out;
  }

  /** The line `moves` continued by the first move tried at each position after it. */
  continuation(moves: string[]): string[] {
    let level = this.root;
    for (const uci of moves) {
      const node = level.find((child) => child.uci === uci);
      if (!node) return [...moves];
      level = node.children;
    }
    const out = [...moves];
    for (; level.length > 0; level = level[0].children) out.push(level[0].uci);
    return out;
  }

  /** The other lines tried in place of the move `moves[ply - 1]` of the line `moves`. */
  variationsAt(moves: string[], ply: number): VariationMove[][] {
    let level = this.root;
    for (const uci of moves.slice(0, ply - 1)) {
      const node = level.find((child) => child.uci === uci);
      if (!node) return [];
      level = node.children;
    }
    const before = moves.slice(0, ply - 1);
    return level.filter((child) => child.uci !== moves[ply - 1]).map((child) => this.lineFrom(before, child));
  }

  /** The line from `first` (played after `before`) along first moves, with its own variations. */
  private lineFrom(before: string[], first: Node): VariationMove[] {
    const moves: VariationMove[] = [];
    let node: Node | undefined = first;
    let others: Node[] = [];
    let path = before;
    while (node) {
      const parent = path;
      path = [...path, node.uci];
      moves.push({ san: node.san, line: path, variations: others.map((other) => this.lineFrom(parent, other)) });
      [node, ...others] = node.children;
    }
    return moves;
  }

  /**
   * Every line of the tree, from the start to where it ends, in the tree's order: adding them in
   * turn to an empty tree builds this one again.
   */
  lines(): string[][] {
    const out: string[][] = [];
    const walk = (level: Node[], before: string[]) => {
      if (level.length === 0 && before.length > 0) out.push(before);
      for (const child of level) walk(child.children, [...before, child.uci]);
    };
    walk(this.root, []);
    return out;
  }

  /** How many lines end in the tree (1 for a single line, 0 when empty). */
  lineCount(): number {
    const count = (level: Node[]): number =>
      level.length === 0 ? 1 : level.reduce((sum, child) => sum + count(child.children), 0);
    return this.root.length === 0 ? 0 : count(this.root);
  }

  /** The PGN: headers, then the main line with every variation in parentheses. */
  pgn(headers: Record<string, string> = {}): string {
    const tags: Record<string, string> = { Event: 'Analysis', Site: location.origin, Result: '*', ...headers };
    if (this.initialFen !== INITIAL_FEN) {
      tags.SetUp = '1';
      tags.FEN = this.initialFen;
    }
    const head = Object.entries(tags)
      .map(([name, value]) => `[${name} "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`)
      .join('\n');
    const [, turn, , , , fullmove] = this.initialFen.split(' ');
    const startPly = (Number(fullmove) || 1) * 2 - 2 + (turn === 'b' ? 1 : 0);
    const body = this.line(this.root, startPly, true).trim();
    return `${head}\n\n${body ? `${body} ` : ''}*\n`;
  }

  /** The movetext from `level` at `ply`: its first child with the others as variations. */
  private line(level: Node[], ply: number, numberFirst: boolean): string {
    if (level.length === 0) return '';
    const [main, ...others] = level;
    let text = `${this.number(ply, numberFirst)}${main.san}`;
    for (const other of others) {
      const rest = this.line(other.children, ply + 1, false);
      text += ` (${this.number(ply, true)}${other.san}${rest ? ` ${rest}` : ''})`;
    }
    const rest = this.line(main.children, ply + 1, others.length > 0);
    return rest ? `${text} ${rest}` : text;
  }

  /** "12. " before White's move, "12... " before Black's when `force` (after a variation). */
  private number(ply: number, force: boolean): string {
    const move = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) return `${move}. `;
    return force ? `${move}... ` : '';
  }
}
