// Games between people through the page, two browsers (each its own profile, as two people
// would have): the invite link, moves both ways, a draw offer declined then accepted, a
// takeback request accepted, an abort, a spectator who sees it all read-only, the clocks the two
// players see agreeing, and a victory claimed against a player who left.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  BASE_URL,
  clickMove,
  clockReading,
  moveListSan,
  newFriendGame,
  openBrowser,
  serverGame,
  shot,
  waitForMoves,
  waitForStatus,
} from './helpers.mjs';

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

/** Alice creates a game with a friend; Bob opens her invite link. */
async function startWithFriend(options = {}) {
  const a = alice.page;
  const b = bob.page;
  await a.goto(BASE_URL);
  const { id, invite } = await newFriendGame(a, options);
  const url = new URL(invite);
  assert.equal(url.searchParams.get('game'), id);
  assert.ok(new URLSearchParams(url.hash.slice(1)).get('invite'), 'the token travels in the fragment');
  if (options.clock) await shot(a, 'friend-0-invite');
  await b.goto(invite);
  await b.waitForFunction((gameId) => window.outpost?.snapshot().game?.id === gameId, id);
  return { id, a, b };
}

test('two people play through the invite link; a draw offer is declined, then accepted', async () => {
  const { id, a, b } = await startWithFriend({ side: 'white', clock: { minutes: 5, increment: 3 } });
  // The token left the address bar (it would be shared by copying the address).
  assert.equal(await b.evaluate(() => location.hash), '');
  assert.equal(await b.getAttribute('body', 'data-role'), 'player');
  assert.ok((await b.getAttribute('#board', 'class')).includes('orientation-black'), 'Bob plays Black from the bottom');
  // Each sees the other arrive; the invite goes away once the friend is there.
  await a.waitForSelector('.presence-item[data-side="black"][data-online="true"]');
  await b.waitForSelector('.presence-item[data-side="white"][data-online="true"]');
  await a.waitForSelector('#invite', { state: 'hidden' });
  await shot(a, 'friend-1-alice');
  await shot(b, 'friend-2-bob');

  await clickMove(a, 'e2', 'e4');
  await waitForMoves(b, 1);
  await waitForStatus(b, /Your move/);
  await clickMove(b, 'e7', 'e5');
  await waitForMoves(a, 2);

  // A spectator (the address without a token) sees the game, and no buttons of the players.
  const watcher = await openBrowser({ width: 390, height: 844, isMobile: true });
  try {
    const watchLink = await a.getAttribute('#watch-link', 'href');
    assert.ok(!watchLink.includes('#'), 'the watch link has no token');
    await watcher.page.goto(watchLink);
    await waitForMoves(watcher.page, 2);
    assert.equal(await watcher.page.getAttribute('body', 'data-role'), 'spectator');
    assert.equal(await watcher.page.isVisible('#btn-draw'), false);
    assert.equal(await watcher.page.isVisible('#btn-resign'), false);

    // Alice offers a draw; Bob sees it with accept/decline and declines.
    await a.click('#btn-draw');
    await b.waitForSelector('#draw-offer:not([hidden])');
    assert.match(await b.textContent('#draw-offer-text'), /offers a draw/);
    await a.waitForSelector('#draw-offer:not([hidden])');
    assert.match(await a.textContent('#draw-offer-text'), /You offered a draw/);
    assert.equal(await a.isVisible('#draw-accept'), false, 'one does not accept one’s own offer');
    // The spectator sees the offer, without buttons.
    await watcher.page.waitForSelector('#draw-offer:not([hidden])');
    assert.equal(await watcher.page.isVisible('#draw-accept'), false);
    assert.equal((await serverGame(id)).drawOffer, 'white');
    await shot(b, 'friend-3-draw-offered');
    await b.click('#draw-decline');
    await a.waitForSelector('#draw-offer', { state: 'hidden' });
    await b.waitForSelector('#draw-offer', { state: 'hidden' });
    assert.equal((await serverGame(id)).drawOffer, undefined);

    await clickMove(a, 'g1', 'f3');
    await waitForMoves(b, 3);
    await clickMove(b, 'b8', 'c6');
    await waitForMoves(a, 4);
    assert.deepEqual(await moveListSan(a), ['e4', 'e5', 'Nf3', 'Nc6']);
    // The opening reached is named over the move list, as the server names it.
    const named = (await serverGame(id)).opening;
    assert.ok(named?.eco && named?.name, 'the server names the opening');
    await b.waitForSelector('#opening:not([hidden])');
    assert.equal(await b.textContent('#opening-eco'), named.eco);
    assert.equal(await b.textContent('#opening-name'), named.name);

    // Bob offers; Alice accepts: a draw by agreement, on both pages and the spectator's.
    await b.click('#btn-draw');
    await a.waitForSelector('#draw-offer:not([hidden])');
    await a.click('#draw-accept');
    for (const page of [a, b, watcher.page]) await waitForStatus(page, /Draw by agreement/);
    const game = await serverGame(id);
    assert.equal(game.status, 'draw');
    assert.equal(game.reason, 'agreement');
    assert.equal(game.result, '1/2-1/2');
    await shot(a, 'friend-4-drawn');
    await shot(watcher.page, 'friend-5-spectator');
    assert.deepEqual(watcher.errors, []);
  } finally {
    await watcher.close();
  }
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});

