// The "Recent games" card: the games this browser created, from the ids it keeps in
// localStorage, listed with one GET /api/v1/games?ids=… request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, newGame, openBrowser, shot, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

test('recent games list the games this browser created, and open them', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const first = await newGame(page, { side: 'white', level: '1' });
  await clickMove(page, 'e2', 'e4');
  await waitForMoves(page, 2);
  const second = await newGame(page, { side: 'white', level: '1' });

  await page.reload();
  const firstItem = `#recent-list li[data-game-id="${first}"]`;
  await page.waitForSelector(`${firstItem} a`);
  const listed = await page.locator('#recent-list li').evaluateAll((items) => items.map((item) => item.dataset.gameId));
  assert.deepEqual(listed, [second, first], 'most recent first');
  assert.equal(await page.getAttribute(`#recent-list li[data-game-id="${second}"]`, 'aria-current'), 'true');
  assert.match(await page.textContent(firstItem), /Outpost level 1 \(black\) · 1 move · white to move/);
  await shot(page, 'recent-1-list');

  await page.click(`${firstItem} a`);
  await page.waitForFunction((id) => new URLSearchParams(location.search).get('game') === id, first);
  await waitForMoves(page, 2);
  await page.waitForSelector(`${firstItem}[aria-current="true"]`);
  assert.deepEqual(errors, []);
});
