// Chess rules on the client, for display only: positions while browsing the move list, SAN of
// lines, reading a pasted FEN or PGN. The server decides what is legal.
import { Chess } from 'chessops/chess';
import { parsePgn, startingPosition, type Node, type PgnNodeData } from 'chessops/pgn';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import type { NormalMove } from 'chessops/types';
import { makeUci, parseUci } from 'chessops/util';
import { looksLikeFen, parseSetup, readFen, writeFen } from './fen';

export const INITIAL_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export interface BoardView {
  fen: string;
  turn: 'white' | 'black';
  check: boolean;
  lastMove?: [string, string];
}

function positionFrom(fen: string): Chess | undefined {
  const setup = parseSetup(fen);
  if (!setup) return undefined;
  const pos = Chess.fromSetup(setup);
  return pos.isErr ? undefined : pos.value;
}

/** The position after the first `ply` moves (UCI) from `initialFen`. */
export function viewAt(initialFen: string, moves: string[], ply: number): BoardView {
  const pos = positionFrom(initialFen);
  if (!pos) return { fen: initialFen, turn: 'white', check: false };
  let lastMove: [string, string] | undefined;
  for (const uci of moves.slice(0, ply)) {
    const move = parseUci(uci);
    if (!move) break;
    pos.play(move);
    lastMove = [uci.slice(0, 2), uci.slice(2, 4)];
  }
  return { fen: writeFen(pos), turn: pos.turn, check: pos.isCheck(), lastMove };
}

/**
 * Legal moves (UCI, castling as the king's two-square move) after `ply` moves: hints for
 * exploring from an earlier position of an analysis board. The server checks them again.
 */
export function legalMovesAt(initialFen: string, moves: string[], ply: number): string[] {
  const pos = positionFrom(initialFen);
  if (!pos) return [];
  for (const uci of moves.slice(0, ply)) {
    const move = parseUci(uci);
    if (!move) return [];
    pos.play(move);
  }
  return legalUci(pos);
}

/** The legal moves of `pos` in the server's UCI. */
function legalUci(pos: Chess): string[] {
  const out: string[] = [];
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const uci = serverUci(pos, { from, to });
      const lastRank = to >> 3 === 7 || to >> 3 === 0;
      if (piece?.role === 'pawn' && lastRank) for (const role of 'qrbn') out.push(uci + role);
      else out.push(uci);
    }
  }
  return out;
}

/** SAN of a line of UCI moves from a position, stopping at the first move it cannot read. */
export function lineToSan(fen: string, line: string[]): string[] {
  const pos = positionFrom(fen);
  const out: string[] = [];
  if (!pos) return out;
  for (const uci of line) {
    const move = parseUci(uci);
    if (!move) break;
    out.push(makeSanAndPlay(pos, move));
  }
  return out;
}

/** "12. Nf3 Nc6 13. O-O" style text for a line starting at `fen`. */
export function numberedLine(fen: string, san: string[]): string {
  const setup = parseSetup(fen);
  let moveNumber = setup?.fullmoves ?? 1;
  let white = setup ? setup.turn === 'white' : true;
  const parts: string[] = [];
  san.forEach((move, i) => {
    if (white) parts.push(`${moveNumber}. ${move}`);
    else parts.push(i === 0 ? `${moveNumber}… ${move}` : move);
    if (!white) moveNumber++;
    white = !white;
  });
  return parts.join(' ');
}

/**
 * UCI as the server writes it: chessops spells castling as "king takes own rook" (e1h1), the API
 * as the king's two-square move (e1g1).
 */
function serverUci(pos: Chess, move: NormalMove): string {
  const piece = pos.board.get(move.from);
  const target = pos.board.get(move.to);
  if (piece?.role === 'king' && target?.role === 'rook' && target.color === piece.color) {
    const kingside = move.to > move.from;
    const rankBase = move.from - (move.from % 8);
    return makeUci({ from: move.from, to: rankBase + (kingside ? 6 : 2) });
  }
  return makeUci(move);
}

/**
 * A typed move (SAN in its usual spellings, or UCI with the king onto its own rook for castling)
 * in the server's UCI, when it is a legal move of `fen`; null otherwise.
 */
