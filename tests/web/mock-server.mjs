// A small stand-in for outpost-server, for developing the page before (or without) the real
// server: the API contract's games, PGN, game subscriptions and analysis over the WebSocket, with a
// toy "engine" that prefers captures, and game reviews (mock-review.mjs). The end-to-end tests run against the real server; this mock
// is only used when OUTPOST_WEB_MOCK=1 (see run.sh).
//
//   node tests/web/mock-server.mjs --port 8090 --web-root web/dist
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { makeSquare, parseUci } from 'chessops/util';
import { WebSocketServer } from 'ws';
import { handleReview } from './mock-review.mjs';

const INITIAL_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const ENGINE_ITERATIONS = 4;
const ITERATION_MS = 120;
const ANALYSIS_ITERATIONS = 100;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const port = Number(option('port', '8090'));
const webRoot = path.resolve(option('web-root', 'web/dist'));

// GET /api/v1/engine: the page's own list of technique switches (with their defaults) and eight
// levels shaped like the real server's.
const TECHNIQUES_SOURCE = new URL('../../web/src/ui/techniques.ts', import.meta.url);
const ENGINE_INFO = {
  name: 'Outpost (mock)',
  version: '0',
  techniques: [...fs.readFileSync(TECHNIQUES_SOURCE, 'utf8').matchAll(/name: '(\w+)'.*?defaultOn: (true|false)/g)].map(([, name, on]) => ({
    name,
    default: on === 'true',
  })),
  levels: [1, 2, 3, 4, 5, 6, 7, 8].map((level) => ({
    level,
    elo: 600 + level * 250,
    movetimeMs: level === 8 ? 1000 : level * 50,
    candidates: level === 8 ? 1 : 9 - level,
    marginCp: level === 8 ? 0 : (8 - level) * 40,
    depth: level === 8 ? null : level,
    nodes: null,
  })),
  limits: { maxDepth: 64, maxNodes: 100000000, maxMovetimeMs: 60000, maxMultiPv: 5, defaultMovetimeMs: 1000 },
  searchThreads: 1,
  fingerprint: '0123456789abcdef',
};

const games = new Map();
const subscribers = new Map(); // gameId -> Set<ws>

// ---- chess helpers --------------------------------------------------------------------------

function position(fen, moves) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  for (const uci of moves) pos.play(parseUci(uci));
  return pos;
}

function legalUci(pos) {
  const out = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const piece = pos.board.get(from);
      const target = pos.board.get(to);
      let toSq = to;
      // chessops spells castling king-takes-rook; the API uses the king's two-square move.
      if (piece.role === 'king' && target && target.role === 'rook' && target.color === piece.color) {
        toSq = (from & ~7) + (to > from ? 6 : 2);
      }
      const uci = makeSquare(from) + makeSquare(toSq);
      const lastRank = piece.role === 'pawn' && (toSq >> 3 === 7 || toSq >> 3 === 0);
      if (lastRank) for (const p of 'qrbn') out.push(uci + p);
      else out.push(uci);
    }
  }
  return out;
}

function gameView(game) {
  const pos = position(game.initialFen, game.moves);
  const view = {
    id: game.id,
    initialFen: game.initialFen,
    fen: makeFen(pos.toSetup()),
    moves: game.moves,
    san: game.san,
    turn: pos.turn,
    status: game.status,
    result: game.result,
    check: pos.isCheck(),
    legalMoves: game.status === 'ongoing' ? legalUci(pos) : [],
    engine: game.engine,
    version: game.version,
  };
  if (game.reason) view.reason = game.reason;
  if (game.winner) view.winner = game.winner;
  if (game.clock) {
    const c = game.clock;
    const elapsed = c.running ? Date.now() - c.turnStartedAt : 0;
    view.clock = {
      white: Math.max(0, c.white - (pos.turn === 'white' ? elapsed : 0)),
      black: Math.max(0, c.black - (pos.turn === 'black' ? elapsed : 0)),
      initial: c.initial,
      increment: c.increment,
      running: c.running && game.status === 'ongoing',
    };
  }
  return view;
}

