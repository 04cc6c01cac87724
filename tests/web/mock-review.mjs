// The game review routes of docs/review.md for the mock server: deterministic fake reviews by a
// tiny engine (two plies of material with a capture search and mate detection), enough to see
// a hung queen or a walk into mate as a blunder. Positions are "analysed" one per tick so the
// page's live progress can be watched; the review streams as NDJSON like the real server's.
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { makeSan, parseSan } from 'chessops/san';
import { makeSquare, parseUci } from 'chessops/util';

const INITIAL_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const TICK_MS = 60;
const KEEPALIVE_MS = 5000;
const MATE = 100000;
const VALUE = { pawn: 100, knight: 310, bishop: 330, rook: 500, queen: 900, king: 0 };
const WIN_SCALE = 0.00368208;

let nextId = 1;
const reviews = new Map(); // id -> state
const gameReviews = new Map(); // gameId -> review id (the latest)
const runningByClient = new Map(); // client address -> review id

// ---- the toy engine -------------------------------------------------------------------------

function positionFrom(fen) {
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

/** Legal moves as chessops moves (promotions to a queen only: a mock). */
function legalMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const lastRank = piece.role === 'pawn' && (to >> 3 === 7 || to >> 3 === 0);
      out.push(lastRank ? { from, to, promotion: 'queen' } : { from, to });
    }
  }
  return out;
}

/** The move as the API spells it (castling as the king's two-square move). */
function apiUci(pos, move) {
  const piece = pos.board.get(move.from);
  const target = pos.board.get(move.to);
  let to = move.to;
  if (piece?.role === 'king' && target?.role === 'rook' && target.color === piece.color) to = (move.from & ~7) + (move.to > move.from ? 6 : 2);
  return makeSquare(move.from) + makeSquare(to) + (move.promotion ? move.promotion[0] : '');
}

function fromApiUci(pos, uci) {
  return legalMoves(pos).find((m) => apiUci(pos, m) === uci.slice(0, 4) + (uci[4] ? 'q' : '')) ?? parseUci(uci);
}

/** Material and a little centralisation, from the side to move's view. */
function evaluate(pos) {
  let score = 0;
  for (const square of pos.board.occupied) {
    const piece = pos.board.get(square);
    const file = square & 7;
    const rank = square >> 3;
    const centre = 3.5 - Math.max(Math.abs(file - 3.5), Math.abs(rank - 3.5));
    let value = VALUE[piece.role];
    if (piece.role === 'knight' || piece.role === 'bishop') value += 6 * centre;
    if (piece.role === 'pawn') value += 3 * centre;
    score += piece.color === pos.turn ? value : -value;
  }
  return score;
}

function quiesce(pos, alpha, beta, depth) {
  const stand = evaluate(pos);
  if (stand >= beta || depth === 0) return stand;
  if (stand > alpha) alpha = stand;
  for (const move of legalMoves(pos)) {
    if (!pos.board.get(move.to)) continue;
    const child = pos.clone();
    child.play(move);
    const score = -quiesce(child, -beta, -alpha, depth - 1);
    if (score >= beta) return score;
    if (score > alpha) alpha = score;
  }
  return alpha;
}

function negamax(pos, depth, alpha, beta, ply) {
  const moves = legalMoves(pos);
  if (moves.length === 0) return pos.isCheck() ? -(MATE - ply) : 0;
  if (depth === 0) return quiesce(pos, alpha, beta, 4);
  let best = -Infinity;
  for (const move of moves) {
    const child = pos.clone();
    child.play(move);
    const score = -negamax(child, depth - 1, -beta, -alpha, ply + 1);
    if (score > best) best = score;
    if (score > alpha) alpha = score;
    if (alpha >= beta) break;
  }
  return best;
}

