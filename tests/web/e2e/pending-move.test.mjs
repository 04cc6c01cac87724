// A move waiting for the server's answer (a slow server, or a request sent again after a network
// failure) is shown at once as pending: the piece stays on its new square through any redraw (a
// presence update over the WebSocket), the move list shows it dimmed, the status says it is being
// sent (again), and no other move can be made until the answer; a refusal puts the game back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, clickMove, moveListSan, newFriendGame, newGame, openBrowser, serverGame, shot, waitForMoves, waitForStatus } from './helpers.mjs';

const MOVES = '**/api/v1/games/*/moves';
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR';

let alice;
let bob;
before(async () => {
  alice = await openBrowser();
  bob = await openBrowser();
});
after(async () => {
  await alice?.close();
  await bob?.close();
});

const placement = (page) => page.evaluate(() => window.outpost.snapshot().placement);
const pendingText = (page) => page.locator('#move-list .pending-move').allTextContents();
const status = (page) => page.textContent('#game-status');

/** Holds each move request until `release()` (or fails it: `route.abort`); counts them. */
async function holdMoves(page, { failFirst = 0 } = {}) {
  const held = { count: 0, waiting: [] };
  let failed = 0;
  await page.route(MOVES, async (route) => {
    held.count++;
    if (failed < failFirst) {
      failed++;
      return route.abort('internetdisconnected');
    }
    held.waiting.push(route);
  });
  held.release = async (answer) => {
    for (const route of held.waiting.splice(0)) await (answer ? route.fulfill(answer) : route.continue());
  };
  return held;
}

test('a move held by a slow server stays on the board through a redraw, is listed pending and blocks another move', async () => {
  const a = alice.page;
  await a.goto(BASE_URL);
  const { id, invite } = await newFriendGame(a, { side: 'white' });
  const held = await holdMoves(a);
  try {
    await clickMove(a, 'e2', 'e4');
    await a.waitForFunction(() => /Sending your move e4/.test(document.querySelector('#game-status')?.textContent ?? ''));
    assert.deepEqual(await pendingText(a), ['e4']);
    assert.deepEqual(await moveListSan(a), []);
    // The friend arrives: a presence update redraws the page while the move is in flight.
    await bob.page.goto(invite);
    await a.waitForSelector('.presence-item[data-side="black"][data-online="true"]');
    await a.waitForTimeout(300);
    assert.equal(await placement(a), AFTER_E4, 'the pawn stays on e4');
    assert.deepEqual(await pendingText(a), ['e4']);
    assert.match(await status(a), /Sending your move e4/);
    await shot(a, 'pending-move-1-held');
    // Another move cannot be made meanwhile (the board was back at the start, with White to
    // move): d2-d4 is a premove now, played once the friend has answered.
    await clickMove(a, 'd2', 'd4');
    await a.waitForTimeout(300);
    assert.equal(held.count, 1, 'one move request');
    assert.equal(await placement(a), AFTER_E4);
    await held.release();
    await a.unroute(MOVES);
    await waitForStatus(a, /Your friend’s move/);
    assert.deepEqual(await moveListSan(a), ['e4']);
    assert.deepEqual(await pendingText(a), []);
    assert.deepEqual((await serverGame(id)).moves, ['e2e4']);
    // The friend answers: the premove is played.
    await waitForMoves(bob.page, 1);
    await clickMove(bob.page, 'e7', 'e5');
    await waitForMoves(a, 3);
    assert.deepEqual(await moveListSan(a), ['e4', 'e5', 'd4']);
  } finally {
    await a.unroute(MOVES);
  }
});

test('a refused pending move goes back with the refusal said', async () => {
  const a = alice.page;
  await a.goto(BASE_URL);
  const { id } = await newFriendGame(a, { side: 'white' });
  const held = await holdMoves(a);
  try {
    await clickMove(a, 'e2', 'e4');
    while (held.waiting.length === 0) await a.waitForTimeout(50);
    await held.release({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'illegal_move', message: 'Not today' } }),
    });
    await waitForStatus(a, /Your move/);
    assert.doesNotMatch(await status(a), /Sending/);
    await a.waitForFunction(() => /Move refused: Not today/.test(document.querySelector('#toast')?.textContent ?? ''));
    assert.deepEqual(await pendingText(a), []);
    assert.deepEqual(await moveListSan(a), []);
    assert.equal(await placement(a), START);
    assert.deepEqual((await serverGame(id)).moves, []);
    // And it can be played again.
    await a.unroute(MOVES);
    await clickMove(a, 'e2', 'e4');
    await waitForMoves(a, 1);
  } finally {
    await a.unroute(MOVES);
  }
});

test('a move sent again after a network failure says so while it waits', async () => {
  const a = alice.page;
  await a.goto(BASE_URL);
  const { id } = await newFriendGame(a, { side: 'white' });
  const held = await holdMoves(a, { failFirst: 1 });
  try {
    await clickMove(a, 'e2', 'e4');
    await a.waitForFunction(() => /Sending your move e4 again/.test(document.querySelector('#game-status')?.textContent ?? ''), null, {
      timeout: 5000,
    });
    assert.deepEqual(await pendingText(a), ['e4']);
    assert.equal(await placement(a), AFTER_E4);
    await shot(a, 'pending-move-2-retrying');
    while (held.waiting.length === 0) await a.waitForTimeout(50);
    await held.release();
    await waitForStatus(a, /Your friend’s move/);
    assert.equal(held.count, 2);
    assert.deepEqual(await moveListSan(a), ['e4']);
    assert.deepEqual((await serverGame(id)).moves, ['e2e4']);
  } finally {
    await a.unroute(MOVES);
  }
});

