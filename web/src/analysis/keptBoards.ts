// The analysis boards of this tab, kept in sessionStorage so that a reload, Back or Forward brings
// one back as it was left: its start position, every line tried, the line and the position on
// screen, the board's orientation. The address names the board (`?board=<id>`); the boards live as
// long as the tab. Bounded: at most MAX_BOARDS boards of at most MAX_BOARD_CHARS each, the board
// saved least recently forgotten first (also when the browser's storage is full).
import type { Side } from '../game/keptTokens';

const KEY_PREFIX = 'outpost.board.';
/** The ids of the kept boards, the one saved least recently first. */
const INDEX_KEY = 'outpost.boards';
const MAX_BOARDS = 20;
/** About 40,000 moves of lines: a board larger than that is not kept. */
const MAX_BOARD_CHARS = 256 * 1024;

export interface KeptBoard {
  /** The FEN the board starts from (as the server writes it). */
  initialFen: string;
  /** Every line tried, from the start to where it ends, in the order the tree holds them. */
  lines: string[][];
  /** The line on screen, and the position of it on screen (moves from the start). */
  shown: string[];
  ply: number;
  orientation: Side;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readIndex(store: Storage): string[] {
  try {
    const ids: unknown = JSON.parse(store.getItem(INDEX_KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Keeps `board` under `id`; false when it could not be kept (too large, no storage). */
export function keepBoard(id: string, board: KeptBoard): boolean {
  const store = storage();
  if (!store) return false;
  const text = JSON.stringify(board);
  if (text.length > MAX_BOARD_CHARS) return false;
  const index = readIndex(store).filter((other) => other !== id);
  index.push(id);
  const forget = () => {
    const oldest = index.shift();
    if (oldest !== undefined) store.removeItem(KEY_PREFIX + oldest);
  };
  while (index.length > MAX_BOARDS) forget();
  for (;;) {
    try {
      store.setItem(KEY_PREFIX + id, text);
      store.setItem(INDEX_KEY, JSON.stringify(index));
      return true;
    } catch {
      // Full: forget the oldest other board and try again.
      if (index.length <= 1) return false;
      forget();
    }
  }
}

const isMoveList = (value: unknown): value is string[] => Array.isArray(value) && value.every((m) => typeof m === 'string');

/** The board kept under `id` in this tab, or null (never kept, forgotten, or unreadable). */
export function keptBoard(id: string): KeptBoard | null {
  const text = storage()?.getItem(KEY_PREFIX + id);
  if (!text) return null;
  try {
    const board = JSON.parse(text) as Partial<KeptBoard>;
    const valid =
      typeof board.initialFen === 'string' &&
      Array.isArray(board.lines) &&
      board.lines.every(isMoveList) &&
      isMoveList(board.shown) &&
      typeof board.ply === 'number' &&
      (board.orientation === 'white' || board.orientation === 'black');
    return valid ? (board as KeptBoard) : null;
  } catch {
    return null;
  }
}
