// The analysis board's engine lines belong to the position on screen: switching lines (a
// variation, a move back, a line deleted) never leaves the lines, arrows or "play this line" of
// another position, running or stopped, and a server restart under the page resumes the search.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { moveListSan, openBrowser, shot, viewPly, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

/** A fresh analysis board of the initial position with `moves` typed in (analysis running). */
async function openBoard(page, moves) {
  await page.goto(process.env.OUTPOST_URL);
  await page.click('#new-game-cancel');
  await page.click('#btn-analysis');
  await page.waitForSelector('#analysis-card:not([hidden])');
  for (const move of moves) {
    await page.fill('#move-input', move);
    await page.press('#move-input', 'Enter');
  }
  await waitForMoves(page, moves.length);
}

const linesShown = (page) => page.locator('#analysis-lines .line-pv').allTextContents();

/** Waits until the analysis shows at least one line with moves in it. */
async function waitForLines(page) {
  await page.waitForFunction(
    () => {
      const pvs = [...document.querySelectorAll('#analysis-lines .line-pv')];
      return pvs.length > 0 && pvs.every((e) => e.textContent.trim().length > 0);
    },
    null,
    { timeout: 20000 },
  );
}

test('a stopped analysis leaves no lines of another line behind when a variation comes on screen', async () => {
  const { page, errors } = browser;
  await openBoard(page, ['e4', 'e5', 'Nf3']);
  await viewPly(page, 2);
  await page.fill('#move-input', 'Bc4');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#move-list .move.current[data-ply="3"]');
  await waitForLines(page);
  await page.click('#btn-stop');
  await page.waitForSelector('#analysis-card[data-running="false"]');
  const atBc4 = await linesShown(page);
  assert.ok(atBc4.length > 0 && atBc4.every((line) => line.startsWith('2…')), atBc4.join(' | '));

  // The other line, 2. Nf3: Black to move in another position. The lines of 2. Bc4 (which the
  // stopped card kept, and whose first move a click would have played here) are gone, as are
  // their arrows; the final report of the stopped search, arriving late, does not bring them back.
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3"]');
  await page.waitForSelector('#move-list .move.current[data-ply="3"]');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3']);
  await page.waitForTimeout(800);
  assert.deepEqual(await linesShown(page), []);
  assert.equal(await page.locator('#board svg.cg-shapes g[cgHash]').count(), 0, 'no arrows left');
  assert.equal(await page.textContent('#analysis-summary'), 'Analysis stopped');

  // Analyse: the lines of this position, 2. Nf3.
  await page.click('#btn-analyse');
  await waitForLines(page);
  await page.click('#btn-stop');
  await page.waitForSelector('#analysis-card[data-running="false"]');
  const board = await page.evaluate(() => window.outpost.snapshot().game.fen);
  assert.match(board, / b /);
  await shot(page, 'analysis-lines-1-switched');

  // A move back while stopped: no lines either (they were the later position's).
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#move-list .move.current[data-ply="2"]');
  await page.waitForTimeout(300);
  assert.deepEqual(await linesShown(page), []);
  assert.deepEqual(errors, []);
});

test('deleting the line the engine is analysing: the search moves to the position before it, no line of the deleted one stays', async () => {
  const { page, errors } = browser;
  await openBoard(page, ['e4', 'e5', 'Nf3', 'Nc6']);
  await viewPly(page, 2);
  await page.fill('#move-input', 'Bc4');
  await page.press('#move-input', 'Enter');
  // Back on 2. Nf3 Nc6, analysing the position after 2... Nc6 (White to move: "3. …").
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3 b8c6"]');
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  await waitForLines(page);
  assert.ok((await linesShown(page)).every((line) => line.startsWith('3.')));

  // Delete from 2. Nf3 (its menu): the line on screen goes; 1... e5 comes on screen, with 2. Bc4.
  await page.click('#move-list .move[data-ply="3"]', { button: 'right' });
  await page.click('.line-menu-item[data-action="delete"]');
  await page.waitForSelector('#move-list .move.current[data-ply="2"]');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Bc4']);
  // Every line shown from now on is White's second move ("2. …"), never 3. … of the deleted line.
  const seen = [];
  for (let i = 0; i < 20; i++) {
    seen.push(...(await linesShown(page)).filter((line) => line.trim()));
    await page.waitForTimeout(100);
  }
  await waitForLines(page);
  seen.push(...(await linesShown(page)));
  assert.ok(seen.length > 0 && seen.every((line) => line.startsWith('2.')), seen.join(' | '));
  assert.equal(await page.getAttribute('#analysis-card', 'data-running'), 'true');
  await page.click('#btn-stop');
  assert.deepEqual(errors, []);
});