/** The toy engine's view of a position: White's score, its best move and a short line. */
function analysePosition(fen) {
  const pos = positionFrom(fen);
  const white = pos.turn === 'white' ? 1 : -1;
  const moves = legalMoves(pos);
  if (moves.length === 0) {
    // Checkmate or stalemate: nothing to play.
    return { score: pos.isCheck() ? { mate: 0 } : { cp: 0 }, win: pos.isCheck() ? (pos.turn === 'white' ? 0 : 1) : 0.5 };
  }
  let bestMove = moves[0];
  let bestScore = -Infinity;
  for (const move of moves) {
    const child = pos.clone();
    child.play(move);
    const score = -negamax(child, 1, -Infinity, Infinity, 1);
    if (score > bestScore) {
      bestScore = score;
      bestMove = move;
    }
  }
  let score;
  if (Math.abs(bestScore) > MATE - 100) {
    const plies = MATE - Math.abs(bestScore);
    score = { mate: Math.sign(bestScore) * white * Math.ceil(plies / 2) };
  } else {
    score = { cp: Math.round(bestScore * white) };
  }
  const best = apiUci(pos, bestMove);
  const bestSan = makeSan(pos, bestMove);
  // The line: the best move and the toy engine's greedy answer.
  const after = pos.clone();
  after.play(bestMove);
  const pv = [best];
  const pvSan = [bestSan];
  const replies = legalMoves(after);
  if (replies.length) {
    let reply = replies[0];
    let replyScore = -Infinity;
    for (const move of replies) {
      const child = after.clone();
      child.play(move);
      const s = -quiesce(child, -Infinity, Infinity, 2);
      if (s > replyScore) [replyScore, reply] = [s, move];
    }
    pv.push(apiUci(after, reply));
    pvSan.push(makeSan(after, reply));
  }
  return { score, win: winOf(score), best, bestSan, pv, pvSan };
}

function winOf(score) {
  if (score.mate !== undefined) return score.mate > 0 ? 1 : score.mate < 0 ? 0 : 0.5;
  return 1 / (1 + Math.exp(-WIN_SCALE * score.cp));
}

/** Centipawns for losses: a mate counts as 1000 (a checkmated position by its `win`). */
function cpOf({ score, win }) {
  if (score.mate !== undefined) return win > 0.5 ? 1000 : win < 0.5 ? -1000 : 0;
  return Math.max(-1000, Math.min(1000, score.cp));
}

// ---- reviews --------------------------------------------------------------------------------

function classify(winLoss) {
  if (winLoss >= 0.15) return 'blunder';
  if (winLoss >= 0.1) return 'mistake';
  if (winLoss >= 0.05) return 'inaccuracy';
  return 'good';
}

/** A move's accuracy, 0..100, from its win loss (Lichess's AccuracyPercent, docs/review.md). */
function moveAccuracy(winLoss) {
  return Math.max(0, Math.min(100, 103.1668 * Math.exp(-0.04354 * (100 * winLoss)) - 3.1669));
}

const RANK = { best: 0, good: 1, inaccuracy: 2, mistake: 3, blunder: 4 };

function reviewedMove(state, ply) {
  const before = state.evals[ply - 1];
  const after = state.evals[ply];
  const side = state.sides[ply - 1];
  const sign = side === 'white' ? 1 : -1;
  const winBefore = before.win;
  const winAfter = after.win;
  const winLoss = Math.max(0, sign * (winBefore - winAfter));
  const cpLoss = Math.max(0, Math.min(1000, sign * (cpOf(before) - cpOf(after))));
  const move = state.moves[ply - 1];
  let cls = before.best === move ? 'best' : classify(winLoss);
  const out = { ply, move, san: state.san[ply - 1], side, before: before.score, after: after.score, winBefore, winAfter, winLoss, cpLoss };
  out.accuracy = Math.round(moveAccuracy(winLoss) * 10) / 10;
  const moverMate = (s) => s.mate !== undefined && s.mate !== 0 && Math.sign(s.mate) === sign;
  const opponentMate = (s) => s.mate !== undefined && s.mate !== 0 && Math.sign(s.mate) === -sign;
  if (moverMate(before.score) && !moverMate(after.score) && !(after.score.mate === 0)) {
    out.missedMate = true;
    if (RANK[cls] < RANK.mistake) cls = 'mistake';
  }
  if (opponentMate(after.score) && !opponentMate(before.score)) {
    out.walkedIntoMate = true;
    cls = 'blunder';
  }
  out.class = cls;
  if (before.best && before.best !== move) out.best = { move: before.best, san: before.bestSan, pv: before.pv, pvSan: before.pvSan };
  return out;
}