function updateStatus(game) {
  const pos = position(game.initialFen, game.moves);
  if (pos.isCheckmate()) {
    game.status = 'checkmate';
    game.winner = pos.turn === 'white' ? 'black' : 'white';
    game.result = game.winner === 'white' ? '1-0' : '0-1';
  } else if (pos.isStalemate()) {
    Object.assign(game, { status: 'stalemate', result: '1/2-1/2', reason: 'stalemate' });
  } else if (pos.isInsufficientMaterial()) {
    Object.assign(game, { status: 'draw', result: '1/2-1/2', reason: 'insufficient_material' });
  } else if (pos.halfmoves >= 100) {
    Object.assign(game, { status: 'draw', result: '1/2-1/2', reason: 'fifty_moves' });
  }
}

/** Plays a move given as UCI or SAN; returns false when it is not legal. */
function play(game, move) {
  const pos = position(game.initialFen, game.moves);
  const legal = legalUci(pos);
  let uci = legal.includes(move) ? move : null;
  if (!uci) {
    const parsed = parseSan(pos, move);
    if (parsed) uci = legal.find((m) => sanOf(game, m) === makeSan(pos, parsed)) ?? null;
  }
  if (!uci) return false;
  if (game.clock) {
    const c = game.clock;
    if (c.running) c[pos.turn] -= Date.now() - c.turnStartedAt;
    c[pos.turn] += c.increment;
    c.turnStartedAt = Date.now();
    c.running = true;
  }
  game.san.push(sanOf(game, uci));
  game.moves.push(uci);
  game.version++;
  updateStatus(game);
  return true;
}

function sanOf(game, uci) {
  return makeSan(position(game.initialFen, game.moves), parseUci(uci));
}

// ---- the toy engine -------------------------------------------------------------------------

const PIECE_VALUE = { pawn: 100, knight: 300, bishop: 320, rook: 500, queen: 900, king: 0 };

function chooseMove(pos) {
  const legal = legalUci(pos);
  let best = legal[0];
  let bestValue = -1;
  for (const uci of legal) {
    const target = pos.board.get(parseUci(uci).to);
    const value = (target ? PIECE_VALUE[target.role] : 0) + (uci.length === 5 && uci[4] === 'q' ? 800 : 0) + Math.random();
    if (value > bestValue) {
      bestValue = value;
      best = uci;
    }
  }
  return best;
}

/** Sends a few fake iterations to `report`, then calls `done` with the chosen move. */
function think(fen, moves, multipv, report, done, iterations = ENGINE_ITERATIONS) {
  const pos = position(fen, moves);
  const legal = legalUci(pos);
  const best = chooseMove(pos);
  const others = legal.filter((m) => m !== best);
  // A finished position (mate, stalemate) has no lines.
  const lines = [best, ...others].filter(Boolean).slice(0, Math.max(1, multipv));
  let depth = 0;
  const timer = setInterval(() => {
    depth++;
    lines.forEach((move, i) => {
      const cp = (pos.turn === 'white' ? 1 : -1) * (30 - i * 25 + depth);
      const pvSan = [makeSan(pos, parseUci(move))];
      report({ type: 'info', depth, seldepth: depth + 2, multipv: i + 1, score: { cp }, nodes: depth * 12000, nps: 480000, timeMs: depth * ITERATION_MS, pv: [move], pvSan });
    });
    if (depth >= iterations) finish();
  }, ITERATION_MS);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    done({ bestmove: best, depth, stats: { nullMoveCutoffs: 1234 * depth, futilityPrunes: 321 * depth, ttHits: 999 } });
  };
  return { stop: finish };
}

function broadcast(game, message) {
  for (const ws of subscribers.get(game.id) ?? []) ws.send(JSON.stringify(message));
}

function engineReply(game) {
  return new Promise((resolve) => {
    const pos = position(game.initialFen, game.moves);
    const expected = game.moves.length;
    think(
      game.initialFen,
      game.moves,
      1,
      (info) => broadcast(game, { ...info, gameId: game.id }),
      ({ bestmove, depth }) => {
        if (game.status === 'ongoing' && game.engine.side === pos.turn && game.moves.length === expected) {
          play(game, bestmove);
          broadcast(game, { type: 'game', game: gameView(game) });
        }
        resolve({ move: bestmove, depth, score: { cp: 20 }, pv: [bestmove] });
      },
      Math.max(ENGINE_ITERATIONS, Math.ceil((game.engine.limits?.movetime ?? 0) / ITERATION_MS)),
    );
  });
}

