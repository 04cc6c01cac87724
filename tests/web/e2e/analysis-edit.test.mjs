// Editing the analysis board's lines as on Lichess's or ChessBase's boards: make the line on
// screen the main line, move a variation up one, delete a move and all after it, and ↑/↓ between
// the moves tried at a position: by the buttons under the move list, a move's menu (right click,
// Shift+F10) and keys. The PGN export and the board kept in the tab follow the new order.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { moveListSan, openBrowser, shot, viewPly, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

async function openBoard(page) {
  await page.goto(process.env.OUTPOST_URL);
  await page.click('#new-game-cancel');
  await page.click('#btn-analysis');
  await page.waitForSelector('#analysis-card:not([hidden])');
  await page.click('#btn-stop');
}

async function type(page, moves) {
  for (const move of moves) {
    await page.fill('#move-input', move);
    await page.press('#move-input', 'Enter');
  }
}

async function downloadPgn(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  const pgn = fs.readFileSync(await download.path(), 'utf8');
  return pgn.slice(pgn.indexOf('\n\n') + 2).trim();
}

const shownPly = (page) => page.evaluate(() => window.outpost.snapshot().viewPly);
const lineKind = (page) => page.textContent('#line-kind');

/** Waits until the PGN movetext is `expected` (the edits are synchronous, the download is not). */
async function expectPgn(page, expected, what) {
  assert.equal(await downloadPgn(page), expected, what);
}

test('make main line, move up, delete from here: buttons, the menu and keys; the PGN and a reload follow', async () => {
  const { page, errors } = browser;
  await openBoard(page);
  await type(page, ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5']);
  await waitForMoves(page, 5);
  assert.equal(await lineKind(page), 'Main line');
  assert.ok(await page.isDisabled('#btn-line-main'));
  assert.ok(await page.isDisabled('#btn-line-up'));
  // 2. Bc4, then 2. d4: the variations of 2. Nf3, in the order tried.
  for (const move of ['Bc4', 'd4']) {
    await viewPly(page, 2);
    await type(page, [move]);
    await page.waitForSelector('#move-list .move.current[data-ply="3"]');
  }
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'd4']);
  assert.equal(await lineKind(page), 'Variation');
  await expectPgn(page, '1. e4 e5 2. Nf3 (2. Bc4) (2. d4) 2... Nc6 3. Bb5 *');

  // ↑ Up: 2. d4 before 2. Bc4; ★ Main line: 2. d4 the main line. The line on screen stays.
  await page.click('#btn-line-up');
  await expectPgn(page, '1. e4 e5 2. Nf3 (2. d4) (2. Bc4) 2... Nc6 3. Bb5 *', 'moved up');
  await page.click('#btn-line-main');
  await expectPgn(page, '1. e4 e5 2. d4 (2. Nf3 Nc6 3. Bb5) (2. Bc4) *', 'main line');
  assert.equal(await lineKind(page), 'Main line');
  assert.ok(await page.isDisabled('#btn-line-up'));
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'd4']);
  assert.equal(await shownPly(page), 3);
  await shot(page, 'analysis-edit-1-main-line');

  // A reload keeps the new order.
  await page.reload();
  await waitForMoves(page, 3);
  await page.click('#btn-stop');
  await expectPgn(page, '1. e4 e5 2. d4 (2. Nf3 Nc6 3. Bb5) (2. Bc4) *', 'after a reload');

  // ↓/↑: the next and previous move tried in place of 2. d4, shown from the same point.
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.outpost.snapshot().game.moves.join(' ') === 'e2e4 e7e5 g1f3 b8c6 f1b5');
  assert.equal(await shownPly(page), 3);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.outpost.snapshot().game.moves.join(' ') === 'e2e4 e7e5 f1c4');
  await page.keyboard.press('ArrowDown'); // the last one: stays
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => window.outpost.snapshot().game.moves.join(' ') === 'e2e4 e7e5 d2d4');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the arrows did not scroll the page');

  // The menu of a move in a variation (right click): delete 2. Bc4. The line on screen stays.
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 f1c4"]', { button: 'right' });
  await page.waitForSelector('.line-menu');
  assert.ok(await page.isDisabled('.line-menu-item[data-action="main"]') === false);
  await shot(page, 'analysis-edit-2-menu');
  await page.click('.line-menu-item[data-action="delete"]');
  assert.equal(await page.locator('.line-menu').count(), 0, 'the menu closed');
  await expectPgn(page, '1. e4 e5 2. d4 (2. Nf3 Nc6 3. Bb5) *', 'Bc4 deleted');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'd4']);
  assert.equal(await shownPly(page), 3);

  // Escape closes a menu without doing anything.
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3"]', { button: 'right' });
  await page.waitForSelector('.line-menu');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.line-menu').count(), 0);

  // Delete (the key) on 2... Nc6 of the other line: it and 3. Bb5 go, 2. Nf3 is on screen.
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3 b8c6"]');
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  await page.keyboard.press('Delete');
  await page.waitForSelector('#move-list .move.current[data-ply="3"]');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3']);
  assert.match(await page.textContent('#toast'), /Deleted 2… Nc6 and 1 move after it/);
  await expectPgn(page, '1. e4 e5 2. d4 (2. Nf3) *', 'Nc6 deleted');

  // Shift+↑ moves 2. Nf3 up (the main line again); Shift+M on 2. d4 makes it the main line back.
  await page.keyboard.press('Shift+ArrowUp');
  await expectPgn(page, '1. e4 e5 2. Nf3 (2. d4) *', 'Shift+↑');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.outpost.snapshot().game.moves.join(' ') === 'e2e4 e7e5 d2d4');
  await page.keyboard.press('Shift+M');
  await expectPgn(page, '1. e4 e5 2. d4 (2. Nf3) *', 'Shift+M');

  // By keyboard alone: Shift+F10 on a focused move of the list opens its menu, ↓ and Enter pick.
  await page.locator('#move-list .variation-move[data-line="e2e4 e7e5 g1f3"]').focus();
  await page.keyboard.press('Shift+F10');
  await page.waitForSelector('.line-menu');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.action), 'main');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.action), 'delete');
  await page.keyboard.press('Enter');
  await expectPgn(page, '1. e4 e5 2. d4 *', 'deleted by the keyboard menu');

  // Delete from here on the first move: nothing left but the start position, kept so.
  await viewPly(page, 1);
  await page.click('#btn-line-delete');
  await page.waitForFunction(() => window.outpost.snapshot().game.moves.length === 0);
  await expectPgn(page, '*', 'all deleted');
  assert.ok(await page.isDisabled('#btn-line-delete'));
  await page.reload();
  await page.waitForSelector('#line-tools:not([hidden])');
  await page.click('#btn-stop');
  await expectPgn(page, '*', 'all deleted, after a reload');
  assert.deepEqual(errors, []);
});

