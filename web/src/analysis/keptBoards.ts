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
/**
 * About 35,000 moves of the tree (each stored once, however many lines go through it): a board
 * larger than that is not kept (the page says so).
 */
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

/**
 * The lines as stored: each as how many first moves it shares with the line before it, and the
 * rest. Stored whole, the lines of a long game with many late variations repeated its opening
 * once per line, and outgrew MAX_BOARD_CHARS with a tree of a few thousand moves.
 */
type Branch = [number, string[]];

function branchesOf(lines: string[][]): Branch[] {
  return lines.map((line, i) => {
    const before = lines[i - 1] ?? [];
    let shared = 0;
    while (shared < line.length && shared < before.length && line[shared] === before[shared]) shared++;
    return [shared, line.slice(shared)];
  });
}

/** The lines of `branches`, or null when they do not read as branchesOf's. */
function linesOf(branches: unknown): string[][] | null {
  if (!Array.isArray(branches)) return null;
  const lines: string[][] = [];
  for (const branch of branches) {
    if (!Array.isArray(branch) || branch.length !== 2) return null;
    const [shared, rest] = branch as unknown[];
    const before = lines[lines.length - 1] ?? [];
    if (typeof shared !== 'number' || !Number.isInteger(shared) || shared < 0 || shared > before.length || !isMoveList(rest)) return null;
    lines.push([...before.slice(0, shared), ...rest]);
  }
  return lines;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const isMoveList = (value: unknown): value is string[] => Array.isArray(value) && value.every((m) => typeof m === 'string');

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
  const { lines, ...rest } = board;
  const text = JSON.stringify({ ...rest, branches: branchesOf(lines) });
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

/** The board kept under `id` in this tab, or null (never kept, forgotten, or unreadable). */
export function keptBoard(id: string): KeptBoard | null {
  const text = storage()?.getItem(KEY_PREFIX + id);
  if (!text) return null;
  try {
    const read = JSON.parse(text) as Partial<KeptBoard> & { branches?: unknown };
    // (Boards kept before the lines were stored as branches have `lines`.)
    const { branches, ...board } = read;
    if (branches !== undefined) board.lines = linesOf(branches) ?? undefined;
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
