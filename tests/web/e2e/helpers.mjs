// Shared pieces of the browser tests: a fresh headless Chromium per test, board coordinates,
// screenshots kept under tests/web/artifacts/, and direct API reads to check what the server holds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.OUTPOST_URL ?? 'http://127.0.0.1:8080/';
export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with a fresh profile (its own --user-data-dir); close() removes the profile. */
export async function openBrowser({ width = 1280, height = 900, isMobile = false } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
    isMobile,
    hasTouch: isMobile,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function shot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** The centre of a square on screen, whichever way the board is turned. */
export async function squareCenter(page, square) {
  // Clicking elsewhere (the move list, an open panel) may have scrolled the board partly out of
  // view; mouse clicks use viewport coordinates, so bring the whole board back first.
  await page.locator('cg-board').scrollIntoViewIfNeeded();
  const box = await page.locator('cg-board').boundingBox();
  assert.ok(box, 'the board is on the page');
  // Chessground marks its wrapper with the orientation.
  const flipped = ((await page.locator('#board').getAttribute('class')) ?? '').includes('orientation-black');
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const col = flipped ? 7 - file : file;
  const row = flipped ? rank : 7 - rank;
  const size = box.width / 8;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * size };
}

export async function clickSquare(page, square) {
  const { x, y } = await squareCenter(page, square);
  await page.mouse.click(x, y);
}

/** Plays a move by clicking its two squares. */
export async function clickMove(page, from, to) {
  await clickSquare(page, from);
  await clickSquare(page, to);
}

export async function dragMove(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

/** Opens the new-game dialog (if needed), fills it and starts the game; returns the game id. */
export async function newGame(page, { side = 'white', level = '1', custom, start, clock } = {}) {
  if (!(await page.locator('#new-game').evaluate((d) => d.open))) await page.click('#btn-new');
  await page.locator(`#new-game input[name=side][value="${side}"]`).check({ force: true });
  await page.locator(`#new-game input[name=level][value="${custom ? 'custom' : level}"]`).check({ force: true });
  if (custom) {
    for (const [name, value] of Object.entries(custom)) await page.fill(`#new-game input[name=${name}]`, String(value));
  }
  if (clock) {
    await page.locator('#new-game input[name=useClock]').check();
    await page.fill('#new-game input[name=minutes]', String(clock.minutes));
    await page.fill('#new-game input[name=increment]', String(clock.increment));
  }
  await page.fill('#new-game textarea[name=start]', start ?? '');
  await page.click('#new-game-start');
  await page.waitForFunction(() => new URLSearchParams(location.search).has('game') && !document.querySelector('#new-game').open);
  return page.evaluate(() => new URLSearchParams(location.search).get('game'));
}

/** The game as the server holds it. */
export async function serverGame(id) {
  const response = await fetch(new URL(`api/v1/games/${id}`, BASE_URL));
  assert.equal(response.status, 200);
  return response.json();
}

/** The played moves in the move list (not its placeholder). */
const MOVE_LIST_MOVES = '#move-list .move:not(.placeholder)';

export async function moveListSan(page) {
  return page.locator(MOVE_LIST_MOVES).allTextContents();
}

/** Waits until the move list shows `count` moves, or at least that many when `atLeast`. */
async function waitForMoveCount(page, count, atLeast, timeout) {
  await page.waitForFunction(
    ({ selector, n, orMore }) => {
      const shown = document.querySelectorAll(selector).length;
      return orMore ? shown >= n : shown === n;
    },
    { selector: MOVE_LIST_MOVES, n: count, orMore: atLeast },
    { timeout },
  );
}

/** Waits until the move list shows at least `count` moves (a premove may follow at once). */
export async function waitForAtLeastMoves(page, count, timeout = 30000) {
  await waitForMoveCount(page, count, true, timeout);
}

/**
 * Shows the position after `ply` by clicking it in the move list. A game update that re-renders
 * the list at the moment of the click can swallow it, so it is clicked again until that move is
 * the current one.
 */
export async function viewPly(page, ply, attempts = 5) {
  for (let attempt = 1; ; attempt++) {
    await page.click(`#move-list .move[data-ply="${ply}"]`);
    try {
      await page.waitForSelector(`#move-list .move.current[data-ply="${ply}"]`, { timeout: 2000 });
      return;
    } catch (err) {
      if (attempt >= attempts) throw err;
    }
  }
}

/** Waits until the move list shows `count` moves. */
export async function waitForMoves(page, count, timeout = 30000) {
  await waitForMoveCount(page, count, false, timeout);
}

/**
 * Creates a game with a friend from the new-game dialog ("A friend"); returns the game id and the
 * invite link the page shows.
 */
export async function newFriendGame(page, { side = 'white', clock } = {}) {
  if (!(await page.locator('#new-game').evaluate((d) => d.open))) await page.click('#btn-new');
  await page.locator('#new-game input[name=opponent][value="friend"]').check({ force: true });
  await page.locator(`#new-game input[name=side][value="${side}"]`).check({ force: true });
  const useClock = page.locator('#new-game input[name=useClock]');
  if (clock) {
    await useClock.check();
    await page.fill('#new-game input[name=minutes]', String(clock.minutes));
    await page.fill('#new-game input[name=increment]', String(clock.increment));
  } else {
    await useClock.uncheck();
  }
  await page.fill('#new-game textarea[name=start]', '');
  await page.click('#new-game-start');
  await page.waitForFunction(() => new URLSearchParams(location.search).has('game') && !document.querySelector('#new-game').open);
  const id = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
  await page.waitForSelector('#invite:not([hidden])');
  const invite = await page.inputValue('#invite-link');
  return { id, invite };
}

/** Each side's time left as the page shows it, and the real time of the reading. */
export async function clockReading(page) {
  return page.evaluate(() => window.outpost.clockReading());
}

/** Waits until the game-status line matches `pattern`. */
export async function waitForStatus(page, pattern, timeout = 15000) {
  await page.waitForFunction(
    ({ source, flags }) => new RegExp(source, flags).test(document.querySelector('#game-status')?.textContent ?? ''),
    { source: pattern.source, flags: pattern.flags },
    { timeout },
  );
}
