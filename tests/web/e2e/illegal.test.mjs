// An illegal drag is refused on the board and never reaches the game.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dragMove, newGame, openBrowser, serverGame, shot, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

const placement = (page) => page.evaluate(() => window.outpost.snapshot().placement);

test('an illegal drag is rejected without changing the game', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1' });
  const initial = await serverGame(id);
  const boardBefore = await placement(page);

  // A pawn three squares forward, a bishop through its own pawn, a knight like a rook.
  for (const [from, to] of [
    ['e2', 'e5'],
    ['f1', 'c4'],
    ['g1', 'g3'],
  ]) {
    await dragMove(page, from, to);
    await page.waitForTimeout(250);
    assert.equal(await placement(page), boardBefore, `${from}-${to} must leave the board as it was`);
  }
  await shot(page, 'illegal-1-after-drags');
  const later = await serverGame(id);
  assert.equal(later.version, initial.version);
  assert.deepEqual(later.moves, []);

  // A legal drag still works afterwards.
  await dragMove(page, 'e2', 'e4');
  await waitForMoves(page, 2);
  assert.equal((await serverGame(id)).moves[0], 'e2e4');
  assert.deepEqual(errors, []);
});
