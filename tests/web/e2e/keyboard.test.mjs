// The page by keyboard alone: the move list keeps the focus as it is drawn anew.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openBrowser, shot, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

/** The focused element: its tag, the ply of a move button, and whether it is the current move. */
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return { tag: a?.tagName ?? null, ply: a?.dataset?.ply ?? null, current: !!a?.classList.contains('current') };
  });

test('a move chosen in the move list by keyboard keeps the focus, and ←/→ move it along', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForSelector('#new-game[open]');
  await page.click('#new-game-cancel');
  await page.click('#btn-analysis');
  await page.waitForSelector('#analysis-card:not([hidden])');
  await page.click('#btn-stop');
  for (const move of ['e4', 'e5', 'Nf3', 'Nc6']) {
    await page.fill('#move-input', move);
    await page.press('#move-input', 'Enter');
  }
  await waitForMoves(page, 4);

  // Enter on 1… e5: that position is shown and the focus stays on e5 (the list is drawn anew:
  // it fell back to the page's start, and Tab began again from the top bar).
  await page.locator('#move-list .move[data-ply="2"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#move-list .move.current[data-ply="2"]');
  assert.deepEqual(await focused(page), { tag: 'BUTTON', ply: '2', current: true });
  // ← from there: the position before, the focus with the current move.
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#move-list .move.current[data-ply="1"]');
  assert.deepEqual(await focused(page), { tag: 'BUTTON', ply: '1', current: true });
  // Tab goes on to the next move.
  await page.keyboard.press('Tab');
  assert.deepEqual(await focused(page), { tag: 'BUTTON', ply: '2', current: false });
  await shot(page, 'keyboard-1-move-list-focus');
  assert.deepEqual(errors, []);
});

test("a screen reader hears whose clock each clock is, the right way up or flipped", async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForSelector('#new-game[open]');
  await page.click('#new-game-cancel');
  const labels = () =>
    page.evaluate(() => [
      document.querySelector('#bar-top .clock').getAttribute('aria-label'),
      document.querySelector('#bar-bottom .clock').getAttribute('aria-label'),
    ]);
  assert.deepEqual(await labels(), ["Black's clock", "White's clock"]);
  await page.click('#btn-flip');
  await page.waitForFunction(() => /Black's clock/.test(document.querySelector('#bar-bottom .clock').getAttribute('aria-label')));
  assert.deepEqual(await labels(), ["White's clock", "Black's clock"]);
  assert.deepEqual(errors, []);
});