// ---- HTTP ---------------------------------------------------------------------------------

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'Content-Type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}
const fail = (res, status, code, message) => send(res, status, { error: { code, message } });

function readBody(req) {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      try {
        resolve(data ? JSON.parse(data) : {});
      } catch {
        resolve(null);
      }
    });
  });
}

function authorised(req, res, game) {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) return fail(res, 401, 'unauthorized', 'A player token is needed'), false;
  if (header.slice(7) !== game.token) return fail(res, 403, 'forbidden', 'Wrong player token'), false;
  return true;
}

function pgnOf(game) {
  const headers = [`[Event "Outpost mock game"]`, `[Result "${game.result}"]`];
  if (game.initialFen !== INITIAL_FEN) headers.push(`[FEN "${game.initialFen}"]`, '[SetUp "1"]');
  const parts = [];
  game.san.forEach((san, i) => parts.push(i % 2 === 0 ? `${i / 2 + 1}. ${san}` : san));
  return `${headers.join('\n')}\n\n${parts.join(' ')} ${game.result}\n`;
}

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const parts = url.pathname.split('/').filter(Boolean);
  if (url.pathname === '/healthz' || url.pathname === '/readyz') return send(res, 200, { status: 'ok' });
  if (parts[0] !== 'api') {
    const file = path.join(webRoot, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(webRoot) || !fs.existsSync(file)) return send(res, 404, 'not found', 'text/plain');
    return send(res, 200, fs.readFileSync(file, 'utf8'), MIME[path.extname(file)] ?? 'application/octet-stream');
  }
  if (url.pathname === '/api/v1/engine') return send(res, 200, ENGINE_INFO);
  // Game review (docs/review.md): /api/v1/review, /api/v1/reviews/..., /api/v1/games/{id}/review
  if (await handleReview(req, res, parts, { send, readBody, gameOf: (id) => games.get(id) })) return;
  // /api/v1/games[/id[/action]]
  if (parts[2] !== 'games') return fail(res, 404, 'not_found', 'No such endpoint');
  if (parts.length === 3 && req.method === 'GET') {
    // The recent-games listing: summaries of the known ids, in the order asked.
    const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
    if (ids.length > 50) return fail(res, 400, 'bad_request', 'at most 50 ids per request');
    const summaries = ids.filter((id) => games.has(id)).map((id) => {
      const view = gameView(games.get(id));
      const { id: gameId, status, result, reason, winner, turn, fen, engine, version } = view;
      return { id: gameId, status, result, reason, winner, turn, fen, moveCount: view.moves.length, engine, version, createdAt: 0, updatedAt: 0 };
    });
    return send(res, 200, { games: summaries });
  }
  if (parts.length === 3 && req.method === 'POST') {
    const body = await readBody(req);
    if (!body) return fail(res, 400, 'bad_json', 'Bad JSON');
    const game = {
      id: randomBytes(9).toString('base64url'),
      token: randomBytes(18).toString('base64url'),
      initialFen: body.fen ?? INITIAL_FEN,
      moves: [],
      san: [],
      status: 'ongoing',
      result: '*',
      engine: body.engine ?? { side: 'none' },
      version: 1,
    };
    try {
      position(game.initialFen, []);
    } catch {
      return fail(res, 422, 'invalid_fen', 'Invalid FEN');
    }
    for (const move of body.moves ?? []) if (!play(game, move)) return fail(res, 422, 'illegal_move', `Illegal move ${move}`);
    game.version = 1;
    if (body.clock) {
      const { initial, increment = 0 } = body.clock;
      game.clock = { white: initial, black: initial, initial, increment, running: false, turnStartedAt: 0 };
    }
    games.set(game.id, game);
    send(res, 201, { ...gameView(game), playerToken: game.token });
    if (game.engine.side === position(game.initialFen, game.moves).turn) engineReply(game);
    return;
  }
  const game = games.get(parts[3]);
  if (!game) return fail(res, 404, 'not_found', 'No such game');
  const action = parts[4];
  if (!action && req.method === 'GET') return send(res, 200, gameView(game));
  if (action === 'pgn') return send(res, 200, pgnOf(game), 'application/x-chess-pgn');
  if (req.method !== 'POST') return fail(res, 405, 'method_not_allowed', 'POST only');
  const body = await readBody(req);
  if (!authorised(req, res, game)) return;
  if (action === 'moves') {
    if (game.status !== 'ongoing') return fail(res, 409, 'game_over', 'The game is over');
    const turn = position(game.initialFen, game.moves).turn;
    if (game.engine.side === turn) return fail(res, 409, 'not_your_turn', 'The engine is to move');
    if (!play(game, body.move)) return fail(res, 422, 'illegal_move', `Illegal move ${body.move}`);
    broadcast(game, { type: 'game', game: gameView(game) });
    let engineMove;
    if (game.status === 'ongoing' && game.engine.side !== 'none') engineMove = await engineReply(game);
    return send(res, 200, { ...gameView(game), ...(engineMove ? { engineMove } : {}) });
  }
  if (action === 'takeback') {
    if (game.moves.length === 0) return fail(res, 409, 'nothing_to_take_back', 'Nothing to take back');
    const pairs = game.engine.side !== 'none' && game.moves.length >= 2 && position(game.initialFen, game.moves).turn !== game.engine.side ? 2 : 1;
    game.moves.splice(-pairs);
    game.san.splice(-pairs);
    Object.assign(game, { status: 'ongoing', result: '*', reason: undefined, winner: undefined });
    game.version++;
    broadcast(game, { type: 'game', game: gameView(game) });
    return send(res, 200, gameView(game));
  }
  if (action === 'resign') {
    const turn = position(game.initialFen, game.moves).turn;
    const loser = game.engine.side === 'none' ? turn : game.engine.side === 'white' ? 'black' : 'white';
    Object.assign(game, { status: 'resigned', winner: loser === 'white' ? 'black' : 'white' });
    game.result = game.winner === 'white' ? '1-0' : '0-1';
    game.version++;
    broadcast(game, { type: 'game', game: gameView(game) });
    return send(res, 200, gameView(game));
  }
  return fail(res, 404, 'not_found', 'No such endpoint');
});