test('a takeback request between people is accepted by the other side', async () => {
  const { id, a, b } = await startWithFriend({ side: 'black' });
  // Alice chose Black: Bob's link plays White.
  assert.ok((await a.getAttribute('#board', 'class')).includes('orientation-black'));
  await b.waitForSelector('#board.orientation-white');
  await clickMove(b, 'e2', 'e4');
  await waitForMoves(a, 1);
  await clickMove(a, 'e7', 'e5');
  await waitForMoves(b, 2);
  // Alice (Black) moved last and asks to take it back; Bob accepts: one ply goes.
  await a.click('#btn-takeback');
  await b.waitForSelector('#takeback-offer:not([hidden])');
  assert.match(await b.textContent('#takeback-offer-text'), /take back/);
  assert.equal((await serverGame(id)).moves.length, 2, 'nothing is taken back before the answer');
  await b.click('#takeback-accept');
  await waitForMoves(a, 1);
  await waitForMoves(b, 1);
  await waitForStatus(a, /Your move/);
  const game = await serverGame(id);
  assert.deepEqual(game.moves, ['e2e4']);
  assert.equal(game.takebackOffer, undefined);
  await clickMove(a, 'c7', 'c5');
  await waitForMoves(b, 2);
  assert.deepEqual(await moveListSan(b), ['e4', 'c5']);
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});

test('a game between people is aborted before both sides have moved', async () => {
  const { id, a, b } = await startWithFriend({ side: 'white' });
  await clickMove(a, 'd2', 'd4');
  await waitForMoves(b, 1);
  await b.waitForSelector('#btn-abort:not([hidden])');
  await b.click('#btn-abort');
  for (const page of [a, b]) await waitForStatus(page, /aborted/i);
  const game = await serverGame(id);
  assert.equal(game.status, 'aborted');
  assert.equal(game.result, '*');
  assert.equal(await a.isVisible('#btn-abort'), false);
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});

