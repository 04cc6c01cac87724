// A pasted FEN is read as strictly as the server reads it: the analysis board refuses what "Start
// game" refuses, both say what is wrong in the server's words, and a board keeps the FEN it uses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { BASE_URL, clickMove, openBrowser, shot, viewPly } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

/** Bad FENs and the server's reason for each (engine/core/fen.cpp; POST /api/v1/games says it). */
const BAD = [
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1', "castling right 'K' but there is no rook on h1"],
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQBKNR w KQkq - 0 1', "castling right 'K' but the king is not on its start square"],
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1', 'impossible en-passant square e3: must be on rank 6 with white to move'],
  ['rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2', 'impossible en-passant square e6: no pawn that could just have moved two squares'],
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR', 'wrong number of fields: expected 6 (or 4 without the move counters), got 1'],
  ['8/8/8/8/8/8/8/8 w - - 0 1', 'there must be exactly one white king, found 0'],
  ['4k3/8/8/8/8/8/4R3/4K3 w - - 0 1', 'the side not to move is in check'],
  ['4k2P/8/8/8/8/8/8/4K3 w - - 0 1', 'pawn on the first or last rank'],
  ['rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'rank 7 has 7 squares instead of 8'],
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', "side to move must be 'w' or 'b', got 'x'"],
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0', "bad fullmove number '0'"],
];

async function refusal(page, fen, button) {
  if (!(await page.locator('#new-game').evaluate((d) => d.open))) await page.click('#btn-new');
  await page.evaluate(() => (document.querySelector('#new-game-error').textContent = ''));
  await page.fill('#new-game textarea[name=start]', fen);
  await page.click(button);
  await page.waitForFunction(() => document.querySelector('#new-game-error').textContent !== '');
  assert.equal(await page.locator('#new-game').evaluate((d) => d.open), true, `${fen}: the dialog stays open`);
  return page.textContent('#new-game-error');
}

test('a bad FEN is refused by the analysis board and by Start game, with the reason', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForFunction(() => document.querySelector('#new-game').open);
  for (const [fen, reason] of BAD) {
    assert.equal(await refusal(page, fen, '#new-game-analyse'), `Invalid FEN: ${reason}`, `analysis board: ${fen}`);
    assert.equal(await refusal(page, fen, '#new-game-start'), `Invalid FEN: ${reason}`, `start game: ${fen}`);
  }
  await shot(page, 'fen-1-refused');
  // Not a FEN at all, and not a PGN either: the general message.
  assert.equal(await refusal(page, 'hello there', '#new-game-analyse'), 'Neither a FEN nor a PGN with moves');
  // A PGN's FEN header is read as strictly.
  const pgn = '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"]\n\n1. e4 *';
  assert.equal(await refusal(page, pgn, '#new-game-analyse'), "The PGN's FEN header is invalid: castling right 'K' but there is no rook on h1");
  assert.deepEqual(errors, []);
});

test('the analysis board keeps the FEN it uses, as the server would write it', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForFunction(() => document.querySelector('#new-game').open);
  // Four fields, castling rights out of order, an en-passant square no pawn can take on.
  await page.fill('#new-game textarea[name=start]', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b kqKQ e3');
  await page.click('#new-game-analyse');
  const normalised = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
  await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, normalised);
  await page.click('#btn-stop');
  assert.equal(await page.evaluate(() => window.outpost.snapshot().game.initialFen), normalised);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  const pgn = fs.readFileSync(await download.path(), 'utf8');
  assert.ok(pgn.includes(`[FEN "${normalised}"]`), pgn);
  assert.deepEqual(errors, []);
});

// The server reads move counters up to 1000 (halfmove clock) and 100000 (move number) and writes
// them held there (engine/core/fen.cpp). chessops, which the page reads and writes FENs with,
// reads at most four digits and writes at most 9999 (and a halfmove clock of at most 150): a
// game from move 10000 on was refused by the page, shown at its start position whatever move was
// browsed, and numbered from 1; a board's FEN after 150 quiet plies said 150.
const BIG = '4k3/8/8/8/8/8/8/R3K3 w Q - 998 99999';

/** Whether the server takes `fen` as a game's start (POST /api/v1/games). */
async function serverTakes(fen) {
  const response = await fetch(new URL('api/v1/games', BASE_URL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ fen, engine: { side: 'none' } }),
  });
  const body = await response.json();
  return response.status === 201 ? body.initialFen : `${response.status} ${JSON.stringify(body)}`;
}

test('a board from move 99999 with a halfmove clock of 998 writes its counters as the server does', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForFunction(() => document.querySelector('#new-game').open);
  await page.fill('#new-game textarea[name=start]', BIG);
  await page.click('#new-game-analyse');
  await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, BIG);
  await page.click('#btn-stop');
  const shown = [];
  for (const [from, to] of [
    ['a1', 'a2'],
    ['e8', 'e7'],
    ['a2', 'a1'],
    ['e7', 'e8'],
  ]) {
    const before = await page.textContent('#fen');
    await clickMove(page, from, to);
    await page.waitForFunction((f) => document.querySelector('#fen')?.textContent !== f, before);
    shown.push(await page.textContent('#fen'));
  }
  // The clock and the number go up to the server's bounds and stay there, as the server writes them.
  assert.deepEqual(shown, [
    '4k3/8/8/8/8/8/R7/4K3 b - - 999 99999',
    '8/4k3/8/8/8/8/R7/4K3 w - - 1000 100000',
    '8/4k3/8/8/8/8/8/R3K3 b - - 1000 100000',
    '4k3/8/8/8/8/8/8/R3K3 w - - 1000 100000',
  ]);
  assert.match(await page.textContent('#move-list'), /99999\./);
  // Each is a FEN the server takes as it is, and the page too.
  for (const fen of shown) assert.equal(await serverTakes(fen), fen);
  await page.click('#btn-new');
  await page.fill('#new-game textarea[name=start]', shown[3]);
  await page.click('#new-game-analyse');
  await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, shown[3]);
  assert.deepEqual(errors, []);
});

test('a game the server keeps from move 99999 is browsed and numbered from there', async () => {
  const { page, errors } = browser;
  const response = await fetch(new URL('api/v1/games', BASE_URL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ fen: '4k3/8/8/8/8/8/8/R3K3 w Q - 90 99999', moves: ['a1a2', 'e8e7', 'a2a1'], engine: { side: 'none' } }),
  });
  assert.equal(response.status, 201);
  const game = await response.json();
  await page.goto(`${process.env.OUTPOST_URL}?game=${game.id}`);
  await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, game.fen);
  assert.equal(game.fen, '8/4k3/8/8/8/8/8/R3K3 b - - 93 100000');
  await viewPly(page, 1);
  assert.equal(await page.textContent('#fen'), '4k3/8/8/8/8/8/R7/4K3 b - - 91 99999');
  assert.equal(await page.evaluate(() => window.outpost.snapshot().placement), '4k3/8/8/8/8/8/R7/4K3');
  assert.match(await page.textContent('#move-list'), /99999\.\s*Ra2/);
  assert.deepEqual(errors, []);
});
