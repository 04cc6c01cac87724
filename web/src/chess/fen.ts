// Reading a FEN as strictly as the server does (engine/core/fen.cpp), with its reasons in its words,
// so a pasted FEN is refused here exactly where "Start game" would be refused, and a board kept in
// the page starts from the FEN the server would write for it. chessops alone is more forgiving: it
// takes a board without the other fields, drops castling rights and en-passant squares that do not
// fit, and accepts counters and piece counts the server does not.
//
// The counters are the page's own to read and write: chessops reads at most four digits (a game
// from move 10000 on, which the server takes, would not read at all) and writes at most 9999
// (and a halfmove clock of at most 150), where the server reads and writes up to its bounds.
import { Chess, IllegalSetup, type Position } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import type { Setup } from 'chessops/setup';
import { opposite } from 'chessops/util';

const PIECE_LETTERS = 'PNBRQKpnbrqk';
// The server's bounds: anything beyond them is certainly a typo or garbage.
const MAX_FEN_LENGTH = 200;
const MAX_HALFMOVE_CLOCK = 1000;
const MAX_FULLMOVE_NUMBER = 100000;
const MAX_PAWNS_PER_SIDE = 8;
const MAX_PIECES_PER_SIDE = 16;
const MAX_CHECKERS = 2;

/** The FEN as the server would write it, or why the server would refuse it. */
export type FenReading = { fen: string; error?: undefined } | { fen?: undefined; error: string };

/**
 * Whether a person's text is meant as a FEN (so a fault in it is told as a FEN's): at most six
 * fields, the first with the seven slashes between eight ranks.
 */
export function looksLikeFen(text: string): boolean {
  const fields = text.trim().split(/\s+/);
  return fields.length <= 6 && fields[0].split('/').length === 8;
}

