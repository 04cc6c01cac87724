// Moves made on the board the way players make them on chess sites.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, dragMove, newGame, openBrowser, serverGame, shot, waitForAtLeastMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

const CASTLING_FEN = 'r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1';

test('the king dropped or clicked onto its own rook castles', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // Against the engine: the king dragged onto the h1 rook castles short (the server's e1g1).
  const id = await newGame(page, { side: 'white', level: '1', start: CASTLING_FEN });
  await dragMove(page, 'e1', 'h1');
  await waitForAtLeastMoves(page, 1, 10000);
  assert.equal((await serverGame(id)).moves[0], 'e1g1');
  await shot(page, 'board-moves-1-castled-by-drag');

  // On an analysis board turned to Black: the king clicked, then the a8 rook clicked, castles long.
  await page.click('#btn-new');
  await page.fill('#new-game textarea[name=start]', CASTLING_FEN.replace(' w ', ' b '));
  await page.click('#new-game-analyse');
  await page.waitForSelector('#analysis-card:not([hidden])');
  await page.click('#btn-stop');
  await page.click('#btn-flip');
  await clickMove(page, 'e8', 'a8');
  await page.waitForFunction(() => window.outpost.snapshot().game?.moves.length === 1);
  const game = await page.evaluate(() => window.outpost.snapshot().game);
  assert.deepEqual(game.moves, ['e8c8']);
  assert.deepEqual(game.san, ['O-O-O']);
  const placement = await page.evaluate(() => window.outpost.snapshot().placement);
  assert.match(placement, /^2kr3r\//, 'the king on c8 and the rook on d8');
  await shot(page, 'board-moves-2-castled-by-click');
  assert.deepEqual(errors, []);
});

test('an under-promotion by drag as Black ends the game, its result whole on one line', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // Black to move (the board turned to Black): b2xa1 promoting to a knight leaves king and knight
  // against a king, a draw by insufficient material.
  const id = await newGame(page, { side: 'black', level: '1', start: '4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1' });
  await dragMove(page, 'b2', 'a1');
  await page.click('.promotion-choice[data-role="n"]');
  await page.waitForSelector('.game-status.over');
  const game = await serverGame(id);
  assert.deepEqual(game.moves, ['b2a1n']);
  assert.equal(game.result, '1/2-1/2');
  // "1/2-1/2" beside "Draw by insufficient material" was broken after its hyphen over two lines.
  const result = await page.evaluate(() => {
    const element = document.querySelector('#game-status .result');
    const range = document.createRange();
    range.selectNodeContents(element);
    return { text: element.textContent, lines: range.getClientRects().length };
  });
  assert.deepEqual(result, { text: '1/2-1/2', lines: 1 });
  await shot(page, 'board-moves-3-underpromotion-draw');
  assert.deepEqual(errors, []);
});

test('a promotion picker left open while the game moved on in another tab goes away', async () => {
  const { page, context, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1', start: '4k3/1P6/8/8/8/8/8/4K3 w - - 0 1' });
  // The same game in a second tab of this browser (the same player).
  const second = await context.newPage();
  try {
    await second.goto(page.url());
    await second.waitForFunction((gameId) => window.outpost.snapshot().game?.id === gameId, id);
    await clickMove(second, 'b7', 'b8');
    await second.waitForSelector('.promotion');
    // Meanwhile the first tab plays a king move, and the engine answers.
    await clickMove(page, 'e1', 'd2');
    await waitForAtLeastMoves(second, 2);
    // The picker was for a position that is gone: it closes (it stayed, and a click on it
    // promoted in a position the player had not seen).
    await second.waitForSelector('.promotion', { state: 'detached', timeout: 5000 });
    await shot(second, 'board-moves-4-stale-promotion-closed');
    const game = await serverGame(id);
    assert.equal(game.moves.length, 2);
    assert.equal(game.moves[0], 'e1d2');
    // The board shows the pawn on b7 still, and it can promote from here.
    assert.match(await second.evaluate(() => window.outpost.snapshot().placement), /^[^/]*\/1P/);
    await clickMove(second, 'b7', 'b8');
    await second.click('.promotion-choice[data-role="r"]');
    await waitForAtLeastMoves(second, 3);
    assert.equal((await serverGame(id)).moves[2], 'b7b8r');
  } finally {
    await second.close();
  }
  assert.deepEqual(errors, []);
});

test('a move held for Confirm is shown in SAN, and dropped when the game moved on in another tab', async () => {
  const { page, context, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1' });
  // The second tab has "Confirm moves" on (the option is read when a page opens).
  await page.evaluate(() => localStorage.setItem('outpost.confirmMoves', '1'));
  const second = await context.newPage();
  try {
    await second.goto(page.url());
    await second.waitForFunction((gameId) => window.outpost.snapshot().game?.id === gameId, id);
    assert.equal(await second.isChecked('#confirm-moves'), true);
    await dragMove(second, 'e2', 'e4');
    await second.waitForSelector('#confirm-bar:not([hidden])');
    assert.match(await second.textContent('#confirm-bar'), /Play e4\?/, 'the move in SAN (it said "Play e2e4?")');

    // Meanwhile the first tab plays 1. d4 and the engine answers.
    await clickMove(page, 'd2', 'd4');
    await waitForAtLeastMoves(second, 2);
    // The held move was for the position before 1. d4: its bar goes, and nothing is sent (it
    // stayed, and Confirm played 2. e4, a move made in a position the player no longer saw).
    await second.waitForSelector('#confirm-bar', { state: 'hidden', timeout: 5000 });
    const game = await serverGame(id);
    assert.equal(game.moves.length, 2);
    assert.equal(game.moves[0], 'd2d4');
    await shot(second, 'board-moves-5-confirm-dropped');

    // A move held and confirmed with nothing in between is played.
    await dragMove(second, 'c2', 'c4');
    await second.waitForSelector('#confirm-bar:not([hidden])');
    await second.click('#confirm-move');
    await waitForAtLeastMoves(second, 3);
    assert.equal((await serverGame(id)).moves[2], 'c2c4');
  } finally {
    await page.evaluate(() => localStorage.removeItem('outpost.confirmMoves'));
    await second.close();
  }
  assert.deepEqual(errors, []);
});
