// Shapes of the Outpost API (version 1), as the page uses them. Fields may be added by the server;
// everything the page does not rely on is optional.

export type Color = 'white' | 'black';

export type GameStatus =
  | 'ongoing'
  | 'checkmate'
  | 'stalemate'
  | 'draw'
  | 'resigned'
  | 'timeout'
  | 'aborted'
  /** Claimed by the other side after this side had been gone past the grace time. */
  | 'abandoned';

/** Always from White's point of view. */
export interface Score {
  cp?: number;
  mate?: number;
  bound?: 'lower' | 'upper';
  winChance?: number;
}

export interface Limits {
  depth?: number;
  movetime?: number;
  nodes?: number;
}

export interface EngineSettings {
  side: Color | 'none';
  level?: number;
  limits?: Limits;
}

export interface Clock {
  white: number;
  black: number;
  running?: boolean;
  initial?: number;
  increment?: number;
  /** The server's time of this reading (ms since the epoch); older servers leave it out. */
  at?: number;
}

/** Whether each side has a live connection to the game (the engine's side is always true). */
export interface Presence {
  white: boolean;
  black: boolean;
}

/**
 * A side of a game between people that is gone: since when (server time, ms since the epoch),
 * and from when the other side may claim (absent until both sides have moved).
 */
export interface Gone {
  /** Absent when no sign of life of the side is recorded (it cannot be claimed against). */
  sinceMs?: number;
  claimableAtMs?: number;
}

export interface Opening {
  eco: string;
  name: string;
}

export interface EngineMove {
  move: string;
  san?: string;
  score?: Score;
  depth?: number;
  nodes?: number;
  pv?: string[];
}

/** The review a game keeps (docs/review.md): its id and status, and the version reviewed. */
export interface KeptReview {
  id: string;
  status: 'running' | 'done' | 'stopped' | 'failed';
  gameVersion: number;
}

export interface Game {
  id: string;
  initialFen: string;
  fen: string;
  moves: string[];
  san: string[];
  turn: Color;
  status: GameStatus;
  result: '1-0' | '0-1' | '1/2-1/2' | '*';
  reason?: string;
  winner?: Color;
  check: boolean;
  legalMoves: string[];
  engine: EngineSettings;
  clock?: Clock;
  /**
   * Between people before both sides have moved (the clocks wait until then): what the side to
   * move has left for its first move at clock.at, or the game is aborted.
   */
  firstMoveDeadlineMs?: number;
  version: number;
  engineMove?: EngineMove;
  /** True while the engine owes a reply (newer servers; older ones answer after the reply). */
  engineThinking?: boolean;
  /** The side offering a draw / asking for a takeback (games between people); absent when none. */
  drawOffer?: Color;
  takebackOffer?: Color;
  presence?: Presence;
  gone?: Partial<Record<Color, Gone>>;
  /** The named opening reached, when there is one. */
  opening?: Opening;
  /**
   * GET /games/{id} only: the review kept for the game, null when none; absent from older
   * servers, other answers and events, and when the store could not say.
   */
  review?: KeptReview | null;
  /** The engine's answer to a draw offer (in the reply of POST …/draw/yes against the engine). */
  /**
   * The engine's answer to a draw offer: `too_early` (fewer than `minPlies` plies played),
   * `evaluation` (its search, `engineCp` for its own side), `moved_on` (a move answered it).
   */
  drawOfferAnswer?: { accepted: boolean; reason?: string; minPlies?: number; engineCp?: number };
  /** Only in the reply that created the game: the token of the creator's side. */
  playerToken?: string;
  playerSide?: Color;
  /** Games between people: the other side's token (for an invited player; an analysis board keeps both). */
  inviteToken?: string;
  inviteSide?: Color;
  /** Once the game is over: the side offering a rematch, then the rematch's id (docs/play.md). */
  rematch?: Rematch;
  /** Games with a clock: each move's clock reading (the mover's ms left after it; -1 unknown). */
  moveClocks?: number[];
  /** How many spectators watch the game, where the server counts them. */
  spectators?: number;
}

export interface Rematch {
  offeredBy?: Color;
  gameId?: string;
  /** In the answer that made the rematch: the new game. */
  game?: Game;
}

/**
 * One change of a game on the stream or the WebSocket (newer servers): what a client needs to
 * move on, not the whole game. A client that sees a version gap reads the game.
 */
export interface GameState {
  type: 'gameState';
  gameId: string;
  version: number;
  fen: string;
  lastMove: { uci: string; san: string | null } | null;
  moveCount: number;
  turn: Color;
  status: GameStatus;
  result: Game['result'];
  reason?: string | null;
  winner?: Color | null;
  clock?: Clock | null;
  firstMoveDeadlineMs?: number | null;
  drawOffer?: Color | null;
  takebackOffer?: Color | null;
  presence?: Presence | null;
  gone?: Partial<Record<Color, Gone>> | null;
  legalMoves?: string[];
  engineThinking?: boolean;
  opening?: Opening | null;
  check?: boolean;
  rematch?: Rematch | null;
  spectators?: number | null;
}

