// The server restarting under an analysis board while the engine analyses: the board (kept in
// the page) stays and takes moves, the card says the analysis waits for the connection, and the
// search starts again by itself, for the position on screen then, once the server is back.
// Runs a server of its own (run.sh names the binary); skipped against the mock server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { moveListSan, openBrowser, shot, waitForMoves } from './helpers.mjs';

const SERVER = process.env.OUTPOST_E2E_SERVER_BIN;
const WEB_ROOT = process.env.OUTPOST_E2E_WEB_ROOT;

let browser;
let server = null;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  server?.kill('SIGKILL');
  await browser?.close();
});

const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

function startServer(port) {
  const child = spawn(SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--web-root', WEB_ROOT, '--threads', '1', '--hash', '16', '--store', 'memory'], {
    stdio: 'ignore',
  });
  return child;
}

async function waitReady(url) {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(new URL('readyz', url))).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server never became ready');
}

const card = (page) =>
  page.evaluate(() => ({
    running: document.querySelector('#analysis-card').dataset.running,
    summary: document.querySelector('#analysis-summary').textContent,
    lines: [...document.querySelectorAll('#analysis-lines .line-pv')].map((e) => e.textContent),
  }));

test('the server restarts while the engine analyses: the board stays, the search resumes by itself', { skip: !SERVER && 'no server binary (mock run)' }, async () => {
  const { page, errors } = browser;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  server = startServer(port);
  await waitReady(url);
  await page.goto(url);
  await page.click('#new-game-cancel');
  await page.click('#btn-analysis');
  await page.waitForSelector('#analysis-card:not([hidden])');
  for (const move of ['e4', 'e5']) {
    await page.fill('#move-input', move);
    await page.press('#move-input', 'Enter');
  }
  await waitForMoves(page, 2);
  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines .line-pv').length > 0, null, { timeout: 20000 });

  // The server goes away mid-search.
  server.kill('SIGKILL');
  await page.waitForSelector('#connection[data-state="closed"], #connection[data-state="connecting"]', { timeout: 10000 });
  await page.waitForFunction(() => /Waiting for the server/.test(document.querySelector('#analysis-summary').textContent), null, { timeout: 5000 });
  let shown = await card(page);
  assert.equal(shown.running, 'false');
  // (It did say "Stopped", as after the Stop button, though nobody stopped it.)
  assert.doesNotMatch(shown.summary, /Stopped/);

  // The board is the page's: it takes a move while the server is away; the lines of 1... e5 go.
  await page.fill('#move-input', 'Nf3');
  await page.press('#move-input', 'Enter');
  await waitForMoves(page, 3);
  shown = await card(page);
  assert.deepEqual(shown.lines, []);
  assert.match(shown.summary, /Waiting for the server: the analysis starts when the connection is back/);
  await shot(page, 'analysis-restart-1-offline');

  // Back: the search starts again by itself, for 2. Nf3 (Black to move: "2… ").
  server = startServer(port);
  await waitReady(url);
  await page.waitForSelector('#connection[data-state="open"]', { timeout: 20000 });
  await page.waitForFunction(
    () => {
      const pvs = [...document.querySelectorAll('#analysis-lines .line-pv')];
      return pvs.length > 0 && pvs.every((e) => e.textContent.trim().length > 0);
    },
    null,
    { timeout: 20000 },
  );
  shown = await card(page);
  assert.equal(shown.running, 'true');
  assert.ok(shown.lines.every((line) => line.startsWith('2…')), shown.lines.join(' | '));
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3']);
  await page.click('#btn-stop');
  // The only console errors are the browser's own about the refused reconnection attempts.
  assert.deepEqual(errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), []);
});
