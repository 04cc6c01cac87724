// The players' chat shows right-to-left lines the way their writers wrote them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { newFriendGame, openBrowser, shot } from './helpers.mjs';

let host;
let guest;
before(async () => {
  host = await openBrowser();
  guest = await openBrowser();
});
after(async () => {
  await host?.close();
  await guest?.close();
});

/** Where the first and the last character of a chat line's text are drawn (their left edges). */
async function edges(page, index) {
  return page.evaluate((i) => {
    const text = document.querySelectorAll('#chat-lines .chat-line .chat-text')[i].firstChild;
    const at = (offset) => {
      const range = document.createRange();
      range.setStart(text, offset);
      range.setEnd(text, offset + 1);
      return range.getBoundingClientRect().left;
    };
    return { first: at(0), last: at(text.length - 1) };
  }, index);
}

/** A game between the host (White) and the guest, both pages showing its chat card. */
async function openChatBetweenFriends() {
  await host.page.goto(process.env.OUTPOST_URL);
  const { invite } = await newFriendGame(host.page, { side: 'white' });
  await guest.page.goto(invite);
  await host.page.waitForSelector('#chat-card:not([hidden])');
  await guest.page.waitForSelector('#chat-card:not([hidden])');
}

test('a Hebrew chat line reads right to left, its question mark at its end', async () => {
  const { page } = host;
  await openChatBetweenFriends();

  const hebrew = 'מה שלומך?';
  for (const line of [hebrew, 'Good luck!']) {
    await page.fill('#chat-input', line);
    await page.press('#chat-input', 'Enter');
  }
  await guest.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 2, null, { timeout: 10000 });
  const texts = await guest.page.locator('#chat-lines .chat-line').allTextContents();
  assert.deepEqual(texts, [`White ${hebrew}`, 'White Good luck!'], 'the side and the text are two words');

  // Right to left: the first letter (מ) on the right, the closing "?" left of every letter. In a
  // left-to-right run the "?" was drawn at the right end, where a Hebrew reader starts.
  const rtl = await edges(guest.page, 0);
  assert.ok(rtl.last < rtl.first, `"?" (at ${rtl.last}) left of the first letter (at ${rtl.first})`);
  // A left-to-right line is unchanged: "G" first, "!" last.
  const ltr = await edges(guest.page, 1);
  assert.ok(ltr.first < ltr.last);
  // The chat box writes Hebrew right to left as it is typed.
  await guest.page.fill('#chat-input', hebrew);
  assert.equal(await guest.page.locator('#chat-input').evaluate((input) => input.matches(':dir(rtl)')), true);
  await guest.page.locator('#chat-card').scrollIntoViewIfNeeded();
  await shot(guest.page, 'chat-1-rtl');
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
});

test('a chat line of 140 emoji (the server counts code points) is sent whole, the 141st is not taken', async () => {
  const { page } = host;
  await openChatBetweenFriends();
  // Each emoji is two UTF-16 units: the box once took only 70 of them (maxLength counts units).
  await page.click('#chat-input');
  await page.keyboard.insertText('😀'.repeat(141));
  assert.equal(Array.from(await page.inputValue('#chat-input')).length, 140);
  await page.press('#chat-input', 'Enter');
  await guest.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 1, null, { timeout: 10000 });
  assert.equal(await guest.page.textContent('#chat-lines .chat-line .chat-text'), '😀'.repeat(140));
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
});

test('a chat line pasted with a tab (or a bidirectional isolate) is sent, the tab as a space; it was refused whole', async () => {
  const { page } = host;
  await openChatBetweenFriends();
  // Pasted from a table: the box keeps the tab (it drops only line breaks).
  await page.click('#chat-input');
  await page.keyboard.insertText('Nf3\tNc6\t\tgood game');
  assert.match(await page.inputValue('#chat-input'), /\t/, 'the box holds the tab');
  await page.press('#chat-input', 'Enter');
  // A name copied from an app that wraps it in first-strong isolates (U+2068 … U+2069).
  await page.fill('#chat-input', 'well played \u2068Alice\u2069\r');
  await page.press('#chat-input', 'Enter');
  await guest.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 2, null, { timeout: 10000 });
  assert.deepEqual(await guest.page.locator('#chat-lines .chat-text').allTextContents(), ['Nf3 Nc6  good game', 'well played Alice']);
  assert.equal(await page.inputValue('#chat-input'), '', 'sent: the box is empty');
  assert.deepEqual(host.errors, [], 'no refused request');
  assert.deepEqual(guest.errors, []);
});

test('a line typed while the last one is still on its way is kept and sent (the answer wiped it)', async () => {
  const { page } = host;
  await openChatBetweenFriends();
  // The first line's answer is held until the second line is typed.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  let first = true;
  await page.route('**/api/v1/games/*/chat', async (route) => {
    if (route.request().method() === 'POST' && first) {
      first = false;
      await held;
    }
    return route.continue();
  });
  try {
    await page.fill('#chat-input', 'first line');
    await page.press('#chat-input', 'Enter');
    await page.fill('#chat-input', 'second line');
    release();
    await page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 1, null, { timeout: 10000 });
    assert.equal(await page.inputValue('#chat-input'), 'second line', 'what was typed meanwhile is still in the box');
    await page.press('#chat-input', 'Enter');
    await guest.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 2, null, { timeout: 10000 });
    assert.deepEqual(await guest.page.locator('#chat-lines .chat-text').allTextContents(), ['first line', 'second line']);
  } finally {
    await page.unroute('**/api/v1/games/*/chat');
  }
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
});

test('chat lines said while the connection was down show once it is back, in their order', async () => {
  const { page } = host;
  // The guest's WebSocket loses what the server sends while `lost` (a network gone quiet).
  let lost = false;
  await guest.page.routeWebSocket(/api\/v1\/ws/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (!lost) ws.send(message);
    });
  });
  try {
    await page.goto(process.env.OUTPOST_URL);
    const { invite } = await newFriendGame(page, { side: 'white' });
    await guest.page.goto(invite);
    await guest.page.waitForSelector('#chat-card:not([hidden])');
    await guest.page.waitForSelector('#connection[data-state="open"]');
    const say = async (text) => {
      await page.fill('#chat-input', text);
      await page.press('#chat-input', 'Enter');
      await page.waitForFunction((t) => [...document.querySelectorAll('#chat-lines .chat-text')].some((e) => e.textContent === t), text);
    };
    await say('first');
    await guest.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 1, null, { timeout: 10000 });
    lost = true;
    await say('said while you were away');
    await say('and this too');
    // The connection drops and comes back.
    lost = false;
    await guest.page.evaluate(() => window.outpost.dropConnection());
    await guest.page.waitForSelector('#connection[data-state="open"]', { timeout: 10000 });
    await say('back again');
    await guest.page.waitForFunction(() => document.querySelectorAll('#chat-lines .chat-line').length === 4, null, { timeout: 10000 });
    assert.deepEqual(await guest.page.locator('#chat-lines .chat-text').allTextContents(), [
      'first',
      'said while you were away',
      'and this too',
      'back again',
    ]);
  } finally {
    await guest.page.unrouteAll({ behavior: 'ignoreErrors' });
  }
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
});
