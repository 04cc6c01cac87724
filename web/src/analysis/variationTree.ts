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
  private changes = 0;

  constructor(readonly initialFen: string = INITIAL_FEN) {}

  /** Counts the changes to the tree: the same number, the same tree (lineUndo.ts). */
  get revision(): number {
    return this.changes;
  }

  /** The tree of `lines` instead (lines() of an earlier tree builds it again). */
  replace(lines: string[][]): void {
    this.root = [];
    for (const line of lines) this.add(line);
    this.changes += 1;
  }

  /** Adds the line `moves` (UCI from the start): new moves become variations where they part. */
  add(moves: string[]): void {
    const san = lineToSan(this.initialFen, moves);
    let level = this.root;
    moves.forEach((uci, i) => {
      let node = level.find((child) => child.uci === uci);
      if (!node) {
        node = { uci, san: san[i] ?? uci, children: [] };
        level.push(node);
        this.changes += 1;
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

  /**
   * Where each move of `line` sits: the moves tried at its position (its level, in the tree's
   * order) and its index there; null when the line is not (wholly) in the tree.
   */
  private steps(line: string[]): { level: Node[]; index: number }[] | null {
    const out: { level: Node[]; index: number }[] = [];
    let level = this.root;
    for (const uci of line) {
      const index = level.findIndex((child) => child.uci === uci);
      if (index < 0) return null;
      out.push({ level, index });
      level = level[index].children;
    }
    return out;
  }

  /** Whether the line to a move (`line`, UCI from the start) is in the tree. */
  has(line: string[]): boolean {
    return this.steps(line) !== null;
  }

  /** Whether `line` follows the main line as far as it goes (the first move tried at each position). */
  isMain(line: string[]): boolean {
    return this.steps(line)?.every((step) => step.index === 0) ?? false;
  }

  /** Makes `line` the main line as far as it goes: its moves become the first tried at each position. */
  makeMain(line: string[]): boolean {
    const steps = this.steps(line);
    if (!steps || steps.every((step) => step.index === 0)) return false;
    for (const { level, index } of steps) level.unshift(...level.splice(index, 1));
    this.changes += 1;
    return true;
  }

  /**
   * Moves the variation `line` belongs to up one: where it last parts from the line before it (the
   * deepest of its moves that is not the first tried there), that move changes places with the
   * one tried before it. False when `line` is the main line.
   */
  moveUp(line: string[]): boolean {
    const steps = this.steps(line);
    const step = steps && [...steps].reverse().find((s) => s.index > 0);
    if (!step) return false;
    const { level, index } = step;
    [level[index - 1], level[index]] = [level[index], level[index - 1]];
    this.changes += 1;
    return true;
  }

  /**
   * Deletes the last move of `line` and every line that goes through it: how many moves went (0
   * when `line` is not in the tree).
   */
  remove(line: string[]): number {
    const last = this.steps(line)?.at(-1);
    if (!last) return 0;
    const count = (node: Node): number => 1 + node.children.reduce((sum, child) => sum + count(child), 0);
    const [removed] = last.level.splice(last.index, 1);
    this.changes += 1;
    return count(removed);
  }

  /**
   * The line to the move tried before (`step` -1) or after (+1) the last move of `line` in its
   * place, in the tree's order; null when there is none.
   */
  sibling(line: string[], step: -1 | 1): string[] | null {
    const last = this.steps(line)?.at(-1);
    const other = last?.level[last.index + step];
    return other ? [...line.slice(0, -1), other.uci] : null;
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
