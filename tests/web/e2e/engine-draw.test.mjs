// A draw offered to the engine gets its answer at once (the server's rule from its evaluation;
// this early in a game it declines, and says so), and the game goes on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, newGame, openBrowser, serverGame, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

test('the engine answers a draw offer at once', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1' });
  await clickMove(page, 'e2', 'e4');
  await waitForMoves(page, 2);
  await page.click('#btn-draw');
  await page.waitForSelector('#toast.visible:has-text("declines the draw")');
  // It says why: too early in the game (it said only "Outpost declines the draw").
  assert.equal(
    await page.textContent('#toast'),
    'Outpost declines the draw: too early (it weighs one once 20 moves each are played)',
  );
  const game = await serverGame(id);
  assert.equal(game.status, 'ongoing');
  assert.equal(game.drawOffer, undefined);
  assert.equal(await page.isEnabled('#btn-draw'), true, 'it may be offered again later');
  assert.deepEqual(errors, []);
});