test('a move held for Confirm stays on the board through a redraw, and Cancel puts it back', async () => {
  const a = alice.page;
  await a.goto(BASE_URL);
  const { id, invite } = await newFriendGame(a, { side: 'white' });
  await a.check('#confirm-moves');
  try {
    await clickMove(a, 'e2', 'e4');
    await a.waitForSelector('#confirm-bar:not([hidden])');
    assert.equal(await placement(a), AFTER_E4);
    // The friend arrives: a presence update redraws the page while the move waits for Confirm.
    await bob.page.goto(invite);
    await a.waitForSelector('.presence-item[data-side="black"][data-online="true"]');
    await a.waitForTimeout(300);
    // The pawn went back to e2 under "Play e4? Confirm".
    assert.equal(await placement(a), AFTER_E4, 'the pawn stays on e4');
    assert.equal(await a.isVisible('#confirm-bar'), true);
    await a.click('#cancel-move');
    await a.waitForFunction((start) => window.outpost.snapshot().placement === start, START);
    assert.deepEqual((await serverGame(id)).moves, []);
    await clickMove(a, 'd2', 'd4');
    await a.click('#confirm-move');
    await waitForMoves(a, 1);
    assert.deepEqual((await serverGame(id)).moves, ['d2d4']);
  } finally {
    await a.uncheck('#confirm-moves');
  }
});

// Resign, Abort, a draw offer or a claim made while a move is sent waits for the move's answer,
// then goes to the game the move made: sent at once it raced the move (a resignation stored first
// had the move refused after it; a draw offer stored first was cleared by the move that followed).
/** The requests the page sent whose path ends with `suffix`. */
function countRequests(page, suffix) {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith(suffix)) seen.count++;
  });
  return seen;
}

test('Resign confirmed while a move is sent resigns after the move is played', async () => {
  const a = alice.page;
  await a.goto(BASE_URL);
  const { id } = await newFriendGame(a, { side: 'white' });
  const resigns = countRequests(a, '/resign');
  const held = await holdMoves(a);
  try {
    await clickMove(a, 'e2', 'e4');
    while (held.waiting.length === 0) await a.waitForTimeout(50);
    await a.click('#btn-resign');
    await a.click('#btn-resign');
    await a.waitForFunction(() => /You resign once your move e4 is answered/.test(document.querySelector('#toast')?.textContent ?? ''));
    await a.waitForTimeout(300);
    assert.equal(resigns.count, 0, 'no resignation while the move is sent');
    await held.release();
    await waitForStatus(a, /White resigned/);
    const game = await serverGame(id);
    assert.deepEqual(game.moves, ['e2e4'], 'the move was played first');
    assert.equal(game.status, 'resigned');
    assert.equal(game.winner, 'black');
    assert.equal(resigns.count, 1);
    assert.deepEqual(await moveListSan(a), ['e4']);
  } finally {
    await a.unroute(MOVES);
  }
});

test('a draw offered while a move is sent is offered after it, and survives it', async () => {
  const a = alice.page;
  await a.goto(BASE_URL);
  const { id } = await newFriendGame(a, { side: 'white' });
  const offers = countRequests(a, '/draw/yes');
  const held = await holdMoves(a);
  try {
    await clickMove(a, 'e2', 'e4');
    while (held.waiting.length === 0) await a.waitForTimeout(50);
    await a.click('#btn-draw');
    await a.waitForTimeout(300);
    assert.equal(offers.count, 0, 'no offer while the move is sent');
    await held.release();
    await a.waitForSelector('#draw-offer:not([hidden])');
    const game = await serverGame(id);
    assert.deepEqual(game.moves, ['e2e4']);
    assert.equal(game.drawOffer, 'white', 'the move did not clear the offer made after it');
    assert.equal(offers.count, 1);
  } finally {
    await a.unroute(MOVES);
  }
});

test('T pressed while a move is sent takes nothing back, as the Takeback button it stands for', async () => {
  const a = alice.page;
  await a.goto(BASE_URL);
  const id = await newGame(a, { side: 'white', level: '1' });
  await clickMove(a, 'e2', 'e4');
  await waitForMoves(a, 2);
  await waitForStatus(a, /Your move/);
  const takebacks = countRequests(a, '/takeback');
  const held = await holdMoves(a);
  try {
    await clickMove(a, 'd2', 'd4');
    while (held.waiting.length === 0) await a.waitForTimeout(50);
    assert.equal(await a.isDisabled('#btn-takeback'), true);
    await a.keyboard.press('t');
    await a.waitForTimeout(300);
    assert.equal(takebacks.count, 0, 'no takeback request while the move is sent');
    await a.waitForFunction(() => /still being sent: take it back once it is answered/.test(document.querySelector('#toast')?.textContent ?? ''));
    await held.release();
    await waitForMoves(a, 4);
    assert.equal(takebacks.count, 0, 'no takeback request');
    const moves = (await serverGame(id)).moves;
    assert.equal(moves.length, 4);
    assert.equal(moves[0], 'e2e4');
    assert.equal(moves[2], 'd2d4', 'the move was played');
  } finally {
    await a.unroute(MOVES);
  }
});
