// The engine's reply and the live info panel: depth, score, nodes/s and the PV arrive over the
// WebSocket while it thinks, then its move appears on the board and in the move list.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, clockReading, newGame, openBrowser, serverGame, shot, waitForAtLeastMoves, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

test('the engine replies and its thinking is shown live', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // A fixed think time long enough to see several iterations arrive.
  const id = await newGame(page, { side: 'white', custom: { movetime: 1500, depth: '', nodes: '' } });
  await page.waitForSelector('#connection[data-state="open"]');

  await clickMove(page, 'e2', 'e4');
  // While the engine thinks, the panel fills in from the stream.
  await page.waitForFunction(() => {
    const depth = document.querySelector('#engine-stats [data-k="depth"]')?.textContent ?? '–';
    return depth !== '–' && Number.parseInt(depth, 10) >= 1;
  }, null, { timeout: 15000 });
  await shot(page, 'engine-1-thinking');

  // A premove set while the engine thinks is played as soon as it has replied.
  await clickMove(page, 'd2', 'd4');
  // Shown on the board until it is played (it may be played at once if the engine was quick).
  await page.waitForFunction(
    () => document.querySelectorAll('cg-board square.current-premove').length === 2 || document.querySelectorAll('#move-list .move').length >= 3,
  );
  // The engine's reply is in; the premove may already have been played after it.
  await waitForAtLeastMoves(page, 2);
  const score = await page.textContent('#engine-stats [data-k="score"]');
  const nps = await page.textContent('#engine-stats [data-k="nps"]');
  const pv = await page.textContent('#engine-pv');
  assert.match(score, /^[≥≤]?([+−]?\d+\.\d\d|#−?\d+)$/, `score shown: ${score}`);
  assert.notEqual(nps, '–');
  assert.ok(pv.trim().length > 0, 'a principal variation is shown');
  const label = await page.textContent('#eval-bar .eval-label');
  assert.ok(label.length > 0, 'the evaluation bar has a value');

  await shot(page, 'engine-2-replied');
  const lastMoveSquares = await page.locator('cg-board square.last-move').count();
  assert.ok(lastMoveSquares >= 2, 'the last move is highlighted');

  // The premove went in, and the engine answers it too.
  await waitForMoves(page, 4);
  const game = await serverGame(id);
  assert.equal(game.moves[2], 'd2d4');
  assert.equal(game.moves.length, 4);
  assert.equal(game.turn, 'white');
  await page.waitForSelector('#game-status:has-text("Your move")');
  await shot(page, 'engine-3-after-premove');
  assert.deepEqual(errors, []);
});

test('with a clock both clocks are shown and the side to move runs', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // The engine plays White and moves first; then the person's (Black's) clock runs.
  const id = await newGame(page, { side: 'black', level: '1', clock: { minutes: 1, increment: 1 } });
  await waitForMoves(page, 1);
  const clocks = page.locator('.player-bar .clock');
  await page.waitForFunction(() => [...document.querySelectorAll('.player-bar .clock')].every((c) => !c.hidden));
  const mine = page.locator('#bar-bottom .clock');
  await page.waitForSelector('#bar-bottom .clock.active');
  const first = await mine.textContent();
  await page.waitForTimeout(2200);
  const later = await mine.textContent();
  assert.notEqual(first, later, `the running clock moves (${first} -> ${later})`);
  assert.equal(await clocks.count(), 2);
  assert.match(await page.textContent('#bar-top .clock'), /^\d+:\d\d/);
  const game = await serverGame(id);
  assert.ok(game.clock && game.clock.white > 0 && game.clock.black > 0, 'the server keeps both clocks');
  await shot(page, 'engine-4-clocks');
  assert.deepEqual(errors, []);
});

