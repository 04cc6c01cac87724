// An analysis board kept in the page: a Game object computed from its moves by the client's rules
// (chessops), so trying a move, at the end or from any earlier position, asks the server for
// nothing but the engine's analysis. Its id starts with LOCAL_PREFIX; it is never stored on the
// server, only in the tab (keptBoards.ts), so that a reload brings it back.
import { Chess } from 'chessops/chess';
import { parseUci } from 'chessops/util';
import type { Game } from '../api/types';
import { parseSetup, readFen } from '../chess/fen';
import { isLegalLine, legalMovesAt, lineToSan, readTypedMove, viewAt } from '../chess/position';
import type { Side } from '../game/keptTokens';
import { keepBoard, keptBoard } from './keptBoards';
import { VariationTree } from './variationTree';

export const LOCAL_PREFIX = 'local-';

export const isLocalGame = (id: string | undefined | null): boolean => !!id && id.startsWith(LOCAL_PREFIX);

/** The Game of the position after `moves` (UCI) from `initialFen`; null when the FEN is bad. */
export function localGame(id: string, initialFen: string, moves: string[], version: number): Game | null {
  const setup = parseSetup(initialFen);
  if (!setup) return null;
  const start = Chess.fromSetup(setup);
  if (start.isErr) return null;
  const pos = start.value;
  for (const uci of moves) {
    const move = parseUci(uci);
    if (!move) return null;
    pos.play(move);
  }
  const view = viewAt(initialFen, moves, moves.length);
  const legal = legalMovesAt(initialFen, moves, moves.length);
  let status: Game['status'] = 'ongoing';
  let result: Game['result'] = '*';
  let reason: string | undefined;
  let winner: Game['winner'];
  if (pos.isCheckmate()) {
    status = 'checkmate';
    winner = pos.turn === 'white' ? 'black' : 'white';
    result = winner === 'white' ? '1-0' : '0-1';
  } else if (pos.isStalemate()) {
    status = 'stalemate';
    result = '1/2-1/2';
  } else if (pos.isInsufficientMaterial()) {
    status = 'draw';
    result = '1/2-1/2';
    reason = 'insufficient_material';
  }
  return {
    id,
    initialFen,
    fen: view.fen,
    moves: [...moves],
    san: lineToSan(initialFen, moves),
    turn: view.turn,
    status,
    result,
    reason,
    winner,
    check: view.check,
    legalMoves: status === 'ongoing' ? legal : [],
    engine: { side: 'none' },
    version,
  };
}

/**
 * The server-form UCI of `text` (UCI or SAN) in the position after `moves`; null if illegal.
 * Read as the server reads a typed move in a game: b8Q as b8=Q, o-o and 0-0 as O-O, d2-d4 and
 * Ng1f3 (long or over-qualified SAN), nf3 (a lower-case piece letter), e1h1 (the king onto its
 * own rook) as castling.
 */
export function readMove(initialFen: string, moves: string[], text: string): string | null {
  const legal = legalMovesAt(initialFen, moves, moves.length);
  const wanted = text.trim();
  if (legal.includes(wanted.toLowerCase())) return wanted.toLowerCase();
  const uci = readTypedMove(viewAt(initialFen, moves, moves.length).fen, wanted);
  return uci && legal.includes(uci) ? uci : null;
}

/** The analysis board on screen: its tree of lines and the Game of the line shown. */
export class LocalBoard {
  private count = 0;
  private version = 0;
  tree = new VariationTree();
  private id = '';

  /**
   * A new board from a position (and moves from it, and other lines tried from it: a pasted
   * PGN's variations): its Game, or why it cannot be set up. The FEN is read as strictly as the
   * server reads it, and the board keeps it as the server writes it.
   */
  start(initialFen: string, moves: string[], variations: string[][] = []): Game | string {
    const read = readFen(initialFen);
    if (read.error !== undefined) return `Invalid FEN: ${read.error}`;
    if (!isLegalLine(read.fen, moves)) return 'Those moves cannot be played from that position';
    this.count += 1;
    // A pasted PGN's variations join the tree after its main line (which stays the main line).
    const lines = [moves, ...variations.filter((line) => isLegalLine(read.fen, line))];
    return this.open(`${LOCAL_PREFIX}${Date.now().toString(36)}-${this.count}`, read.fen, lines, moves) ?? 'That position cannot be set up';
  }

  /**
   * The board kept in this tab under `id` (keptBoards.ts), as it was left: the Game of the line
   * that was on screen, the position of it on screen and the orientation; null when the tab
   * keeps no such board (or no longer a readable one).
   */
  restore(id: string): { game: Game; ply: number; orientation: Side } | null {
    const kept = keptBoard(id);
    if (!isLocalGame(id) || !kept) return null;
    const read = readFen(kept.initialFen);
    if (read.error !== undefined || read.fen !== kept.initialFen) return null;
    if (![...kept.lines, kept.shown].every((line) => isLegalLine(kept.initialFen, line))) return null;
    const game = this.open(id, kept.initialFen, kept.lines, kept.shown);
    return game && { game, ply: Math.max(0, Math.min(kept.ply, kept.shown.length)), orientation: kept.orientation };
  }

  /**
   * Keeps the board in this tab: its tree, `shown` (the line on screen) and the `ply` shown.
   * False when it could not be kept (too large, or the tab keeps nothing).
   */
  keep(shown: string[], ply: number, orientation: Side): boolean {
    return this.keeper(shown, ply, orientation)();
  }

  /**
   * What keep() does, to be done later: this board as it is now (its id and tree, even when
   * another board is opened meanwhile; its lines as the tree holds them when it is done).
   */
  keeper(shown: string[], ply: number, orientation: Side): () => boolean {
    const { id, tree } = this;
    return () => keepBoard(id, { initialFen: tree.initialFen, lines: tree.lines(), shown, ply, orientation });
  }

  /** The board `id` with the tree of `lines`, showing the line `shown`. */
  private open(id: string, initialFen: string, lines: string[][], shown: string[]): Game | null {
    this.tree = new VariationTree(initialFen);
    this.id = id;
    this.version = 1;
    for (const line of lines) this.tree.add(line);
    const game = localGame(this.id, initialFen, shown, this.version);
    if (game) this.tree.add(shown);
    return game;
  }

  /**
   * The line `moves` plus `text` (UCI or SAN), continued as it was played before when that move
   * was tried already: the Game of it (its move is the one at `moves.length + 1`), or null when
   * illegal.
   */
  play(moves: string[], text: string): Game | null {
    const uci = readMove(this.tree.initialFen, moves, text);
    if (!uci) return null;
    return this.show(this.tree.continuation([...moves, uci]));
  }

  /** The Game of the line `moves` (which joins the tree). */
  show(moves: string[]): Game | null {
    this.version += 1;
    const game = localGame(this.id, this.tree.initialFen, moves, this.version);
    if (game) this.tree.add(moves);
    return game;
  }

  /** The tree of `lines` instead (an edit undone), showing the line `shown`. */
  replace(lines: string[][], shown: string[]): Game | null {
    this.tree.replace(lines);
    return this.show(shown);
  }

  pgn(): string {
    return this.tree.pgn();
  }
}