function summary(plies) {
  const side = (color) => {
    const mine = plies.filter((m) => m.side === color);
    const mean = (f) => (mine.length ? mine.reduce((s, m) => s + f(m), 0) / mine.length : 0);
    const count = (cls) => mine.filter((m) => m.class === cls).length;
    return {
      accuracy: Math.round(mean((m) => m.accuracy) * 10) / 10,
      inaccuracies: count('inaccuracy'),
      mistakes: count('mistake'),
      blunders: count('blunder'),
      acpl: Math.round(mean((m) => m.cpLoss)),
    };
  };
  return { white: side('white'), black: side('black') };
}

function view(state) {
  const plies = state.plies.filter(Boolean);
  const review = {
    id: state.id,
    status: state.status,
    initialFen: state.initialFen,
    moves: state.moves,
    san: state.san,
    limitsApplied: state.limits,
    done: state.done,
    total: state.moves.length + 1,
    plies,
  };
  if (state.gameId) Object.assign(review, { gameId: state.gameId, gameVersion: state.gameVersion });
  if (state.status !== 'running') review.summary = summary(plies);
  return review;
}

function emit(state, line) {
  const text = `${JSON.stringify(line)}\n`;
  for (const res of state.listeners) res.write(text);
}

function finish(state, status) {
  clearInterval(state.timer);
  state.status = status;
  if (runningByClient.get(state.client) === state.id) runningByClient.delete(state.client);
  emit(state, { type: 'review', review: view(state) });
  for (const res of state.listeners) res.end();
  state.listeners.clear();
}

/** Starts a review of `moves` (API UCI) from `initialFen`. */
function startReview({ initialFen, moves, limits, client, gameId, gameVersion }) {
  const pos = positionFrom(initialFen);
  const fens = [makeFen(pos.toSetup())];
  const san = [];
  const sides = [];
  for (const uci of moves) {
    const move = fromApiUci(pos, uci);
    sides.push(pos.turn);
    san.push(makeSan(pos, move));
    pos.play(move);
    fens.push(makeFen(pos.toSetup()));
  }
  const state = {
    id: `r${nextId++}`,
    status: 'running',
    initialFen,
    moves,
    san,
    sides,
    fens,
    limits: limits ?? { depth: 2 },
    evals: [],
    plies: [],
    done: 0,
    client,
    gameId,
    gameVersion,
    listeners: new Set(),
  };
  state.timer = setInterval(() => {
    const i = state.done;
    state.evals[i] = analysePosition(fens[i]);
    state.done++;
    let move;
    if (i > 0) {
      move = reviewedMove(state, i);
      state.plies[i] = move;
    }
    emit(state, { type: 'reviewProgress', reviewId: state.id, done: state.done, total: fens.length, ...(move ? { move } : {}) });
    if (state.done === fens.length) finish(state, 'done');
  }, Math.max(10, Math.min(TICK_MS, limits?.movetime ?? TICK_MS)));
  reviews.set(state.id, state);
  if (gameId) gameReviews.set(gameId, state.id);
  runningByClient.set(client, state.id);
  return state;
}

