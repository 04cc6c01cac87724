// The page by keyboard alone: the move list keeps the focus as it is drawn anew; a game ended by
// a typed mate or a resignation puts the focus on the game-over card, and Escape closes it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newGame, openBrowser, shot, waitForMoves, waitForStatus } from './helpers.mjs';

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

/** The focused element: its id (or its text when it has none), and whether it is in the card. */
const focusedControl = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return { id: a?.id || a?.textContent?.trim() || a?.tagName, inCard: !!a?.closest('#game-over') };
  });

test('a game ended from the keyboard puts the focus on the game-over card; Escape closes it', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // Mate in one: the rook to a8.
  await newGame(page, { side: 'white', start: '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1' });
  await page.focus('#move-input');
  await page.keyboard.type('Ra8');
  await page.keyboard.press('Enter');
  await waitForStatus(page, /Checkmate/);
  await page.waitForSelector('#game-over:not([hidden])');
  // The move box turned off under the focus: it fell to the page's start, and Tab went on to the
  // controls under the board, past the card's buttons (before the move box in the page).
  await page.waitForFunction(() => !!document.activeElement?.closest('#game-over'));
  assert.deepEqual(await focusedControl(page), { id: 'game-over-rematch', inCard: true });
  await page.keyboard.press('Tab');
  assert.deepEqual(await focusedControl(page), { id: 'game-over-new', inCard: true });
  await shot(page, 'keyboard-2-game-over-focus');
  // Escape closes the card; the focus goes to the move on screen, where ←/→ browse the game.
  await page.keyboard.press('Escape');
  await page.waitForSelector('#game-over', { state: 'hidden' });
  assert.deepEqual(await focusedControl(page), { id: 'Ra8#', inCard: false });

  // Resign by keyboard (Enter twice: it asks for a second press): the same.
  await newGame(page, { side: 'white', level: '1' });
  await page.focus('#btn-resign');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await waitForStatus(page, /resign/i);
  await page.waitForFunction(() => !!document.activeElement?.closest('#game-over'));
  assert.deepEqual(await focusedControl(page), { id: 'game-over-rematch', inCard: true });
  // Its ✕, by keyboard, does as Escape does.
  await page.focus('#game-over-close');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#game-over', { state: 'hidden' });
  assert.equal((await focusedControl(page)).inCard, false);
  assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'BODY');
  assert.deepEqual(errors, []);
});