test('both players see the same clock, though one gets the news late', async () => {
  // Bob's WebSocket messages arrive late: a page that counted from a message's arrival would
  // show his clock that much behind Alice's.
  const DELAY_MS = 400;
  await bob.page.routeWebSocket(/api\/v1\/ws/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => setTimeout(() => ws.send(message), DELAY_MS));
  });
  try {
    const { a, b } = await startWithFriend({ side: 'white', clock: { minutes: 3, increment: 0 } });
    await clickMove(a, 'e2', 'e4');
    await waitForMoves(b, 1);
    await clickMove(b, 'e7', 'e5');
    await waitForMoves(a, 2);
    await clickMove(a, 'd2', 'd4');
    await waitForMoves(b, 3);
    await b.waitForTimeout(300);
    for (let sample = 0; sample < 5; sample++) {
      const [ra, rb] = await Promise.all([clockReading(a), clockReading(b)]);
      // Black's clock runs: compare the two at the same moment.
      const blackA = ra.black - (rb.at - ra.at);
      assert.ok(Math.abs(blackA - rb.black) <= 100, `Black's clock: Alice ${Math.round(blackA)} ms, Bob ${Math.round(rb.black)} ms`);
      assert.ok(Math.abs(ra.white - rb.white) <= 100, `White's clock: Alice ${ra.white} ms, Bob ${rb.white} ms`);
      await a.waitForTimeout(200);
    }
    await shot(b, 'friend-6-clocks');
  } finally {
    await bob.page.unrouteAll({ behavior: 'ignoreErrors' });
  }
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});

test('a player who left is claimed against after the grace time', async () => {
  const { id, a, b } = await startWithFriend({ side: 'white' });
  await clickMove(a, 'e2', 'e4');
  await waitForMoves(b, 1);
  await clickMove(b, 'e7', 'e5');
  await waitForMoves(a, 2);
  assert.equal(await a.isVisible('#claim'), false, 'nothing to claim while Bob is here');
  // Bob closes the page.
  await b.goto('about:blank');
  await a.waitForSelector('.presence-item[data-side="black"][data-online="false"]');
  await a.waitForSelector('#claim:not([hidden])');
  // The server's grace (3 s in these tests) runs out, then the claim buttons are enabled.
  await a.waitForSelector('#btn-claim-victory:not([disabled])', { timeout: 15000 });
  await shot(a, 'friend-7-claim');
  await a.click('#btn-claim-victory');
  await waitForStatus(a, /Black left the game — White wins/);
  const game = await serverGame(id);
  assert.equal(game.result, '1-0');
  assert.equal(game.winner, 'white');
  assert.deepEqual(alice.errors, []);
});

test('after the game ends neither player is shown as away (the server stops tracking presence)', async () => {
  const { a, b } = await startWithFriend({ side: 'white' });
  await a.waitForSelector('.presence-item[data-side="black"][data-online="true"]');
  await clickMove(a, 'e2', 'e4');
  await waitForMoves(b, 1);
  await b.click('#btn-resign');
  await b.click('#btn-resign');
  for (const page of [a, b]) {
    await waitForStatus(page, /Black resigned/);
    // Read again (a reload; a rematch offer's answer does the same): the server says both sides
    // false once the game is over (it removed their entries), though both are here.
    await page.reload();
    await waitForStatus(page, /Black resigned/);
    await page.waitForFunction(() => {
      const presence = window.outpost.snapshot().game?.presence;
      return presence?.white === false && presence?.black === false;
    });
    await page.waitForTimeout(200);
    assert.equal(await page.isHidden('#presence'), true, 'no "You: away" line');
    assert.equal(await page.isHidden('#people-card'), true, 'no empty card (all it holds is for a game going on)');
    assert.equal(await page.locator('.player-bar[data-online]').count(), 0, 'no "(away)" beside a name');
  }
  await shot(a, 'friend-9-over-no-away');
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});

