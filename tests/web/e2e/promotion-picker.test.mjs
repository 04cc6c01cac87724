// The promotion picker is a dialog: it takes the focus, Tab and Shift+Tab stay among its four
// pieces while it is open, Escape cancels the move, and once it closes (cancelled or a piece
// chosen) the focus is back where it was before the pawn moved.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, newGame, openBrowser, serverGame, shot, waitForAtLeastMoves } from './helpers.mjs';

// White: Kb6, pawn e7. Black: Ka8, pawn h7 (play.test.mjs): e8=N leaves the game going.
const START_FEN = 'k7/4P2p/1K6/8/8/8/8/8 w - - 0 1';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

/** What has the focus: a piece of the picker (its role), or the element's id. */
const focused = (page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (active?.closest('.promotion')) return `picker:${active.dataset.role ?? active.className}`;
    return active?.id || active?.tagName.toLowerCase();
  });

/** Starts the game, puts the focus on the move box, and moves the pawn to e8. */
async function openPicker(page) {
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1', start: START_FEN });
  await page.waitForSelector('#game-status:has-text("Your move")');
  await page.focus('#move-input');
  await clickMove(page, 'e7', 'e8');
  await page.waitForSelector('.promotion-choice[data-role="q"]');
  return id;
}

test('Tab stays inside the open promotion picker, and Escape gives the focus back', async () => {
  const { page, errors } = browser;
  const id = await openPicker(page);
  // The board's click kept the focus on the move box (chessground takes no focus).
  assert.equal(await focused(page), 'picker:q');
  const seen = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    seen.push(await focused(page));
  }
  // (It went on to the page's controls, the picker left open behind them.)
  assert.deepEqual(seen, ['picker:n', 'picker:r', 'picker:b', 'picker:q', 'picker:n']);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page), 'picker:b');
  await shot(page, 'promotion-picker-1-focus');
  // A dialog to a screen reader, modal: what is outside is out of reach while it is open.
  const dialog = page.locator('.promotion');
  assert.equal(await dialog.getAttribute('role'), 'dialog');
  assert.equal(await dialog.getAttribute('aria-modal'), 'true');
  assert.ok(await dialog.getAttribute('aria-label'));
  await page.keyboard.press('Escape');
  await page.waitForSelector('.promotion', { state: 'detached' });
  // (The focus fell to the page's start.)
  assert.equal(await focused(page), 'move-input');
  assert.equal(await page.evaluate(() => window.outpost.snapshot().placement), START_FEN.split(' ')[0]);
  assert.deepEqual((await serverGame(id)).moves, []);
  assert.deepEqual(errors, []);
});

test('a piece chosen by keyboard in the picker promotes, and the focus goes back', async () => {
  const { page, errors } = browser;
  const id = await openPicker(page);
  await page.keyboard.press('Tab');
  assert.equal(await focused(page), 'picker:n');
  await page.keyboard.press('Enter');
  await waitForAtLeastMoves(page, 1);
  assert.equal((await serverGame(id)).moves[0], 'e7e8n');
  assert.equal(await focused(page), 'move-input');
  assert.deepEqual(errors, []);
});

test('the focus taken elsewhere while the picker is open cancels the promotion', async () => {
  const { page, errors } = browser;
  const id = await openPicker(page);
  // A click in the move box under the board: the focus goes there, and the pawn goes back.
  await page.click('#move-input');
  await page.waitForSelector('.promotion', { state: 'detached' });
  assert.equal(await focused(page), 'move-input');
  assert.equal(await page.evaluate(() => window.outpost.snapshot().placement), START_FEN.split(' ')[0]);
  assert.deepEqual((await serverGame(id)).moves, []);
  assert.deepEqual(errors, []);
});

test('the picker is worked by keyboard: arrows, Home and End go round its pieces, Space chooses, the page’s shortcuts wait', async () => {
  const { page, errors } = browser;
  const id = await openPicker(page);
  // Each piece is a button a screen reader names, with its letter.
  for (const [role, name] of [
    ['q', 'queen'],
    ['n', 'knight'],
    ['r', 'rook'],
    ['b', 'bishop'],
  ]) {
    const button = page.getByRole('button', { name: `Promote to ${name}` });
    assert.equal(await button.count(), 1, name);
    assert.equal(await button.getAttribute('data-role'), role);
    assert.equal(await button.getAttribute('aria-keyshortcuts'), role.toUpperCase());
  }
  assert.equal(await focused(page), 'picker:q');
  // White promotes at the top: the column runs down from the queen.
  const seen = [];
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'End', 'Home', 'ArrowUp', 'ArrowLeft', 'ArrowDown']) {
    await page.keyboard.press(key);
    seen.push(await focused(page));
  }
  assert.deepEqual(seen, ['picker:n', 'picker:r', 'picker:n', 'picker:r', 'picker:n', 'picker:b', 'picker:q', 'picker:b', 'picker:r', 'picker:b']);
  // The page's shortcuts under the dialog do nothing: M (the move box) took the focus away and
  // cancelled the promotion, T asked for a takeback.
  await page.keyboard.press('m');
  await page.keyboard.press('t');
  assert.equal(await page.locator('.promotion').count(), 1, 'the picker is still open');
  assert.equal(await focused(page), 'picker:b');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(page), 'picker:r');
  await page.keyboard.press('Space');
  await waitForAtLeastMoves(page, 1);
  // (e8=R mates: the game-over card takes the focus.)
  assert.equal((await serverGame(id)).moves[0], 'e7e8r');
  assert.deepEqual(errors, []);
});

test('a letter chooses its piece in the picker', async () => {
  const { page, errors } = browser;
  const id = await openPicker(page);
  await page.keyboard.press('b');
  await waitForAtLeastMoves(page, 1);
  assert.equal((await serverGame(id)).moves[0], 'e7e8b');
  assert.deepEqual(errors, []);
});
