// The analysis board is kept in the tab: a reload, Back and Forward bring back its whole tree of
// lines and the position on screen; stored games keep their own addresses beside it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { clickMove, moveListSan, newGame, openBrowser, shot, viewPly, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

const variations = (page) => page.locator('#move-list .move-variations .variation').allTextContents();
const shownPly = (page) => page.evaluate(() => window.outpost.snapshot().viewPly);
const boardKey = (page) => page.evaluate(() => new URLSearchParams(location.search).get('board'));

async function downloadPgn(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  return fs.readFileSync(await download.path(), 'utf8');
}

/** Waits until the page shows the analysis board kept under `key`, with `count` moves in its line. */
async function waitForBoard(page, key, count) {
  await page.waitForFunction((k) => new URLSearchParams(location.search).get('board') === k && document.body.dataset.mode === 'analysis', key);
  await waitForMoves(page, count);
}

test('a reload, Back and Forward bring the analysis board back: its lines and the position on screen', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  // A stored game first: Back from the board must find it again by its own address.
  const gameId = await newGame(page, { side: 'white', level: '1' });
  await page.click('#btn-analysis');
  await page.waitForSelector('#analysis-card:not([hidden])');
  await page.click('#btn-stop');
  const key = await boardKey(page);
  assert.ok(key, 'the board is named in the address');
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('game')), null);

  // 1. e4 e5 2. Bc4 (2. Nf3 Nc6 3. Bb5), then the variation's 2... Nc6 on screen, flipped.
  for (const [i, [from, to]] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6'], ['f1', 'b5']].entries()) {
    await clickMove(page, from, to);
    await waitForMoves(page, i + 1);
  }
  await viewPly(page, 2);
  await clickMove(page, 'f1', 'c4');
  await waitForMoves(page, 3);
  await page.click('#move-list .variation-move[data-line="e2e4 e7e5 g1f3 b8c6"]');
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  await page.click('#btn-flip');
  const pgnBefore = await downloadPgn(page);
  const fenBefore = await page.textContent('#fen');
  assert.match(pgnBefore, /1\. e4 e5 2\. Nf3 \(2\. Bc4\) 2\.\.\. Nc6 3\. Bb5 \*/);

  const expectSame = async (what) => {
    await waitForBoard(page, key, 5);
    assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5'], what);
    assert.deepEqual(await variations(page), ['(2. Bc4)'], what);
    assert.equal(await shownPly(page), 4, what);
    assert.equal(await page.textContent('#fen'), fenBefore, what);
    assert.equal(await page.locator('#board.orientation-black').count(), 1, `${what}: still flipped`);
    assert.equal(await page.evaluate(() => document.querySelector('#new-game').open), false, what);
    assert.equal(await downloadPgn(page), pgnBefore, what);
  };

  await page.reload();
  await expectSame('after a reload');
  await shot(page, 'analysis-reload-1-kept');

  // The board still takes moves after the reload: a new variation, 2... Nf6.
  await page.click('#btn-stop');
  await viewPly(page, 3);
  await clickMove(page, 'g8', 'f6');
  await waitForMoves(page, 4);
  await page.waitForSelector('#move-list .move.current[data-ply="4"]');
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3', 'Nf6']);
  assert.deepEqual(await variations(page), ['(2. Bc4)', '(2... Nc6 3. Bb5)']);

  // Back: the stored game at its own address; Forward: the board as it was left.
  await page.goBack();
  await page.waitForFunction((id) => new URLSearchParams(location.search).get('game') === id && window.outpost.snapshot().game?.id === id, gameId);
  assert.equal(await page.getAttribute('body', 'data-mode'), 'play');
  await page.goForward();
  await waitForBoard(page, key, 4);
  assert.deepEqual(await moveListSan(page), ['e4', 'e5', 'Nf3', 'Nf6']);
  assert.deepEqual(await variations(page), ['(2. Bc4)', '(2... Nc6 3. Bb5)']);
  assert.equal(await shownPly(page), 4);

  // A second board (from a pasted FEN) has its own key; Back brings the first one back.
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  await page.click('#btn-new');
  await page.fill('#new-game textarea[name=start]', fen);
  await page.click('#new-game-analyse');
  await page.waitForFunction((f) => document.querySelector('#fen')?.textContent === f, fen);
  const second = await boardKey(page);
  assert.ok(second && second !== key, 'a new board, a new key');
  await page.goBack();
  await waitForBoard(page, key, 4);
  assert.deepEqual(await variations(page), ['(2. Bc4)', '(2... Nc6 3. Bb5)']);
  await page.goForward();
  await page.waitForFunction(({ k, f }) => new URLSearchParams(location.search).get('board') === k && document.querySelector('#fen')?.textContent === f, { k: second, f: fen });

  // A key this tab does not keep (an address from elsewhere): the new-game dialog, as on a first visit.
  await page.goto(new URL('?board=local-unknown', process.env.OUTPOST_URL).toString());
  await page.waitForFunction(() => document.querySelector('#new-game').open);
  await page.click('#new-game-cancel');
  // A fresh visit still opens the new-game dialog.
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForFunction(() => document.querySelector('#new-game').open);
  await page.click('#new-game-cancel');
  assert.deepEqual(errors, []);
});