test('two tabs of one analysis board (a duplicated tab) keep a copy each: edits in one never undo the other', async () => {
  const { page, context, errors } = browser;
  await openBoard(page);
  await type(page, ['e4', 'e5', 'Nf3']);
  await waitForMoves(page, 3);
  await viewPly(page, 2);
  await type(page, ['Bc4']);
  await page.waitForSelector('#move-list .move.current[data-ply="3"]');
  // A second tab of the same address, opened from this one (as a duplicated tab): a copy of the tab's boards.
  const [other] = await Promise.all([context.waitForEvent('page'), page.evaluate(() => window.open(location.href))]);
  await other.waitForFunction(() => document.body.dataset.mode === 'analysis' && document.querySelectorAll('#move-list .move').length === 3);
  await other.click('#btn-stop');
  assert.equal(await downloadPgn(other), '1. e4 e5 2. Nf3 (2. Bc4) *');

  // The second tab deletes 2. Nf3; the first makes 2. Bc4 the main line and adds 2. d4.
  await other.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3"]', { button: 'right' });
  await other.click('.line-menu-item[data-action="delete"]');
  await page.click('#btn-line-main');
  await viewPly(page, 2);
  await type(page, ['d4']);
  await page.waitForSelector('#move-list .move.current[data-ply="3"]');
  // Each tab, reloaded, has its own board as it left it: nothing of either is lost.
  await other.reload();
  await other.waitForFunction(() => document.body.dataset.mode === 'analysis');
  await other.click('#btn-stop');
  assert.equal(await downloadPgn(other), '1. e4 e5 2. Bc4 *');
  await page.reload();
  await waitForMoves(page, 3);
  await page.click('#btn-stop');
  assert.equal(await downloadPgn(page), '1. e4 e5 2. Bc4 (2. Nf3) (2. d4) *');
  await other.close();
  assert.deepEqual(errors, []);
});