export function readTypedMove(fen: string, text: string): string | null {
  const pos = positionFrom(fen);
  if (!pos) return null;
  const uci = parseUci(text.trim().toLowerCase());
  if (uci && 'from' in uci && pos.isLegal(uci)) return serverUci(pos, uci);
  let san = text.trim().replace(/[!?]+$/, '');
  // Castling with zeros or lower-case o's; a lower-case piece letter (not b: a b-pawn's capture).
  san = san.replace(/^[0oO]-[0oO](-[0oO])?(?=[+#]?$)/, (_all, long: string | undefined) => (long ? 'O-O-O' : 'O-O'));
  san = san.replace(/^[nrqk](?=[a-h1-8x-])/, (letter) => letter.toUpperCase());
  const move = parseSan(pos, san);
  return move && 'from' in move ? serverUci(pos, move) : null;
}

export function fullmoveNumber(fen: string): number {
  return parseSetup(fen)?.fullmoves ?? 1;
}

export function fenTurn(fen: string): 'white' | 'black' {
  return parseSetup(fen)?.turn ?? 'white';
}

/** Whether every move of `line` (UCI, as the server writes it) is legal in turn from `fen`. */
export function isLegalLine(fen: string, line: string[]): boolean {
  const pos = positionFrom(fen);
  if (!pos) return false;
  for (const uci of line) {
    const move = parseUci(uci);
    if (!move || !legalUci(pos).includes(uci)) return false;
    pos.play(move);
  }
  return true;
}

export interface StartPosition {
  fen?: string;
  moves?: string[];
  /**
   * A PGN's variations (RAVs), each as a whole line of UCI moves from the start position, in the
   * order they appear; the main line (`moves`) is not among them. A variation with a move that
   * cannot be read ends before that move.
   */
  variations?: string[][];
}

/**
 * Reads what a person pasted as a starting point: a FEN, or a PGN (headers optional; its FEN
 * header and main line are used). The FEN is read as strictly as the server reads it and comes
 * back as the server would write it. Throws an Error with a readable message when neither fits:
 * for text meant as a FEN, what is wrong with it, in the server's words.
 */
export function readStartText(text: string): StartPosition {
  const trimmed = text.trim();
  if (!trimmed) return {};
  if (looksLikeFen(trimmed)) {
    const read = readFen(trimmed);
    if (read.error !== undefined) throw new Error(`Invalid FEN: ${read.error}`);
    return { fen: read.fen };
  }
  const games = parsePgn(trimmed);
  const game = games[0];
  if (!game) throw new Error('Neither a FEN nor a PGN');
  const header = game.headers.get('FEN');
  const read = header === undefined ? undefined : readFen(header);
  if (read?.error !== undefined) throw new Error(`The PGN's FEN header is invalid: ${read.error}`);
  const fen = read?.fen;
  // From the FEN read above (chessops' own reading takes no move number past 9999).
  const startPosition = (): Chess | undefined => {
    if (fen) return positionFrom(fen);
    const start = startingPosition(game.headers);
    return start.isOk ? (start.value as Chess) : undefined;
  };
  const pos = startPosition();
  if (!pos) throw new Error('The PGN has an invalid FEN header');
  const moves: string[] = [];
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move || !('from' in move)) throw new Error(`Cannot read move ${moves.length + 1} of the PGN: ${node.san}`);
    moves.push(serverUci(pos, move));
    pos.play(move);
  }
  if (!fen && moves.length === 0) throw new Error('Neither a FEN nor a PGN with moves');
  // (The main line's position was played forward: the variations start from a fresh one.)
  const variations = pgnVariations(startPosition() as Chess, game.moves);
  return { fen: fen ?? undefined, moves, ...(variations.length ? { variations } : {}) };
}

/**
 * The variations of a PGN's move tree (every line that leaves the main line somewhere), each as
 * the whole line from the start: the moves before it parts, then its own moves to its end
 * (following the first continuation at each step).
 */
function pgnVariations(start: Chess, root: Node<PgnNodeData>): string[][] {
  const out: string[][] = [];
  const walk = (pos: Chess, node: Node<PgnNodeData>, line: string[], onMain: boolean) => {
    node.children.forEach((child, i) => {
      const next = pos.clone();
      const move = parseSan(next, child.data.san);
      if (!move || !('from' in move)) {
        if (!onMain || i > 0) out.push(line);
        return;
      }
      const uci = serverUci(next, move);
      next.play(move);
      const parted = !onMain || i > 0;
      // A leaf ends its line; the main line is `moves` itself, not a variation.
      if (child.children.length === 0) {
        if (parted) out.push([...line, uci]);
        return;
      }
      walk(next, child, [...line, uci], onMain && i === 0);
    });
  };
  walk(start, root, [], true);
  return out;
}

/** Whether the side to move is in check in `fen` (false for a FEN that does not parse). */
export function inCheck(fen: string): boolean {
  return positionFrom(fen)?.isCheck() ?? false;
}
