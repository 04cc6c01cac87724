// A pasted FEN is read as strictly as the server reads it: the analysis board refuses what "Start
// game" refuses, both say what is wrong in the server's words, and a board keeps the FEN it uses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { openBrowser, shot } from './helpers.mjs';

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
