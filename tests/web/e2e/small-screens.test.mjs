// Small and short screens: a phone held sideways and a narrow, short desktop window. The board and
// its two player bars (the clocks) are all on screen at once, without scrolling either way, and a
// game is played there by touch (tap-tap and a touch drag) or by mouse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE_URL, clickMove, moveListSan, newGame, openBrowser, shot, squareCenter, waitForAtLeastMoves } from './helpers.mjs';

/** Each element's box against the window (at the scroll position the page is at). */
async function onScreen(page, selectors) {
  return page.evaluate((list) => {
    const out = {};
    for (const selector of list) {
      const box = document.querySelector(selector).getBoundingClientRect();
      out[selector] = {
        inside: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5,
        box: [Math.round(box.left), Math.round(box.top), Math.round(box.right), Math.round(box.bottom)],
      };
    }
    return { out, window: [innerWidth, innerHeight], scrollWidth: document.documentElement.scrollWidth };
  }, selectors);
}

async function assertBoardInView(page, extra = []) {
  const { out, window, scrollWidth } = await onScreen(page, ['cg-board', '#bar-top', '#bar-bottom', ...extra]);
  for (const [selector, { inside, box }] of Object.entries(out)) {
    assert.ok(inside, `${selector} at ${box.join(',')} is within the ${window.join('x')} window`);
  }
  assert.ok(scrollWidth <= window[0], `the page is ${scrollWidth} px wide in a ${window[0]} px window`);
}

/** A touch drag from one square to another, as a finger does it (touchstart, moves, touchend). */
async function touchDrag(page, from, to) {
  const cdp = await page.context().newCDPSession(page);
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: a.x, y: a.y }] });
  for (let i = 1; i <= 8; i++) {
    const point = { x: a.x + ((b.x - a.x) * i) / 8, y: a.y + ((b.y - a.y) * i) / 8 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

async function tapMove(page, from, to) {
  for (const square of [from, to]) {
    const { x, y } = await squareCenter(page, square);
    await page.touchscreen.tap(x, y);
  }
}

for (const [width, height] of [
  [844, 390],
  [667, 375],
]) {
  test(`a phone held sideways (${width}x${height}): the whole board, its clocks and the status are in view, moves by tap and by touch drag`, async () => {
    const phone = await openBrowser({ width, height, isMobile: true });
    try {
      const { page, errors } = phone;
      await page.goto(BASE_URL);
      await newGame(page, { side: 'white', level: '1', clock: { minutes: 5, increment: 0 } });
      await page.evaluate(() => window.scrollTo(0, 0));
      // The status line sits beside the board, not a scroll below it.
      await assertBoardInView(page, ['#game-status']);
      await tapMove(page, 'e2', 'e4');
      await waitForAtLeastMoves(page, 2, 15000);
      await touchDrag(page, 'g1', 'f3');
      await waitForAtLeastMoves(page, 4, 15000);
      assert.deepEqual((await moveListSan(page)).filter((_, i) => i % 2 === 0), ['e4', 'Nf3']);
      await page.evaluate(() => window.scrollTo(0, 0));
      await assertBoardInView(page, ['#game-status']);
      await shot(page, `small-screen-${width}x${height}`);
      assert.deepEqual(errors, []);
    } finally {
      await phone.close();
    }
  });
}

test('a narrow, short desktop window (800x700): the whole board and its clocks are in view', async () => {
  const narrow = await openBrowser({ width: 800, height: 700 });
  try {
    const { page, errors } = narrow;
    await page.goto(BASE_URL);
    await newGame(page, { side: 'white', level: '1' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await assertBoardInView(page);
    await clickMove(page, 'e2', 'e4');
    await waitForAtLeastMoves(page, 2, 15000);
    await page.evaluate(() => window.scrollTo(0, 0));
    await assertBoardInView(page);
    await shot(page, 'small-screen-800x700');
    assert.deepEqual(errors, []);
  } finally {
    await narrow.close();
  }
});