test('the new-game dialog describes each level from the server, and analysis switches follow its defaults', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  const served = await (await fetch(new URL('api/v1/engine', process.env.OUTPOST_URL))).json();
  if (!(await page.locator('#new-game').evaluate((d) => d.open))) await page.click('#btn-new');
  // The level checked when the dialog opens is described without touching anything.
  const checked = Number(await page.locator('#new-game input[name=level]:checked').getAttribute('value'));
  await page.waitForFunction(
    (elo) => document.querySelector('#level-hint').textContent.includes(`about ${elo} Elo`),
    served.levels[checked - 1].elo,
  );
  for (const level of [served.levels[0], served.levels[7]]) {
    await page.locator(`#new-game input[name=level][value="${level.level}"]`).check({ force: true });
    await page.waitForFunction(
      (elo) => document.querySelector('#level-hint').textContent.includes(`about ${elo} Elo`),
      level.elo,
    );
  }
  assert.match(await page.textContent('#level-hint'), /Level 8: about \d+ Elo, full strength, 1 s a move/);
  await page.locator('#new-game input[name=level][value="1"]').check({ force: true });
  assert.match(await page.textContent('#level-hint'), /Level 1: about \d+ Elo, looks 1 ply ahead, 0\.05 s a move/);
  await page.locator('#new-game input[name=level][value="custom"]').check({ force: true });
  assert.equal(await page.textContent('#level-hint'), '1 is a beginner, 8 plays at full strength.');
  await shot(page, 'engine-3-level-hint');

  // The analysis board's switches show the server's defaults, every one of them.
  await page.click('#new-game-analyse');
  await page.waitForFunction(() => !document.querySelector('#new-game').open);
  await page.click('#techniques summary');
  const shown = await page
    .locator('#technique-list input[type=checkbox]')
    .evaluateAll((inputs) => inputs.map((input) => ({ name: input.name, default: input.checked })));
  assert.deepEqual(
    shown.sort((a, b) => a.name.localeCompare(b.name)),
    served.techniques.map(({ name, default: on }) => ({ name, default: on })).sort((a, b) => a.name.localeCompare(b.name)),
  );
  assert.deepEqual(errors, []);
});

test('a player alone against the engine is not a spectator, and hears low time once', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // 15 seconds: White's clock falls under the 10 s of low time soon after the engine's reply.
  const id = await newGame(page, { side: 'white', level: '1', clock: { minutes: 0.25, increment: 0 } });
  await page.waitForSelector('#connection[data-state="open"]');
  await clickMove(page, 'e2', 'e4');
  await waitForMoves(page, 2);
  // The page follows its own game with the player's token: nobody watches it.
  assert.equal((await serverGame(id)).spectators, 0);
  await page.waitForSelector('#spectator-count:has-text("0 watching")');

  // White's clock runs down: low time sounds once as it falls under 10 s, and not again.
  assert.ok((await clockReading(page)).white > 10000, 'White starts above low time');
  assert.equal(await page.getAttribute('body', 'data-sound-low-time'), null);
  await page.waitForFunction(() => document.body.dataset.soundLowTime === '1', null, { timeout: 15000 });
  assert.ok((await clockReading(page)).white < 10000);
  await page.waitForFunction(() => window.outpost.clockReading().white < 8000, null, { timeout: 10000 });
  assert.equal(await page.getAttribute('body', 'data-sound-low-time'), '1');
  await page.click('#btn-resign');
  await page.click('#btn-resign');
  await page.waitForSelector('#game-over:not([hidden])');
  assert.deepEqual(errors, []);
});

test('a game against the engine that mate ended is taken back, one that a resignation ended is not', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // White mates at once with Rh8#; the server opens a game the position ended again on a takeback.
  const id = await newGame(page, { side: 'white', level: '1', start: 'k7/8/1K6/8/8/8/8/7R w - - 0 1' });
  await clickMove(page, 'h1', 'h8');
  await page.waitForSelector('#game-over:not([hidden])');
  await page.waitForSelector('#btn-takeback:not([disabled])');
  await shot(page, 'engine-5-mate-takeback-offered');
  await page.keyboard.press('t');
  await waitForMoves(page, 0);
  assert.equal((await serverGame(id)).status, 'ongoing');
  await page.waitForSelector('#game-over', { state: 'hidden' });
  // Played on from there: a quieter move, and the engine answers.
  await clickMove(page, 'h1', 'h7');
  await waitForMoves(page, 2);

  // A resignation stands: nothing to take back.
  await page.click('#btn-resign');
  await page.click('#btn-resign');
  await page.waitForSelector('#game-over:not([hidden])');
  assert.equal(await page.isEnabled('#btn-takeback'), false);
  assert.deepEqual(errors, []);
});
