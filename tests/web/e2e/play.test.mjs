// A whole short game by clicks: a quiet move and the engine's reply, a takeback, then a
// promotion chosen in the picker that mates. Checks the board, the move list, the server's game,
// the game-over message and the PGN.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, moveListSan, newGame, openBrowser, serverGame, shot, waitForMoves } from './helpers.mjs';

// White: Kb6, pawn e7. Black: Ka8, pawn h7. 1. e8=Q# or the under-promotion 1. e8=R# mates at
// once; 1. Kc6 does not.
const START_FEN = 'k7/4P2p/1K6/8/8/8/8/8 w - - 0 1';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

test('a short game by clicks with a takeback and a promotion', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1', start: START_FEN });
  await page.waitForSelector('#game-status:has-text("Your move")');
  await shot(page, 'play-1-start');

  // A quiet king move by two clicks; the engine answers.
  await clickMove(page, 'b6', 'c6');
  await waitForMoves(page, 2);
  let game = await serverGame(id);
  assert.equal(game.moves[0], 'b6c6');
  assert.equal(game.moves.length, 2);
  await shot(page, 'play-2-engine-replied');

  // Takeback undoes the pair.
  await page.click('#btn-takeback');
  await waitForMoves(page, 0);
  game = await serverGame(id);
  assert.equal(game.moves.length, 0);
  assert.equal(game.fen.split(' ')[0], START_FEN.split(' ')[0]);

  // Promotion: the picker offers all four pieces; an under-promotion to a rook mates.
  await clickMove(page, 'e7', 'e8');
  await page.waitForSelector('.promotion-choice[data-role="n"]');
  assert.equal(await page.locator('.promotion-choice').count(), 4);
  await shot(page, 'play-3-promotion-picker');
  await page.click('.promotion-choice[data-role="r"]');

  await page.waitForSelector('#game-status.over');
  await page.waitForSelector('#game-over:not([hidden])');
  assert.match(await page.textContent('#game-over'), /Checkmate/);
  const status = await page.textContent('#game-status');
  assert.match(status, /Checkmate/);
  assert.match(status, /White wins/);
  assert.deepEqual(await moveListSan(page), ['e8=R#']);
  game = await serverGame(id);
  assert.equal(game.status, 'checkmate');
  assert.equal(game.result, '1-0');
  assert.deepEqual(game.moves, ['e7e8r']);
  await shot(page, 'play-4-checkmate');

  const pgn = await (await fetch(new URL(`api/v1/games/${id}/pgn`, process.env.OUTPOST_URL))).text();
  assert.match(pgn, /e8=R#/);
  assert.match(pgn, /1-0/);
  assert.deepEqual(errors, []);
});

test('a game can start from a pasted PGN', async () => {
  const { page, errors } = browser;
  const pgn = '[Event "Casual"]\n[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O *';
  const id = await newGame(page, { side: 'black', level: '1', start: pgn });
  // Seven moves from the PGN; then Black (the person) is to move, so the engine waits.
  await waitForMoves(page, 7);
  const game = await serverGame(id);
  assert.deepEqual(game.moves.slice(0, 7), ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'e1g1']);
  assert.equal(game.turn, 'black');
  assert.deepEqual((await moveListSan(page)).slice(0, 7), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'O-O']);
  assert.ok((await page.getAttribute('#board', 'class')).includes('orientation-black'), 'Black plays from the bottom');
  await shot(page, 'play-5-from-pgn');

  // Download the PGN, copy the FEN, then resign (two clicks: the first only arms the button).
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  const file = await download.path();
  const text = (await import('node:fs')).readFileSync(file, 'utf8');
  assert.match(text, /O-O/);
  await page.click('#btn-copy-fen');
  await page.waitForSelector('#toast.visible');
  await page.click('#btn-resign');
  assert.equal((await serverGame(id)).status, 'ongoing', 'one click does not resign');
  await page.click('#btn-resign');
  await page.waitForSelector('#game-over:not([hidden])');
  assert.match(await page.textContent('#game-status'), /Black resigned — White wins/);
  assert.equal((await serverGame(id)).status, 'resigned');
  await shot(page, 'play-6-resigned');
  assert.deepEqual(errors, []);
});

test('flipping the board while the promotion picker is open cancels the promotion', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1', start: START_FEN });
  await page.waitForSelector('#game-status:has-text("Your move")');
  await clickMove(page, 'e7', 'e8');
  await page.waitForSelector('.promotion-choice[data-role="q"]');
  // The board flipped under it (a click that takes no focus: a click on Flip that does cancels
  // the picker first, and F is the picker's while it is open): the picker goes, and the pawn goes back.
  await page.locator('#btn-flip').dispatchEvent('click');
  await page.waitForSelector('#board.orientation-black');
  assert.equal(await page.locator('.promotion').count(), 0, 'no picker is left');
  assert.equal(await page.evaluate(() => window.outpost.snapshot().placement), START_FEN.split(' ')[0]);
  // N (a knight in the picker) now promotes nothing: the next move played is the king's.
  await page.keyboard.press('n');
  await clickMove(page, 'b6', 'c6');
  await waitForMoves(page, 2);
  assert.equal((await serverGame(id)).moves[0], 'b6c6');
  assert.deepEqual(errors, []);
});
