// Play like a chess site (issue 35): two browsers find each other through the lobby (one seeks,
// the other accepts), play, chat (a line holding markup is shown as text and runs nothing), hear
// a move in a hidden tab, and rematch with the colours swapped.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, clickMove, newGame, openBrowser, shot, waitForMoves } from './helpers.mjs';

let seeker;
let acceptor;
let spectator;

/** The server counts the watcher once its subscription is in: read the game until it says so. */
async function waitForSpectators(page) {
  const id = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
  for (let i = 0; i < 100; i++) {
    const game = await (await fetch(new URL(`api/v1/games/${id}`, BASE_URL))).json();
    if (game.spectators >= 1) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the spectator was never counted');
}

before(async () => {
  seeker = await openBrowser();
  acceptor = await openBrowser();
});
after(async () => {
  await seeker?.close();
  await acceptor?.close();
  await spectator?.close();
});

const gameIdOf = (page) => page.evaluate(() => new URLSearchParams(location.search).get('game'));
const sideOf = (page, id) => page.evaluate((gameId) => localStorage.getItem(`outpost.side.${gameId}`), id);

async function openLobby(page) {
  await page.goto(BASE_URL);
  await page.click('#new-game-lobby');
  await page.waitForSelector('#lobby-dialog[open]');
}

test('two browsers meet in the lobby, play, chat, and rematch with colours swapped', async () => {
  const a = seeker.page;
  const b = acceptor.page;
  await openLobby(a);
  await a.click('.lobby-quick-button[data-clock="3+2"]');
  await a.waitForFunction(() => /Waiting for an opponent/.test(document.querySelector('#lobby-status').textContent));

  await openLobby(b);
  // The seek is listed, updated live, and accepted with one click.
  await b.waitForSelector('#lobby-seeks .lobby-seek button', { timeout: 10000 });
  assert.match(await b.textContent('#lobby-seeks .lobby-seek'), /3\+2/);
  await shot(b, 'lobby-1-seek-listed');
  await b.click('#lobby-seeks .lobby-seek button');

  // Both are in the same game, on opposite sides.
  await a.waitForFunction(() => new URLSearchParams(location.search).has('game'), null, { timeout: 15000 });
  await b.waitForFunction(() => new URLSearchParams(location.search).has('game'), null, { timeout: 15000 });
  const id = await gameIdOf(a);
  assert.equal(await gameIdOf(b), id);
  const sideA = await sideOf(a, id);
  const sideB = await sideOf(b, id);
  assert.ok(sideA === 'white' || sideA === 'black');
  assert.equal(sideB, sideA === 'white' ? 'black' : 'white');
  const white = sideA === 'white' ? a : b;
  const black = sideA === 'white' ? b : a;
  await white.waitForSelector('#chat-card:not([hidden])');

  // A third browser watches: it counts as a spectator (shown with the next move).
  const watcher = await openBrowser();
  try {
    await watcher.page.goto(new URL(`?game=${id}`, BASE_URL).toString());
    await watcher.page.waitForSelector('#spectator-note:not([hidden])');
    await waitForSpectators(white);
  } catch (err) {
    await watcher.close();
    throw err;
  }
  spectator = watcher;

  // Black's tab is hidden; White's move is still heard there.
  await black.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await clickMove(white, 'e2', 'e4');
  await waitForMoves(black, 1);
  await black.waitForFunction(() => Number(document.body.dataset.soundMove ?? 0) >= 1);
  assert.equal(await black.evaluate(() => document.body.dataset.lastSound), 'move');
  await clickMove(black, 'e7', 'e5');
  await waitForMoves(white, 2);
  await white.waitForFunction(() => /1 watching/.test(document.querySelector('#spectator-count')?.textContent ?? ''));
  assert.equal(await black.isHidden('#chat-input'), false);

  // Chat: a line holding markup shows its characters and runs nothing.
  const markup = '<img src=x onerror="window.__xss=1"><b>bold</b>';
  await white.fill('#chat-input', markup);
  await white.press('#chat-input', 'Enter');
  await black.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 1, null, { timeout: 10000 });
  assert.equal(await black.textContent('#chat-lines .chat-line .chat-text'), markup);
  assert.equal(await black.locator('#chat-lines img, #chat-lines b').count(), 0);
  assert.equal(await black.evaluate(() => window.__xss), undefined);
  assert.equal(await white.evaluate(() => window.__xss), undefined);
  await shot(black, 'lobby-2-chat');

  // White resigns; both ask for a rematch; the new game has the colours swapped.
  await white.click('#btn-resign');
  await white.click('#btn-resign');
  await white.waitForSelector('#game-over:not([hidden]) #game-over-rematch:not([hidden])');
  await black.waitForSelector('#game-over:not([hidden]) #game-over-rematch:not([hidden])');
  await white.click('#game-over-rematch');
  await black.waitForFunction(() => /Accept rematch/.test(document.querySelector('#game-over-rematch').textContent), null, {
    timeout: 10000,
  });
  await shot(black, 'lobby-3-rematch-offered');
  await black.click('#game-over-rematch');
  await white.waitForFunction((old) => new URLSearchParams(location.search).get('game') !== old, id, { timeout: 15000 });
  await black.waitForFunction((old) => new URLSearchParams(location.search).get('game') !== old, id, { timeout: 15000 });
  const rematch = await gameIdOf(white);
  assert.equal(await gameIdOf(black), rematch);
  assert.equal(await sideOf(white, rematch), 'black');
  assert.equal(await sideOf(black, rematch), 'white');
  // The old Black moves White now.
  await clickMove(black, 'd2', 'd4');
  await waitForMoves(white, 1);
  await shot(white, 'lobby-4-rematch');
  assert.deepEqual(seeker.errors, []);
  assert.deepEqual(acceptor.errors, []);
});

