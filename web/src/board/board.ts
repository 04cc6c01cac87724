// The board: chessground for drawing, dragging and clicking, fed with the legal moves the server
// sent. A pawn reaching the last rank opens the promotion picker before the move is sent.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import type { DrawShape } from '@lichess-org/chessground/draw';
import { read as readPlacement } from '@lichess-org/chessground/fen';
import type { Key } from '@lichess-org/chessground/types';
import { openPromotionPicker } from './promotion';

export type Side = 'white' | 'black';

export interface BoardState {
  fen: string;
  turn: Side;
  check: boolean;
  lastMove?: [string, string];
  /** Legal moves in UCI for the side that may move now; empty: nobody may move. */
  legalMoves: string[];
  /** Which side the person moves: one colour, both (analysis), or none (spectator, browsing). */
  movable: Side | 'both' | 'none';
  /** Whether a premove may be set while the other side is to move. */
  premove: boolean;
}

/** Squares to destinations, from the server's legal moves. */
export function destsFrom(legalMoves: string[]): Map<Key, Key[]> {
  const dests = new Map<Key, Key[]>();
  for (const uci of legalMoves) {
    const from = uci.slice(0, 2) as Key;
    const to = uci.slice(2, 4) as Key;
    const list = dests.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    dests.set(from, list);
  }
  return dests;
}

/**
 * Castling dropped on the rook: the server (and UCI) spell castling as the king's two-square move
 * (e1g1), while many players drag or click the king onto its own rook (e1h1), as lichess allows.
 * Maps each such king-onto-rook move to the castling move it stands for.
 */
export function rookCastles(fen: string, legalMoves: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const pieces = readPlacement(fen);
  for (const uci of legalMoves) {
    if (uci.length !== 4 || uci[0] !== 'e' || (uci[1] !== '1' && uci[1] !== '8') || uci[3] !== uci[1]) continue;
    if (uci[2] !== 'g' && uci[2] !== 'c') continue;
    const king = pieces.get(uci.slice(0, 2) as Key);
    const rookSquare = `${uci[2] === 'g' ? 'h' : 'a'}${uci[1]}` as Key;
    const rook = pieces.get(rookSquare);
    if (king?.role !== 'king' || rook?.role !== 'rook' || rook.color !== king.color) continue;
    out.set(`${uci.slice(0, 2)}${rookSquare}`, uci);
  }
  return out;
}

/**
 * Whether the person asked their system for less motion (prefers-reduced-motion: reduce): pieces
 * then jump to their squares instead of sliding there.
 */