test('only the latest boards are kept: the oldest is forgotten first', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.click('#new-game-cancel');
  // MAX_BOARDS in web/src/analysis/keptBoards.ts, plus one.
  const keys = [];
  for (let i = 0; i < 21; i++) {
    await page.click('#btn-analysis');
    await page.waitForFunction((known) => {
      const key = new URLSearchParams(location.search).get('board');
      return !!key && !known.includes(key);
    }, keys);
    keys.push(await boardKey(page));
  }
  await page.click('#btn-stop');
  await page.goto(new URL(`?board=${keys[1]}`, process.env.OUTPOST_URL).toString());
  await waitForBoard(page, keys[1], 0);
  await page.goto(new URL(`?board=${keys[0]}`, process.env.OUTPOST_URL).toString());
  await page.waitForFunction(() => document.querySelector('#new-game').open);
  assert.deepEqual(errors, []);
});

// Each ← / → step used to write the whole board to the tab's storage (a millisecond or two each,
// holding the key down); the steps are kept once they pause, or as the page goes: a reload right
// after quick steps still shows the last position.
test('quick steps through a board write it once, and a reload at once still shows the last position', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.click('#new-game-cancel');
  await page.click('#btn-analysis');
  await page.waitForFunction(() => !!new URLSearchParams(location.search).get('board'));
  const key = await boardKey(page);
  await page.click('#btn-stop');
  for (const [i, [from, to]] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6'], ['f1', 'b5'], ['a7', 'a6']].entries()) {
    await clickMove(page, from, to);
    await waitForMoves(page, i + 1);
  }
  const keptPly = (k) => page.evaluate((id) => JSON.parse(sessionStorage.getItem(`outpost.board.${id}`) ?? 'null')?.ply, k);
  assert.equal(await keptPly(key), 6);
  /** Presses `key` `times` times at once; how many times the board was written to the tab meanwhile. */
  const steps = (arrow, times, reload = false) =>
    page.evaluate(
      ({ arrow, times, reload }) => {
        const setItem = Storage.prototype.setItem;
        let writes = 0;
        Storage.prototype.setItem = function (name, value) {
          if (name.startsWith('outpost.board.')) writes++;
          return setItem.call(this, name, value);
        };
        try {
          for (let i = 0; i < times; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: arrow, bubbles: true }));
        } finally {
          Storage.prototype.setItem = setItem;
        }
        if (reload) location.reload();
        return writes;
      },
      { arrow, times, reload },
    );
  assert.equal(await steps('ArrowLeft', 5), 0, 'no write at each step');
  assert.equal(await shownPly(page), 1);
  // Kept once the steps pause.
  await page.waitForFunction((id) => JSON.parse(sessionStorage.getItem(`outpost.board.${id}`) ?? 'null')?.ply === 1, key);
  // Three steps on, and the page reloaded in the same moment: the position is the last one.
  await steps('ArrowRight', 3, true);
  await waitForBoard(page, key, 6);
  assert.equal(await shownPly(page), 4);
  assert.equal(await keptPly(key), 4);
  assert.deepEqual(errors, []);
});
