// Analysis mode: two live lines over the WebSocket, the stop button, and free moves for both sides.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { clickMove, viewPly, moveListSan, openBrowser, shot, waitForMoves } from './helpers.mjs';

let browser;

/** A fresh page with an analysis board of the initial position (its analysis starts by itself). */
async function openAnalysisBoard(page) {
  await page.goto(process.env.OUTPOST_URL);
  await page.click('#new-game-cancel');
  await page.click('#btn-analysis');
  await page.waitForSelector('#analysis-card:not([hidden])');
}

before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

test('analysis shows two lines and stops on request', async () => {
  const { page, errors } = browser;
  await openAnalysisBoard(page);
  await page.selectOption('#multipv', '2');

  // Both sides move on the analysis board.
  await clickMove(page, 'e2', 'e4');
  await waitForMoves(page, 1);
  await clickMove(page, 'e7', 'e5');
  await waitForMoves(page, 2);

  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines .line').length === 2, null, {
    timeout: 20000,
  });
  await page.waitForFunction(
    () => [...document.querySelectorAll('#analysis-lines .line-pv')].every((e) => e.textContent.trim().length > 0),
    null,
    { timeout: 20000 },
  );
  assert.equal(await page.getAttribute('#analysis-card', 'data-running'), 'true');
  await shot(page, 'analysis-1-two-lines');

  await page.click('#btn-stop');
  await page.waitForSelector('#analysis-card[data-running="false"]');
  assert.ok(await page.isDisabled('#btn-stop'));
  const lines = await page.locator('#analysis-lines .line').count();
  assert.equal(lines, 2);
  // The technique switches are listed; switching one starts a new analysis.
  await page.click('#techniques summary');
  assert.ok((await page.locator('#technique-list input[name="nullMove"]').count()) === 1);
  await shot(page, 'analysis-2-stopped');
  await page.locator('#technique-list input[name="nullMove"]').uncheck({ force: true });
  await page.waitForSelector('#analysis-card[data-running="true"]');
  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines .line').length === 2, null, {
    timeout: 20000,
  });
  await page.click('#btn-stop');
  await page.waitForSelector('#analysis-card[data-running="false"]');
  await shot(page, 'analysis-3-techniques');

  // Clicking a line plays its first move.
  await page.click('#analysis-lines .line[data-multipv="1"] button');
  await waitForMoves(page, 3);

  // Back to the first move and a different reply: a variation of the board kept in the page
  // (no stored game: the address names none).
  await viewPly(page, 1);
  await clickMove(page, 'd7', 'd5');
  await waitForMoves(page, 2);
  assert.deepEqual(await moveListSan(page), ['e4', 'd5']);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('game')), null);
  assert.deepEqual(errors, []);
});

test('the new-game dialog opens an analysis board from a pasted FEN', async () => {
  const { page, errors } = browser;
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  await page.click('#btn-new');
  await page.fill('#new-game textarea[name=start]', fen);
  await page.click('#new-game-analyse');
  await page.waitForSelector('#analysis-card:not([hidden])');
  await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, fen);
  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines .line').length >= 1, null, {
    timeout: 20000,
  });
  await page.click('#btn-stop');
  await shot(page, 'analysis-4-from-fen');
  assert.deepEqual(errors, []);
});

test('clicks land on the right squares after the board moved on the page', async () => {
  const { page, errors } = browser;
  await openAnalysisBoard(page);
  // Push the board one square down without scrolling or resizing it, as a panel growing above it
  // would: chessground is told of scrolls and resizes only, so the page must measure afresh.
  await page.evaluate(() => {
    const row = document.querySelector('.board-row');
    const spacer = document.createElement('div');
    spacer.id = 'test-spacer';
    spacer.style.height = `${document.querySelector('cg-board').getBoundingClientRect().height / 8}px`;
    row.parentElement.insertBefore(spacer, row);
  });
  await clickMove(page, 'e2', 'e4');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the board fits without scrolling');
  await waitForMoves(page, 1, 5000);
  assert.deepEqual(await moveListSan(page), ['e4']);
  await page.evaluate(() => document.getElementById('test-spacer').remove());
  await page.click('#btn-stop');
  assert.deepEqual(errors, []);
});