/** What GET /api/v1/games?ids=… tells of a game (a "recent games" list). */
export interface GameSummary {
  id: string;
  status: GameStatus;
  result: '1-0' | '0-1' | '1/2-1/2' | '*';
  reason?: string;
  winner?: Color;
  turn: Color;
  fen: string;
  moveCount: number;
  engine: { side: Color | 'none'; level?: number };
  clock?: { initial: number; increment: number };
  version: number;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

/** One progress report of a search (a finished iteration, or one MultiPV line of it). */
export interface SearchInfo {
  type?: 'info';
  id?: string;
  gameId?: string;
  depth?: number;
  seldepth?: number;
  multipv?: number;
  score?: Score;
  nodes?: number;
  nps?: number;
  timeMs?: number;
  hashfull?: number;
  pv?: string[];
  pvSan?: string[];
}

/** Counters of what each search technique did, in whichever of the usual shapes the server sends. */
export type StatsPayload =
  | Record<string, number>
  | Array<[string, number]>
  | Array<{ name: string; count: number }>;

export interface BestMove {
  type?: 'bestmove';
  id?: string;
  bestmove?: string;
  ponder?: string;
  san?: string;
  score?: Score;
  depth?: number;
  nodes?: number;
  nps?: number;
  timeMs?: number;
  pv?: string[];
  pvSan?: string[];
  lines?: SearchInfo[];
  stats?: StatsPayload;
  stopped?: boolean;
}

export interface ApiErrorBody {
  error: { code: string; message: string };
}

export interface NewGameRequest {
  fen?: string;
  moves?: string[];
  engine?: EngineSettings;
  clock?: { initial: number; increment: number };
}

/** GET /api/v1/engine: the engine's switches and levels, and this server's caps. */
export interface EngineInfo {
  name: string;
  version: string;
  /** Changes with the network or the search; cached analyses are answered by the same one. */
  fingerprint: string;
  techniques: Array<{ name: string; default: boolean }>;
  levels: LevelInfo[];
  limits: { maxDepth: number; maxNodes: number; maxMovetimeMs: number; maxMultiPv: number; defaultMovetimeMs: number };
  searchThreads: number;
}

export interface LevelInfo {
  level: number;
  /** Nominal rating. */
  elo: number;
  /** Thinking time per move in a game without a clock. */
  movetimeMs: number;
  candidates: number;
  marginCp: number;
  depth: number | null;
  nodes: number | null;
}

// ---- Game review (docs/review.md) ----------------------------------------------------------

export type ReviewStatus = 'running' | 'done' | 'stopped' | 'failed';
export type MoveClass = 'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder';

export interface ReviewedMove {
  /** 1 = White's first move of the game (counted from the review's initial position). */
  ply: number;
  move: string;
  san: string;
  side: Color;
  /** White's point of view. */
  before: Score;
  after: Score;
  /** White's win probability, 0..1. */
  winBefore: number;
  winAfter: number;
  /** The mover's loss in win probability, 0..1. */
  winLoss: number;
  /** The mover's centipawn loss, clipped to 0..1000. */
  cpLoss: number;
  /** The move's accuracy, 0..100 (Lichess's AccuracyPercent); absent from older servers. */
  accuracy?: number;
  /** best: the engine's own move; good: not judged (unmarked); the others are Lichess's judgements. */
  class: MoveClass;
  missedMate?: boolean;
  walkedIntoMate?: boolean;
  best?: { move: string; san?: string; pv?: string[]; pvSan?: string[] };
}

export interface SideSummary {
  accuracy: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  acpl: number;
}

export interface Review {
  id: string;
  gameId?: string;
  gameVersion?: number;
  status: ReviewStatus;
  initialFen: string;
  moves: string[];
  san: string[];
  limitsApplied?: Limits;
  /** Positions analysed / to analyse (moves + 1). */
  done: number;
  total: number;
  plies: ReviewedMove[];
  summary?: { white: SideSummary; black: SideSummary };
  /** Positions whose search the time cap ended early (absent when none): a second review may differ. */
  timeCapped?: number;
  /** Why a review failed, when the server says. */
  error?: { code: string; message: string } | string;
}

export interface ReviewProgress {
  type: 'reviewProgress';
  reviewId?: string;
  done: number;
  total: number;
  move?: ReviewedMove;
}

/** What starts a review: a stored game, or a game given as PGN (or a FEN and moves). */
export type ReviewRequest =
  | { gameId: string; limits?: Limits }
  | { pgn: string; limits?: Limits }
  | { fen?: string; moves: string[]; limits?: Limits };
