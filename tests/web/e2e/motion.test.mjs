// A person whose system asks for less motion (prefers-reduced-motion: reduce): the pieces jump to
// their squares (chessground's slide is off) and the page's own animations (the game-over card's
// pop, the pulses) do not play. With no such setting the pieces slide as before.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickMove, newGame, openBrowser, waitForAtLeastMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

/** Counts the pieces chessground marks as sliding (class "anim") from now on. */
async function watchSlides(page) {
  await page.evaluate(() => {
    window.__slides = 0;
    new MutationObserver((records) => {
      for (const r of records) if (r.target.tagName === 'PIECE' && r.target.classList.contains('anim')) window.__slides++;
    }).observe(document.querySelector('cg-board'), { attributes: true, attributeFilter: ['class', 'style'], subtree: true });
  });
  return () => page.evaluate(() => window.__slides);
}

async function playOneMove(page) {
  await newGame(page, { side: 'white', level: '1' });
  const slides = await watchSlides(page);
  await clickMove(page, 'e2', 'e4');
  // The engine's reply is drawn by the page (a click's move is drawn where it is clicked).
  await waitForAtLeastMoves(page, 2, 15000);
  await page.waitForTimeout(400);
  return slides();
}

test('with no motion setting the engine’s reply slides into place', async () => {
  const { page } = browser;
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto(process.env.OUTPOST_URL);
  assert.ok((await playOneMove(page)) > 0, 'a piece slid');
});

test('with reduced motion the pieces jump and the game-over card does not pop', async () => {
  const { page, errors } = browser;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(process.env.OUTPOST_URL);
  assert.equal(await playOneMove(page), 0, 'no piece slid');
  // A mate in one: the card comes with no animation running.
  await newGame(page, { side: 'white', start: '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1' });
  await clickMove(page, 'a1', 'a8');
  await page.waitForSelector('#game-over:not([hidden])');
  const running = await page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === 'running' && Number(a.effect?.getComputedTiming().duration) > 1)
      .map((a) => a.animationName ?? a.transitionProperty ?? 'animation'),
  );
  assert.deepEqual(running, []);
  assert.deepEqual(errors, []);
});