/** Moves of a pasted game: the main line of its first PGN game, or a FEN and UCI/SAN moves. */
function readGame(body) {
  if (typeof body.pgn === 'string') {
    const game = parsePgn(body.pgn)[0];
    if (!game) throw new Error('No game in the PGN');
    const pos = startingPosition(game.headers).unwrap();
    const initialFen = makeFen(pos.toSetup());
    const moves = [];
    for (const node of game.moves.mainline()) {
      const move = parseSan(pos, node.san);
      if (!move) throw new Error(`Cannot read move ${moves.length + 1} of the PGN: ${node.san}`);
      moves.push(apiUci(pos, move));
      pos.play(move);
    }
    return { initialFen, moves };
  }
  if (Array.isArray(body.moves)) {
    const initialFen = body.fen ?? INITIAL_FEN;
    const pos = positionFrom(initialFen);
    const moves = [];
    for (const text of body.moves) {
      const legal = legalMoves(pos);
      const move = legal.find((m) => apiUci(pos, m) === text) ?? parseSan(pos, text);
      if (!move) throw new Error(`Illegal move ${text}`);
      moves.push(apiUci(pos, move));
      pos.play(move);
    }
    return { initialFen, moves };
  }
  throw new Error('Give a pgn, or moves');
}

// ---- HTTP -----------------------------------------------------------------------------------

function busy(res, send) {
  res.setHeader('Retry-After', '2');
  return send(res, 429, { error: { code: 'rate_limited', message: 'You already have a review running' } });
}

/**
 * Handles /api/v1/review, /api/v1/reviews/... and /api/v1/games/{id}/review; returns false for
 * any other route. `gameOf(id)` gives a mock game ({initialFen, moves, version}).
 */
export async function handleReview(req, res, parts, { send, readBody, gameOf }) {
  const fail = (status, code, message) => send(res, status, { error: { code, message } });
  const client = req.socket.remoteAddress ?? 'local';
  const reply = (state) => send(res, state.status === 'running' ? 202 : 200, view(state));

  if (parts[2] === 'review' && parts.length === 3) {
    if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'POST only'), true;
    const body = await readBody(req);
    if (!body) return fail(400, 'bad_json', 'Bad JSON'), true;
    let game;
    try {
      game = readGame(body);
    } catch (err) {
      return fail(422, 'invalid_game', err.message), true;
    }
    if (runningByClient.has(client)) return busy(res, send), true;
    return reply(startReview({ ...game, limits: body.limits, client })), true;
  }

  if (parts[2] === 'games' && parts[4] === 'review' && parts.length === 5) {
    const game = gameOf(parts[3]);
    if (!game) return fail(404, 'not_found', 'No such game'), true;
    const kept = reviews.get(gameReviews.get(game.id));
    if (req.method === 'GET') {
      if (!kept) return fail(404, 'not_found', 'This game has no review'), true;
      return send(res, 200, view(kept)), true;
    }
    if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'GET or POST'), true;
    const body = (await readBody(req)) ?? {};
    if (kept && kept.gameVersion === game.version && (kept.status === 'running' || kept.status === 'done')) return reply(kept), true;
    if (game.moves.length === 0) return fail(422, 'no_moves', 'The game has no moves to review'), true;
    if (runningByClient.has(client)) return busy(res, send), true;
    const state = startReview({ initialFen: game.initialFen, moves: [...game.moves], limits: body.limits, client, gameId: game.id, gameVersion: game.version });
    return reply(state), true;
  }

  if (parts[2] === 'reviews' && parts.length >= 4) {
    const state = reviews.get(parts[3]);
    if (!state) return fail(404, 'not_found', 'No such review'), true;
    const action = parts[4];
    if (!action && req.method === 'GET') return send(res, 200, view(state)), true;
    if (action === 'stop' && req.method === 'POST') {
      if (state.status === 'running') finish(state, 'stopped');
      return send(res, 200, view(state)), true;
    }
    if (action === 'stream' && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
      // As the real server: the review as it stands, a line per position, the final review.
      res.write(`${JSON.stringify({ type: 'review', review: view(state) })}\n`);
      if (state.status !== 'running') return res.end(), true;
      state.listeners.add(res);
      const keepAlive = setInterval(() => res.write('\n'), KEEPALIVE_MS);
      res.on('close', () => {
        clearInterval(keepAlive);
        state.listeners.delete(res);
      });
      return true;
    }
    return fail(404, 'not_found', 'No such endpoint'), true;
  }
  return false;
}
