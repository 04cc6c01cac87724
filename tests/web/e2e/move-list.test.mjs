// Stepping through a long line (←/→, Home/End, a click on a move) moves the move list's
// current-move mark and shows that position, without drawing the list anew: a 200-ply list drawn
// for every step cost tens of milliseconds of script a key press.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { openBrowser, shot, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

const OPENING = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'd3', 'd6', 'O-O', 'Nf6'];
/** The kings walk back and forth after 5... Nf6: every position differs (the move counters). */
const WALK = ['Kh1', 'Kf8', 'Kg1', 'Ke8'];
const SAN = [...OPENING];
while (SAN.length < 200) SAN.push(WALK[(SAN.length - OPENING.length) % 4]);
const PGN = `${SAN.map((move, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${move}` : move)).join(' ')} *`;

/**
 * The FEN after each ply (0: the start), as the page writes it: with the position's own counters
 * (chessops's toSetup caps the halfmove clock at 150; the page, like the server, does not).
 */
const FENS = (() => {
  const pos = Chess.default();
  const fen = () => `${makeFen(pos.toSetup(), { epd: true })} ${pos.halfmoves} ${pos.fullmoves}`;
  const out = [fen()];
  for (const san of SAN) {
    pos.play(parseSan(pos, san));
    out.push(fen());
  }
  return out;
})();

/** What the page shows: the ply, the marked moves, the FEN, and whether the mark is in view. */
const shown = (page) =>
  page.evaluate(() => {
    const list = document.querySelector('#move-list');
    const marked = [...list.querySelectorAll('.current')].map((b) => b.dataset.ply);
    const ariaCurrent = [...list.querySelectorAll('[aria-current]')].map((b) => b.dataset.ply);
    const current = list.querySelector('.move.current');
    const box = list.getBoundingClientRect();
    const at = current?.getBoundingClientRect();
    const inView = at ? at.top >= box.top - 1 && at.bottom <= box.bottom + 1 : null;
    return {
      ply: window.outpost.snapshot().viewPly,
      marked,
      ariaCurrent,
      fen: document.querySelector('#fen').textContent,
      inView,
      scrollTop: list.scrollTop,
    };
  });

test('a step through a 200-ply line moves the mark and the board, and leaves the list as it is', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForSelector('#new-game[open]');
  await page.fill('#new-game textarea[name=start]', PGN);
  await page.click('#new-game-analyse');
  await waitForMoves(page, 200);
  await page.click('#btn-stop');
  await page.keyboard.press('End');

  // From now on: every change to the list's elements is counted, and its move buttons are kept
  // to see they stay the same ones.
  await page.evaluate(() => {
    const list = document.querySelector('#move-list');
    window.listChanges = 0;
    new MutationObserver((records) => {
      window.listChanges += records.filter((r) => r.type === 'childList').length;
    }).observe(list, { childList: true, subtree: true });
    window.keptButtons = [...list.querySelectorAll('.move[data-ply]')];
  });
  const sameButtons = () =>
    page.evaluate(() => {
      const now = [...document.querySelectorAll('#move-list .move[data-ply]')];
      return now.length === window.keptButtons.length && now.every((b, i) => b === window.keptButtons[i]);
    });

  const expectAt = async (ply, what) => {
    await page.waitForFunction((n) => window.outpost.snapshot().viewPly === n, ply);
    const state = await shown(page);
    assert.equal(state.ply, ply, what);
    assert.deepEqual(state.marked, ply === 0 ? [] : [String(ply)], `${what}: one move marked`);
    assert.deepEqual(state.ariaCurrent, ply === 0 ? [] : [String(ply)], `${what}: aria-current`);
    assert.equal(state.fen, FENS[ply], `${what}: the position`);
    if (ply > 0) assert.equal(state.inView, true, `${what}: the marked move is in view`);
    return state;
  };

  await expectAt(200, 'End');
  for (let i = 0; i < 60; i++) await page.keyboard.press('ArrowLeft');
  await expectAt(140, '60 steps back');
  await page.keyboard.press('ArrowRight');
  await expectAt(141, 'a step forward');
  await page.click('#move-list .move[data-ply="37"]');
  await expectAt(37, 'a click on move 37');
  await page.click('#nav-next');
  await expectAt(38, 'the › button');
  const start = await expectAt(await page.keyboard.press('Home').then(() => 0), 'Home');
  // The start position: the list shows its first moves, not its last.
  assert.equal(start.scrollTop, 0, 'Home scrolls the list to its top');
  await page.keyboard.press('ArrowRight');
  await expectAt(1, 'the first move');
  await page.keyboard.press('End');
  await expectAt(200, 'End again');

  assert.equal(await page.evaluate(() => window.listChanges), 0, 'no move list element was added or removed by a step');
  assert.ok(await sameButtons(), 'the move buttons are the same elements');

  // The focus on the current move follows it, as before.
  await page.locator('#move-list .move[data-ply="120"]').focus();
  await page.keyboard.press('Enter');
  await expectAt(120, 'Enter on move 120');
  await page.keyboard.press('ArrowLeft');
  await expectAt(119, 'a step back from the focused move');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.ply), '119', 'the focus follows the mark');

  // A move played from there changes what the list shows: then it is drawn anew.
  await page.fill('#move-input', 'Kd7');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#move-list .variation-move');
  assert.equal(await page.locator('#move-list .move.current').textContent(), 'Kd7');
  assert.equal(await page.locator('#move-list .move.current').getAttribute('data-ply'), '120');
  await shot(page, 'move-list-steps');
  assert.deepEqual(errors, []);
});