test('a line edit is undone by Ctrl+Z, Cmd+Z or ↶ Undo: the lines, the position on screen, the PGN and the kept board come back', async () => {
  const { page, errors } = browser;
  await openBoard(page);
  assert.ok(await page.isDisabled('#btn-line-undo'), 'nothing to undo yet');
  await type(page, ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6']);
  await waitForMoves(page, 6);
  await viewPly(page, 2);
  await type(page, ['Bc4', 'Nf6']);
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  const all = '1. e4 e5 2. Nf3 (2. Bc4 Nf6) 2... Nc6 3. Bb5 a6 *';
  await expectPgn(page, all, 'two lines');

  // Delete (the key) on 2. Bc4, on screen: 2. Nf3's line comes on screen. Ctrl+Z brings 2. Bc4 back, on screen as it was.
  await viewPly(page, 3);
  await page.keyboard.press('Delete');
  await page.waitForSelector('#move-list .move.current[data-ply="2"]');
  await expectPgn(page, '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *', 'Bc4 deleted');
  assert.match(await page.textContent('#toast'), /Undo/);
  assert.ok(!(await page.isDisabled('#btn-line-undo')));
  assert.match(await page.getAttribute('#btn-line-undo', 'title'), /delete 2\. Bc4/);
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => window.outpost.snapshot().game.moves.join(' ') === 'e2e4 e7e5 f1c4 g8f6');
  assert.equal(await shownPly(page), 3, 'the position on screen before the delete');
  assert.match(await page.textContent('#toast'), /Undone: delete 2\. Bc4/);
  await expectPgn(page, all, 'undone');
  assert.ok(await page.isDisabled('#btn-line-undo'), 'nothing more to undo');

  // The menu's delete of the other line, then ★ Main line: ↶ Undo twice takes both back, latest first.
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3 b8c6 f1b5"]', { button: 'right' });
  await page.click('.line-menu-item[data-action="delete"]');
  await expectPgn(page, '1. e4 e5 2. Nf3 (2. Bc4 Nf6) 2... Nc6 *', 'Bb5 deleted by the menu');
  await page.click('#btn-line-main');
  await expectPgn(page, '1. e4 e5 2. Bc4 (2. Nf3 Nc6) 2... Nf6 *', 'main line');
  await page.click('#btn-line-undo');
  await expectPgn(page, '1. e4 e5 2. Nf3 (2. Bc4 Nf6) 2... Nc6 *', 'main line undone');
  await page.keyboard.press('Meta+z');
  await expectPgn(page, all, 'the menu delete undone (Cmd+Z)');

  // The kept board follows: a reload brings back the lines as undone.
  await page.reload();
  await page.waitForSelector('#line-tools:not([hidden])');
  await page.click('#btn-stop');
  await expectPgn(page, all, 'after a reload');

  // Shift+↑ then a new move: the edit can no longer be undone (it would lose that move).
  await page.keyboard.press('Shift+ArrowUp');
  await expectPgn(page, '1. e4 e5 2. Bc4 (2. Nf3 Nc6 3. Bb5 a6) 2... Nf6 *', 'Shift+↑');
  assert.ok(!(await page.isDisabled('#btn-line-undo')));
  await page.keyboard.press('End');
  await type(page, ['Nc3']);
  await page.waitForSelector('#move-list .move.current[data-ply="5"]');
  assert.ok(await page.isDisabled('#btn-line-undo'), 'a move tried since: nothing to undo');
  await page.keyboard.press('Control+z');
  await expectPgn(page, '1. e4 e5 2. Bc4 (2. Nf3 Nc6 3. Bb5 a6) 2... Nf6 3. Nc3 *', 'Ctrl+Z did nothing');
  // Ctrl+Z in the move box is the box's own.
  await page.fill('#move-input', 'Nf3');
  await page.press('#move-input', 'Control+z');
  await expectPgn(page, '1. e4 e5 2. Bc4 (2. Nf3 Nc6 3. Bb5 a6) 2... Nf6 3. Nc3 *', 'the move box');
  await shot(page, 'analysis-edit-undo');
  assert.deepEqual(errors, []);
});
