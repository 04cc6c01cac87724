// Analysis mode: two live lines over the WebSocket, the stop button, and free moves for both sides.
import assert from 'node:assert/strict';
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

  // Back to the first move and a different reply: a new analysis board with that line.
  const firstId = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
  await viewPly(page, 1);
  await clickMove(page, 'd7', 'd5');
  await page.waitForFunction((id) => new URLSearchParams(location.search).get('game') !== id, firstId);
  await waitForMoves(page, 2);
  assert.deepEqual(await moveListSan(page), ['e4', 'd5']);
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