// ---- WebSocket ------------------------------------------------------------------------------

const wss = new WebSocketServer({ server, path: '/api/v1/ws' });
wss.on('connection', (ws) => {
  const searches = new Map();
  ws.on('message', (data) => {
    let msg;
    try {
      msg = JSON.parse(String(data));
    } catch {
      return ws.send(JSON.stringify({ type: 'error', code: 'bad_json', message: 'Bad JSON' }));
    }
    if (msg.type === 'ping') return ws.send(JSON.stringify({ type: 'pong' }));
    if (msg.type === 'subscribe') {
      const game = games.get(msg.gameId);
      if (!game) return ws.send(JSON.stringify({ type: 'error', code: 'not_found', message: 'No such game' }));
      if (!subscribers.has(game.id)) subscribers.set(game.id, new Set());
      subscribers.get(game.id).add(ws);
      return ws.send(JSON.stringify({ type: 'game', game: gameView(game) }));
    }
    if (msg.type === 'unsubscribe') return subscribers.get(msg.gameId)?.delete(ws);
    if (msg.type === 'analyse') {
      const search = think(
        msg.fen ?? INITIAL_FEN,
        msg.moves ?? [],
        msg.multipv ?? 1,
        (info) => ws.readyState === 1 && ws.send(JSON.stringify({ ...info, id: msg.id })),
        (best) => {
          searches.delete(msg.id);
          if (ws.readyState === 1) ws.send(JSON.stringify({ type: 'bestmove', id: msg.id, ...best }));
        },
        // Analysis runs for a while (like the real server's long movetime) unless stopped.
        ANALYSIS_ITERATIONS,
      );
      searches.set(msg.id, search);
      return;
    }
    if (msg.type === 'stop') return searches.get(msg.id)?.stop();
    ws.send(JSON.stringify({ type: 'error', id: msg.id, code: 'bad_request', message: `Unknown type ${msg.type}` }));
  });
  ws.on('close', () => {
    for (const search of searches.values()) search.stop();
    for (const set of subscribers.values()) set.delete(ws);
  });
});

server.listen(port, '127.0.0.1', () => console.log(`mock outpost-server on http://127.0.0.1:${port}/`));