test('forty alternatives on the analysis board: no stored game, no 429, all in the PGN', async () => {
  const { page, errors } = browser;
  await openAnalysisBoard(page);
  await page.click('#btn-stop');
  const created = [];
  const refused = [];
  const onRequest = (request) => {
    if (request.method() === 'POST' && /\/api\/v1\/games\/?$/.test(new URL(request.url()).pathname)) created.push(request.url());
  };
  const onResponse = (response) => {
    if (response.status() === 429) refused.push(response.url());
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  const started = Date.now();
  await clickMove(page, 'e2', 'e4');
  await waitForMoves(page, 1);
  await clickMove(page, 'e7', 'e5');
  await waitForMoves(page, 2);
  // White's alternatives on move 2, then Black's on move 1: 40 lines tried.
  const white = ['a2a3', 'a2a4', 'b2b3', 'b2b4', 'c2c3', 'c2c4', 'd2d3', 'd2d4', 'f2f3', 'f2f4', 'g2g3', 'g2g4',
    'h2h3', 'h2h4', 'b1a3', 'b1c3', 'g1e2', 'g1h3', 'g1f3', 'f1c4', 'f1b5'];
  const black = ['a7a6', 'a7a5', 'b7b6', 'b7b5', 'c7c6', 'c7c5', 'd7d6', 'd7d5', 'f7f6', 'f7f5', 'g7g6', 'g7g5',
    'h7h6', 'h7h5', 'b8a6', 'b8c6', 'g8f6', 'g8h6', 'e7e6'];
  for (const [ply, moves] of [[2, white], [1, black]]) {
    for (const uci of moves) {
      await viewPly(page, ply);
      await clickMove(page, uci.slice(0, 2), uci.slice(2, 4));
      await waitForMoves(page, ply + 1);
    }
  }
  assert.ok(Date.now() - started < 60000, 'forty alternatives within a minute');
  assert.deepEqual(created, [], 'no game was stored');
  assert.deepEqual(refused, [], 'nothing was refused');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  const pgn = fs.readFileSync(await download.path(), 'utf8');
  // Every line tried is in it: the main line, and each alternative as a variation.
  assert.match(pgn, /^1\. e4 e5 \(1\.\.\. a6\) \(1\.\.\. a5\)/m);
  assert.match(pgn, /2\. a3 \(2\. a4\) \(2\. b3\)/);
  const variations = pgn.match(/\(/g) ?? [];
  assert.equal(variations.length, white.length - 1 + black.length);
  for (const san of ['2. Nf3', '2. Bb5', '1... Nf6', '1... e6', '1... h5']) assert.ok(pgn.includes(san), `${san} in the PGN`);
  page.off('request', onRequest);
  page.off('response', onResponse);
  await shot(page, 'analysis-5-forty-lines');
  assert.deepEqual(errors, []);
});

test('the lines tried show as variations in the move list, each one reachable', async () => {
  const { page, errors } = browser;
  await openAnalysisBoard(page);
  await page.click('#btn-stop');
  const moves = [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6'], ['f1', 'b5']];
  for (const [i, [from, to]] of moves.entries()) {
    await clickMove(page, from, to);
    await waitForMoves(page, i + 1);
  }
  const variations = () => page.locator('#move-list .move-variations .variation').allTextContents();
  const current = () => page.evaluate(() => window.outpost.snapshot().viewPly);

  // 2. Bc4 instead of 2. Nf3: the line on screen, and the line left a variation after it.
  await viewPly(page, 2);
  await clickMove(page, 'f1', 'c4');
  await waitForMoves(page, 3);
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Bc4']);
  assert.deepEqual(await variations(), ['(2. Nf3 Nc6 3. Bb5)']);
  await shot(page, 'analysis-6-variation');

  // A move of the variation shows that line from there; the arrow keys follow that line.
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3 b8c6"]');
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5']);
  assert.deepEqual(await variations(), ['(2. Bc4)']);
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#move-list .move.current[data-ply="5"]');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#move-list .move.current[data-ply="3"]');
  assert.match(await page.textContent('#move-list .move.current'), /Nf3/);

  // A move typed in the move box from the position on screen is a variation from there too.
  await page.fill('#move-input', 'Nf6');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3', 'Nf6']);
  assert.equal(await current(), 4);
  assert.equal(await page.inputValue('#move-input'), '');
  assert.deepEqual(await variations(), ['(2. Bc4)', '(2... Nc6 3. Bb5)']);

  // Every line is in the PGN, as the move list shows them.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  const pgn = fs.readFileSync(await download.path(), 'utf8');
  assert.match(pgn, /1\. e4 e5 2\. Nf3 \(2\. Bc4\) 2\.\.\. Nc6 \(2\.\.\. Nf6\) 3\. Bb5 \*/);
  assert.deepEqual(errors, []);
});

test('moves typed on the analysis board are read as in a game: d2-d4, nf6, o-o, b8Q, e1h1', async () => {
  const { page, errors } = browser;
  await openAnalysisBoard(page);
  await page.click('#btn-stop');
  const type = async (move) => {
    await page.fill('#move-input', move);
    await page.press('#move-input', 'Enter');
  };
  // Spellings the server takes in a game, and the board refused ("… is not legal here").
  for (const move of ['d2-d4', 'nf6', 'c4', 'e6', 'nc3', 'Bb4', 'e3', 'o-o']) await type(move);
  await waitForMoves(page, 8);
  assert.deepEqual(await moveListSan(page), ['d4', 'Nf6', 'c4', 'e6', 'Nc3', 'Bb4', 'e3', 'O-O']);

  // A promotion without its piece says so; b8Q (no "=") promotes; e1h1 (UCI, the king onto its rook) castles.
  await page.click('#btn-new');
  await page.fill('#new-game textarea[name=start]', '4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1');
  await page.click('#new-game-analyse');
  await page.waitForFunction(() => window.outpost.snapshot().game?.initialFen.startsWith('4k3/1P6/'));
  await page.click('#btn-stop');
  await type('b8');
  await page.waitForFunction(() => /b8 needs a promotion piece/.test(document.querySelector('#toast').textContent));
  assert.equal(await page.inputValue('#move-input'), 'b8', 'the refused move stays to be corrected');
  await type('b8Q');
  await type('Ke7');
  await type('e1h1');
  await waitForMoves(page, 3);
  assert.deepEqual(await moveListSan(page), ['b8=Q+', 'Ke7', 'O-O']);
  assert.deepEqual(await page.evaluate(() => window.outpost.snapshot().game.moves), ['b7b8q', 'e8e7', 'e1g1']);
  await shot(page, 'analysis-8-typed-moves');
  assert.deepEqual(errors, []);
});

test('a pasted PGN keeps its variations on the analysis board, past its comments and NAGs', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForSelector('#new-game[open]');
  const pgn = [
    '[Event "Study"]',
    '',
    '1. e4 {best by test} e5 $1 2. Nf3!? (2. f4 exf4 (2... d5) 3. Nf3) (2. Bc4) Nc6?! 3. Bb5 (3. Bc4 Bc5) a6 *',
  ].join('\n');
  await page.fill('#new-game textarea[name=start]', pgn);
  await page.click('#new-game-analyse');
  await page.waitForSelector('#analysis-card:not([hidden])');
  await page.click('#btn-stop');
  await waitForMoves(page, 6);
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
  // Every variation of the PGN is in the move list (they were dropped: only the main line came).
  const variations = await page.locator('#move-list .move-variations > .variation').allTextContents();
  assert.deepEqual(variations, ['(2. f4 exf4 (2... d5) 3. Nf3)', '(2. Bc4)', '(3. Bc4 Bc5)']);
  await shot(page, 'analysis-9-pgn-variations');
  // A nested one is reachable.
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 f2f4 d7d5"]');
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'f4', 'd5']);
  // And the PGN exported has them all.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  const exported = fs.readFileSync(await download.path(), 'utf8');
  assert.ok(
    exported.includes('1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) (2. Bc4) 2... Nc6 3. Bb5 (3. Bc4 Bc5) 3... a6 *'),
    exported,
  );
  assert.deepEqual(errors, []);
});