test('a rematch declined is said to the side that offered it; one withdrawn is not', async () => {
  const { a, b } = await startWithFriend({ side: 'white' });
  await clickMove(a, 'e2', 'e4');
  await waitForMoves(b, 1);
  await b.click('#btn-resign');
  await b.click('#btn-resign');
  await a.waitForSelector('#game-over:not([hidden]) #game-over-rematch:not([hidden])');
  await b.waitForSelector('#game-over:not([hidden]) #game-over-rematch:not([hidden])');
  const toastText = (page) => page.evaluate(() => document.querySelector('#toast')?.textContent ?? '');
  const offerAndWait = async () => {
    await a.click('#game-over-rematch');
    await a.waitForFunction(() => /Rematch offered/.test(document.querySelector('#game-over-rematch').textContent));
    await b.waitForFunction(() => /Accept rematch/.test(document.querySelector('#game-over-rematch').textContent), null, {
      timeout: 10000,
    });
  };
  // Alice offers and withdraws her own offer: no word of a decline.
  await offerAndWait();
  await a.click('#game-over-rematch-no');
  await a.waitForFunction(() => document.querySelector('#game-over-rematch').textContent === 'Rematch');
  await b.waitForFunction(() => document.querySelector('#game-over-rematch').textContent === 'Rematch', null, { timeout: 10000 });
  await a.waitForTimeout(300);
  assert.doesNotMatch(await toastText(a), /declined/);
  // She offers again; Bob declines: she is told (the button going back to "Rematch" said nothing).
  await offerAndWait();
  await b.click('#game-over-rematch-no');
  await a.waitForFunction(() => /declined the rematch/.test(document.querySelector('#toast')?.textContent ?? ''), null, {
    timeout: 10000,
  });
  assert.equal(await a.textContent('#game-over-rematch'), 'Rematch');
  assert.doesNotMatch(await toastText(b), /declined the rematch/);
  await shot(a, 'friend-10-rematch-declined');
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});

test('the creator who opens its own invite link keeps its side; the friend still gets the other', async () => {
  const a = alice.page;
  const b = bob.page;
  await a.goto(BASE_URL);
  const { id, invite } = await newFriendGame(a, { side: 'white' });
  const keptToken = (page) => page.evaluate((gameId) => localStorage.getItem(`outpost.token.${gameId}`), id);
  const whiteToken = await keptToken(a);
  assert.ok(whiteToken, 'the creator keeps its token');
  // Alice opens the link she is to send in another tab of her browser: it tells her so, and
  // takes nothing from her.
  const tab = await alice.context.newPage();
  try {
    await tab.goto(invite);
    await tab.waitForFunction((gameId) => window.outpost?.snapshot().game?.id === gameId, id);
    // (The toast's text, not its visibility: it may have gone again on a slow machine.)
    await tab.waitForFunction(() => /your own invite link/.test(document.querySelector('#toast')?.textContent ?? ''));
    assert.equal(await tab.evaluate(() => location.hash), '', 'the token left the address bar');
    assert.equal(await tab.getAttribute('body', 'data-role'), 'player');
    assert.ok((await tab.getAttribute('#board', 'class')).includes('orientation-white'), 'the tab shows her side, White');
  } finally {
    await tab.close();
  }
  await a.reload();
  await a.waitForFunction((gameId) => window.outpost?.snapshot().game?.id === gameId, id);
  assert.equal(await keptToken(a), whiteToken, 'White\'s token stays hers');
  assert.ok((await a.getAttribute('#board', 'class')).includes('orientation-white'));
  await a.waitForSelector('#invite:not([hidden])');
  assert.equal(await a.inputValue('#invite-link'), invite, 'the card still offers the link to Black');
  await shot(a, 'friend-8-own-invite');

  // The friend opens it in his browser: he plays Black, she White.
  await b.goto(invite);
  await b.waitForFunction((gameId) => window.outpost?.snapshot().game?.id === gameId, id);
  await b.waitForSelector('#board.orientation-black');
  await clickMove(a, 'e2', 'e4');
  await waitForMoves(b, 1);
  await waitForStatus(b, /Your move/);
  await clickMove(b, 'e7', 'e5');
  await waitForMoves(a, 2);
  assert.deepEqual((await serverGame(id)).moves, ['e2e4', 'e7e5']);
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