test('the mute switch survives a reload', async () => {
  const page = seeker.page;
  await page.goto(BASE_URL);
  await page.click('#new-game-cancel');
  assert.match(await page.textContent('#btn-mute'), /Sound on/);
  await page.click('#btn-mute');
  await page.reload();
  await page.click('#new-game-cancel');
  assert.match(await page.textContent('#btn-mute'), /Sound off/);
  await page.click('#btn-mute');
  assert.match(await page.textContent('#btn-mute'), /Sound on/);
});

test('a seek whose stream ends early (a replica shutting down) is followed again', async () => {
  const waiting = await openBrowser();
  const joining = await openBrowser();
  try {
    const a = waiting.page;
    // The first time the seek's stream is opened it ends as a draining replica ends it: the seek,
    // then the shutting_down line, then the end. Later opens reach the server.
    let opened = 0;
    await a.route('**/api/v1/seeks/*/stream', async (route) => {
      opened += 1;
      if (opened > 1) return route.continue();
      const seekId = new URL(route.request().url()).pathname.split('/').at(-2);
      const lines = [
        JSON.stringify({ type: 'seek', id: seekId, status: 'open' }),
        JSON.stringify({ type: 'error', code: 'shutting_down', message: 'this replica is shutting down', retryAfter: 1 }),
      ];
      return route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: `${lines.join('\n')}\n` });
    });
    await openLobby(a);
    await a.click('.lobby-quick-button[data-clock="5+3"]');
    await a.waitForFunction(() => /Waiting for an opponent/.test(document.querySelector('#lobby-status').textContent));
    // The page opened the stream again after it ended.
    for (let i = 0; i < 50 && opened < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(opened >= 2, `the seek's stream was opened ${opened} time(s)`);

    // Accepted from another browser, the seeker learns it on the reopened stream.
    const b = joining.page;
    await openLobby(b);
    await b.waitForSelector('#lobby-seeks .lobby-seek button', { timeout: 10000 });
    await b.click('#lobby-seeks .lobby-seek button');
    await a.waitForFunction(() => new URLSearchParams(location.search).has('game'), null, { timeout: 15000 });
    assert.equal(await gameIdOf(a), await gameIdOf(b));
    assert.deepEqual(waiting.errors, []);
  } finally {
    await waiting.close();
    await joining.close();
  }
});

test('a seek is given up when its seeker starts another game', async () => {
  const waiting = await openBrowser();
  try {
    const a = waiting.page;
    await openLobby(a);
    const [made] = await Promise.all([
      a.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/api/v1/seeks')),
      a.click('.lobby-quick-button[data-clock="15+10"]'),
    ]);
    const seek = await made.json();
    await a.waitForFunction(() => /Waiting for an opponent/.test(document.querySelector('#lobby-status').textContent));
    // The seeker closes the lobby and plays the engine instead: the page cancels its seek, so a
    // stranger can no longer accept it and pull the page away from the game being played (it
    // stayed open, and its acceptance opened the other game, its clock running, over this one).
    await a.keyboard.press('Escape');
    const cancelled = a.waitForRequest(
      (r) => r.method() === 'DELETE' && new URL(r.url()).pathname.endsWith(`/api/v1/seeks/${seek.id}`),
      { timeout: 10000 },
    );
    await newGame(a, { side: 'white', level: '1' });
    await cancelled;
    const read = await fetch(new URL(`api/v1/seeks/${seek.id}`, BASE_URL), { headers: { Authorization: `Bearer ${seek.seekToken}` } });
    assert.notEqual((await read.json()).status, 'open');
    await clickMove(a, 'e2', 'e4');
    await waitForMoves(a, 2);
    assert.deepEqual(waiting.errors, []);
  } finally {
    await waiting.close();
  }
});
