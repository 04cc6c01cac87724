// Reload resumes the game (id in the URL, token in localStorage); another browser only watches;
// a dropped stream reconnects.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, moveListSan, newGame, openBrowser, serverGame, shot, waitForMoves } from './helpers.mjs';

let browser;
let spectator;
before(async () => {
  browser = await openBrowser();
  spectator = await openBrowser({ width: 390, height: 844, isMobile: true });
});
after(async () => {
  await browser?.close();
  await spectator?.close();
});

test('reloading the page resumes the game, and others watch read-only', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const id = await newGame(page, { side: 'white', level: '1' });
  await clickMove(page, 'd2', 'd4');
  await waitForMoves(page, 2);
  const sanBefore = await moveListSan(page);

  await page.reload();
  await page.waitForSelector('#connection[data-state="open"]');
  await waitForMoves(page, 2);
  assert.deepEqual(await moveListSan(page), sanBefore);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('game')), id);
  assert.equal(await page.getAttribute('body', 'data-role'), 'player');
  await shot(page, 'reload-1-resumed');

  // Still the player after the reload: the next move is accepted.
  await clickMove(page, 'c2', 'c4');
  await waitForMoves(page, 4);

  // A second browser with the link is a spectator, and sees moves live.
  const watcher = spectator.page;
  await watcher.goto(new URL(`?game=${id}`, process.env.OUTPOST_URL).toString());
  await waitForMoves(watcher, 4);
  assert.equal(await watcher.getAttribute('body', 'data-role'), 'spectator');
  assert.ok(await watcher.isVisible('#spectator-note'));
  await shot(watcher, 'reload-2-spectator-phone');

  // The watcher's stream drops; a move made meanwhile shows up once it is back.
  await watcher.evaluate(() => window.outpost.dropConnection());
  // This move by keyboard: "/" focuses the move box, SAN and Enter play it. Level 1 picks its
  // replies at random among near-equal moves, so the engine may have given check (1.d4 e6 2.c4
  // Bb4+): then Nf3 is illegal, and the move typed is a legal one from the server, in UCI.
  const { legalMoves } = await serverGame(id);
  const typed = legalMoves.includes('g1f3') ? 'Nf3' : legalMoves[0];
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await page.keyboard.type(typed);
  await page.keyboard.press('Enter');
  await waitForMoves(page, 6);
  const played = await serverGame(id);
  if (typed === 'Nf3') assert.equal((await moveListSan(page))[4], 'Nf3');
  else assert.equal(played.moves[4], typed);
  await waitForMoves(watcher, 6, 20000);
  await watcher.waitForSelector('#connection[data-state="open"]');
  assert.deepEqual(await moveListSan(watcher), await moveListSan(page));
  assert.deepEqual(errors, []);
  assert.deepEqual(spectator.errors, []);
});

test('Back to the bare address and Forward again shows the game, not the new-game dialog over it', async () => {
  const { page, errors } = browser;
  // A fresh tab: the bare address opens the new-game dialog.
  await page.goto('about:blank');
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForSelector('#new-game[open]');
  const id = await newGame(page, { side: 'white', level: '1' });
  await clickMove(page, 'e2', 'e4');
  await waitForMoves(page, 2);

  await page.goBack();
  await page.waitForSelector('#new-game[open]');
  await page.goForward();
  await page.waitForFunction((gameId) => window.outpost.snapshot().game?.id === gameId, id);
  await waitForMoves(page, 2);
  await page.waitForFunction(() => !document.querySelector('#new-game').open, null, { timeout: 5000 });
  // The board is the person's again: the next move is played.
  await clickMove(page, 'd2', 'd4');
  await waitForMoves(page, 4);
  await shot(page, 'reload-3-forward-to-game');

  // The new-game dialog opened over the game and left with Back does not stay over the page
  // Back goes to; the bare address opens it again.
  await page.click('#btn-new');
  await page.goBack();
  await page.waitForSelector('#new-game[open]');
  await page.goForward();
  await waitForMoves(page, 4);
  await page.waitForFunction(() => !document.querySelector('#new-game').open, null, { timeout: 5000 });
  assert.deepEqual(errors, []);
});
