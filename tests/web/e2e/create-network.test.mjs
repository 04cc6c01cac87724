// A new game whose answer is lost (the server made it, the connection dropped on the way back):
// the page sends the creation again with the same Idempotency-Key, and the server answers with
// the game it made, so the player gets that game and no second one is made.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newGame, openBrowser, serverGame } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

test('a new game whose answer is lost is asked for again with its key, and made once', async () => {
  const { page } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.evaluate(() => {
    const realFetch = window.fetch;
    window.__creations = [];
    window.fetch = async (input, init) => {
      const creation = String(input).endsWith('/api/v1/games') && init?.method === 'POST';
      const response = await realFetch(input, init);
      if (creation) {
        const game = await response.clone().json();
        window.__creations.push({ key: init.headers['Idempotency-Key'], id: game.id, replayed: response.headers.get('Idempotent-Replayed') });
        // The first answer is lost after the server made the game.
        if (window.__creations.length === 1) throw new TypeError('Failed to fetch');
      }
      return response;
    };
  });
  const id = await newGame(page, { side: 'white', level: '1' });
  const creations = await page.evaluate(() => window.__creations);
  assert.equal(creations.length, 2);
  assert.match(creations[0].key, /^[0-9a-f]{32}$/);
  assert.equal(creations[1].key, creations[0].key);
  // The retry got the game the lost answer carried, and the page plays it.
  assert.equal(creations[1].id, creations[0].id);
  assert.equal(creations[1].replayed, 'true');
  assert.equal(id, creations[0].id);
  assert.equal((await serverGame(id)).id, id);

  // The next new game is another action: a new key, a new game.
  const next = await newGame(page, { side: 'white', level: '1' });
  const all = await page.evaluate(() => window.__creations);
  assert.equal(all.length, 3);
  assert.notEqual(all[2].key, all[0].key);
  assert.notEqual(next, id);
});