function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class Board {
  private cg: Api;
  private legalMoves: string[] = [];
  /** King-onto-rook moves that castle (e1h1 → e1g1), for the position shown. */
  private castles = new Map<string, string>();
  private onMove: (uci: string) => void = () => {};
  /** Cancels the open promotion picker (null: none open). */
  private cancelPromotion: (() => void) | null = null;
  /** The position (FEN) and the move (from, to) the open promotion picker is for. */
  private promotion: { fen: string; prefix: string } | null = null;
  /** The position drawn last. */
  private fen = '';

  constructor(private readonly element: HTMLElement) {
    this.cg = Chessground(element, {
      coordinates: true,
      animation: { enabled: !reducedMotion(), duration: 180 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, events: { after: (o, d, m) => this.afterMove(o, d, m.premove) } },
      premovable: { enabled: true, showDests: true },
      draggable: { enabled: true, showGhost: true },
      drawable: { enabled: true, visible: true },
    });
    // Chessground caches where the board is on screen and refreshes that only on scroll and
    // resize events. A press that arrives before the scroll event (a page scrolled back to the
    // board just before the click) or after the page moved the board (a panel above it grew)
    // would land on the wrong square, so measure afresh on every press, before chessground reads it.
    const remeasure = () => this.cg.state.dom.bounds.clear();
    for (const type of ['mousedown', 'touchstart'] as const) element.addEventListener(type, remeasure, { capture: true, passive: true });
  }

  setMoveHandler(handler: (uci: string) => void): void {
    this.onMove = handler;
  }

  /** Shows a state; `animate` false jumps there (a different game, not a move). */
  set(state: BoardState, animate = true): void {
    // The person's setting is read at each drawing: it may change while the page is open.
    const slide = !reducedMotion();
    this.cg.set({ animation: { enabled: animate && slide } });
    this.apply(state);
    if (!animate) this.cg.set({ animation: { enabled: slide } });
  }

  private apply(state: BoardState): void {
    // The position changed under an open promotion picker (another tab moved, a takeback was
    // accepted, the game ended): the choice was for a position that is gone, so the picker goes
    // (silently: this state is being drawn now), rather than promote in a position not seen.
    const pending = this.promotion;
    if (pending && (state.fen !== pending.fen || !state.legalMoves.some((m) => m.startsWith(pending.prefix)))) {
      this.promotion = null;
      this.closePromotion();
    }
    this.fen = state.fen;
    this.legalMoves = state.legalMoves;
    this.castles = rookCastles(state.fen, state.legalMoves);
    const movable = state.movable;
    const dests = destsFrom(state.legalMoves);
    for (const [rookMove] of this.castles) dests.get(rookMove.slice(0, 2) as Key)?.push(rookMove.slice(2, 4) as Key);
    const config: Config = {
      fen: state.fen,
      turnColor: state.turn,
      check: state.check ? state.turn : false,
      lastMove: state.lastMove as Key[] | undefined,
      movable: {
        color: movable === 'none' ? undefined : movable,
        dests: movable === 'none' ? new Map() : dests,
      },
      premovable: { enabled: state.premove },
      draggable: { enabled: movable !== 'none' },
      selectable: { enabled: movable !== 'none' },
    };
    this.cg.set(config);
    if (movable === 'none') this.cg.cancelPremove();
  }

  /** Plays a premove if one is set and it is legal now; true when it was played. */
  playPremove(): boolean {
    return this.cg.playPremove();
  }

  cancelPremove(): void {
    this.cg.cancelPremove();
  }

  /** The piece placement as drawn (for tests: a refused drag must leave it unchanged). */
  placement(): string {
    return this.cg.getFen();
  }

  orientation(): Side {
    return this.cg.state.orientation;
  }

  setOrientation(side: Side): void {
    if (side !== this.orientation()) this.closePromotion();
    this.cg.set({ orientation: side });
  }

  flip(): void {
    this.closePromotion();
    this.cg.toggleOrientation();
  }

  setArrows(shapes: DrawShape[]): void {
    this.cg.setAutoShapes(shapes);
  }

  redraw(): void {
    this.closePromotion();
    this.cg.redrawAll();
  }

  /**
   * Chessground draws the whole board anew (a flip, a new size), which takes the picker away with
   * it: the promotion is cancelled first, so no unseen picker is left listening to the keyboard.
   * The pawn goes back (the owner redraws the position).
   */
  private closePromotion(): void {
    this.cancelPromotion?.();
  }

  private afterMove(orig: Key, dest: Key, premove: boolean): void {
    // The king dropped on its own rook castles (chessground has already drawn the castled position).
    const castle = this.castles.get(`${orig}${dest}`);
    if (castle) {
      this.onMove(castle);
      return;
    }
    const prefix = `${orig}${dest}`;
    const promotions = this.legalMoves.filter((m) => m.length === 5 && m.startsWith(prefix));
    const piece = this.cg.state.pieces.get(dest);
    const reachesLastRank = piece?.role === 'pawn' && (dest[1] === '8' || dest[1] === '1');
    if (promotions.length === 0 && !reachesLastRank) {
      this.onMove(prefix);
      return;
    }
    // A premove cannot wait for a choice: it promotes to a queen, as on most sites.
    if (premove) {
      this.onMove(`${prefix}q`);
      return;
    }
    const color = piece?.color ?? 'white';
    this.promotion = { fen: this.fen, prefix };
    this.cancelPromotion = openPromotionPicker(this.element, dest, color, this.cg.state.orientation, (role) => {
      this.cancelPromotion = null;
      // Dismissed because the position changed (apply): the new position is drawn already.
      const stale = this.promotion === null;
      this.promotion = null;
      if (role) this.onMove(`${prefix}${role}`);
      else if (!stale) this.onMove(''); // cancelled: the owner redraws the current position
    });
  }
}