/** Counters as the server reads them: plain decimal digits, at most `max`. */
function counter(text: string, max: number): number | null {
  if (!/^[0-9]{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value > max ? null : value;
}

const printable = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?');

/** Square index (a1 = 0, h8 = 63) and name. */
const squareName = (square: number): string => `${'abcdefgh'[square % 8]}${(square >> 3) + 1}`;

/** Why the server refuses `text` as a FEN, checked in its order; null when it takes it. */
function fenProblem(text: string): string | null {
  if (text.length > MAX_FEN_LENGTH) return 'FEN is too long';
  if (/[\n\r]/.test(text)) return 'FEN contains a line break';
  const fields = text.split(/[ \t]+/).filter(Boolean);
  if (fields.length !== 4 && fields.length !== 6) {
    return `wrong number of fields: expected 6 (or 4 without the move counters), got ${fields.length}`;
  }

  // 1. Piece placement, from rank 8 down to rank 1.
  const board: (string | undefined)[] = new Array(64);
  let rank = 7;
  let file = 0;
  let lastWasDigit = false;
  for (const c of fields[0]) {
    if (c === '/') {
      if (file !== 8) return `rank ${rank + 1} has ${file} squares instead of 8`;
      if (rank === 0) return 'more than 8 ranks in the piece placement';
      rank--;
      file = 0;
      lastWasDigit = false;
    } else if (c >= '1' && c <= '8') {
      if (lastWasDigit) return `two digits in a row in rank ${rank + 1}`;
      file += Number(c);
      lastWasDigit = true;
      if (file > 8) return `rank ${rank + 1} has more than 8 squares`;
    } else {
      if (!PIECE_LETTERS.includes(c)) return `bad piece letter '${printable(c)}'`;
      if (file >= 8) return `rank ${rank + 1} has more than 8 squares`;
      board[rank * 8 + file] = c;
      file++;
      lastWasDigit = false;
    }
  }
  if (file !== 8) return `rank ${rank + 1} has ${file} squares instead of 8`;
  if (rank !== 0) return `the piece placement has ${8 - rank} ranks instead of 8`;
  for (const [name, pieces] of [['white', 'PNBRQK'], ['black', 'pnbrqk']] as const) {
    const count = (letter: string) => board.filter((p) => p === letter).length;
    const kings = count(pieces[5]);
    if (kings !== 1) return `there must be exactly one ${name} king, found ${kings}`;
    if (count(pieces[0]) > MAX_PAWNS_PER_SIDE) return `more than 8 ${name} pawns`;
    if (board.filter((p) => p && pieces.includes(p)).length > MAX_PIECES_PER_SIDE) return `more than 16 ${name} pieces`;
  }
  if (board.some((p, square) => (p === 'P' || p === 'p') && (square < 8 || square >= 56))) return 'pawn on the first or last rank';

  // 2. Side to move.
  const turn = fields[1];
  if (turn !== 'w' && turn !== 'b') return `side to move must be 'w' or 'b', got '${printable(turn)}'`;

  // 3. Castling rights: '-' or a subset of KQkq, each at most once, with king and rook at home.
  if (fields[2] !== '-') {
    const homes: Record<string, { king: number; rook: number; pieces: string }> = {
      K: { king: 4, rook: 7, pieces: 'KR' },
      Q: { king: 4, rook: 0, pieces: 'KR' },
      k: { king: 60, rook: 63, pieces: 'kr' },
      q: { king: 60, rook: 56, pieces: 'kr' },
    };
    const seen = new Set<string>();
    for (const c of fields[2]) {
      if (!(c in homes)) return `bad castling field '${printable(fields[2])}': expected '-' or letters from KQkq`;
      if (seen.has(c)) return `castling right '${c}' repeated`;
      seen.add(c);
    }
    for (const c of 'KQkq') {
      if (!seen.has(c)) continue;
      const home = homes[c];
      if (board[home.king] !== home.pieces[0]) return `castling right '${c}' but the king is not on its start square`;
      if (board[home.rook] !== home.pieces[1]) return `castling right '${c}' but there is no rook on ${squareName(home.rook)}`;
    }
  }

  // 4. En passant: the square a pawn of the side not to move has just skipped.
  const ep = fields[3];
  if (ep !== '-') {
    if (!/^[a-h][1-8]$/.test(ep)) return `bad en-passant square '${printable(ep)}'`;
    const square = (Number(ep[1]) - 1) * 8 + (ep.charCodeAt(0) - 97);
    const white = turn === 'w';
    if (Number(ep[1]) !== (white ? 6 : 3)) {
      return `impossible en-passant square ${ep}: must be on rank ${white ? '6' : '3'} with ${white ? 'white' : 'black'} to move`;
    }
    const push = white ? 8 : -8;
    if (board[square - push] !== (white ? 'p' : 'P')) return `impossible en-passant square ${ep}: no pawn that could just have moved two squares`;
    if (board[square] || board[square + push]) return `impossible en-passant square ${ep}: the squares the pawn passed are not empty`;
  }

  // 5. Counters.
  if (fields.length === 6) {
    const halfmove = counter(fields[4], MAX_HALFMOVE_CLOCK);
    if (halfmove === null) return `bad halfmove clock '${printable(fields[4])}'`;
    const fullmove = counter(fields[5], MAX_FULLMOVE_NUMBER);
    if (fullmove === null || fullmove < 1) return `bad fullmove number '${printable(fields[5])}'`;
    if (ep !== '-' && halfmove !== 0) return 'bad halfmove clock: must be 0 right after a double pawn push (en-passant square given)';
  }
  return null;
}

/**
 * Reads `text` as the server reads a FEN: the FEN it would write for that position (castling
 * rights in KQkq order, an en-passant square only where a pawn can take, the counters 0 1 when
 * left out), or its reason for refusing it.
 */
export function readFen(text: string): FenReading {
  const problem = fenProblem(text);
  if (problem) return { error: problem };
  const fields = text.split(/[ \t]+/).filter(Boolean);
  // (The counters, checked above, are read here, not by chessops.)
  const setup = parseFen(fields.slice(0, 4).join(' '));
  if (setup.isErr) return { error: `cannot read the FEN (${setup.error.message})` };
  const position = Chess.fromSetup(setup.value);
  if (position.isErr) {
    // The server's remaining rule that chessops checks too; anything else chessops refuses is
    // said in its terms.
    const oppositeCheck = position.error.message === IllegalSetup.OppositeCheck;
    return { error: oppositeCheck ? 'the side not to move is in check' : `that position cannot be set up (${position.error.message})` };
  }
  const pos = position.value;
  const king = pos.board.kingOf(pos.turn);
  if (king !== undefined && pos.kingAttackers(king, opposite(pos.turn), pos.board.occupied).size() > MAX_CHECKERS) {
    return { error: 'the side to move is in check by more than two pieces' };
  }
  if (fields.length === 6) [pos.halfmoves, pos.fullmoves] = [Number(fields[4]), Number(fields[5])];
  return { fen: writeFen(pos) };
}

/**
 * What chessops reads of a FEN, with the counters read as the server reads them (any number of
 * up to nine digits); undefined when it cannot be read.
 */
export function parseSetup(fen: string): Setup | undefined {
  const fields = fen.trim().split(/[ \t]+/);
  const counters = fields.length === 6 ? fields.splice(4, 2) : [];
  const setup = parseFen(fields.join(' '));
  if (setup.isErr) return undefined;
  if (counters.length === 0) return setup.value;
  if (!counters.every((c) => /^[0-9]{1,9}$/.test(c))) return undefined;
  return { ...setup.value, halfmoves: Number(counters[0]), fullmoves: Math.max(1, Number(counters[1])) };
}

/**
 * The FEN of `pos` as the server writes it (engine/core/fen.cpp): its counters held at the
 * bounds the server reads, so every FEN written here is one the server and readFen take.
 */
export function writeFen(pos: Position): string {
  const halfmoves = Math.min(Math.max(pos.halfmoves, 0), MAX_HALFMOVE_CLOCK);
  const fullmoves = Math.min(Math.max(pos.fullmoves, 1), MAX_FULLMOVE_NUMBER);
  return `${makeFen(pos.toSetup(), { epd: true })} ${halfmoves} ${fullmoves}`;
}
