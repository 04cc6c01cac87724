// A large analysis board stays usable: a pasted PGN of 200 plies with 30 variations at one move
// (one of them 100 plies deep) opens, is walked by keys and clicks, edited, exported and kept
// across a reload, each step in well under a second or two.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { moveListSan, openBrowser, shot, waitForMoves } from './helpers.mjs';

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

const OPENING = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'd3', 'd6', 'O-O', 'Nf6'];
/** The kings walk back and forth after 5... Nf6 (White castled, Black's f8 is free). */
const WALK = ['Kh1', 'Kf8', 'Kg1', 'Ke8'];
/** 30 other moves for White at 6. (instead of 6. Kh1). */
const ALTERNATIVES = ['Nbd2', 'Na3', 'Nc3', 'Bd2', 'Be3', 'Bf4', 'Bg5', 'Bh6', 'Qe1', 'Qd2', 'Qe2', 'Re1', 'a3', 'a4', 'b3',
  'b4', 'c3', 'g3', 'g4', 'h3', 'h4', 'd4', 'Ne1', 'Nfd2', 'Nd4', 'Nh4', 'Nxe5', 'Ng5', 'Bb3', 'Bb5'];

/** Movetext of `san` from ply `first` (0: 1. White), numbered as in a PGN. */
function movetext(san, first) {
  return san
    .map((move, i) => {
      const ply = first + i;
      if (ply % 2 === 0) return `${ply / 2 + 1}. ${move}`;
      return i === 0 ? `${(ply - 1) / 2 + 1}... ${move}` : move;
    })
    .join(' ');
}

const main = [...OPENING];
while (main.length < 200) main.push(WALK[(main.length - OPENING.length) % 4]);
// 6. a3 goes on for 100 plies: Black's king first, then White's.
const deep = ['a3'];
while (deep.length < 100) deep.push(['Kf8', 'Kh1', 'Ke8', 'Kg1'][(deep.length - 1) % 4]);
const variations = ALTERNATIVES.map((move) => `(${movetext(move === 'a3' ? deep : [move], 10)})`).join(' ');
const PGN = `${movetext(OPENING, 0)} 6. Kh1 ${variations} ${movetext(main.slice(11), 11)} *`;

async function downloadPgn(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download-pgn')]);
  return fs.readFileSync(await download.path(), 'utf8');
}

/** Runs `step` and says how long it took, in ms. */
async function timed(step) {
  const started = Date.now();
  await step();
  return Date.now() - started;
}

test('200 plies, 30 variations at one move, one of them 100 plies deep: walked, edited, kept', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForSelector('#new-game[open]');
  await page.fill('#new-game textarea[name=start]', PGN);
  const opened = await timed(async () => {
    await page.click('#new-game-analyse');
    await waitForMoves(page, 200);
  });
  await page.click('#btn-stop');
  assert.ok(opened < 5000, `opened in ${opened} ms`);
  assert.equal(await page.locator('#move-list .move-variations > .variation').count(), 30);
  assert.equal(await page.locator('#move-list .variation-move').count(), 29 + 100);
  const pgn = await downloadPgn(page);
  for (const move of ALTERNATIVES) assert.ok(pgn.includes(`(6. ${move}`), `6. ${move} in the PGN`);

  // ←/→ along 200 plies: a hundred key presses (each moves the list's mark; move-list.test.mjs).
  await page.keyboard.press('End');
  const walked = await timed(async () => {
    for (let i = 0; i < 100; i++) await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.outpost.snapshot().viewPly === 100);
  });
  assert.ok(walked < 20000, `100 steps back in ${walked} ms`);

  // ↓ through the 30 variations at 6. (from 6. Kh1), then ↑ back to it.
  await page.keyboard.press('Home');
  for (let i = 0; i < 11; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.outpost.snapshot().viewPly === 11);
  const across = await timed(async () => {
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => window.outpost.snapshot().game.moves.at(-1) === 'c4b5');
  });
  assert.ok(across < 10000, `30 variations in ${across} ms`);
  assert.equal(await page.evaluate(() => window.outpost.snapshot().viewPly), 11);
  for (let i = 0; i < 17; i++) await page.keyboard.press('ArrowUp');
  // 6. a3, the deep one: its 100 plies on screen.
  await page.waitForFunction(() => window.outpost.snapshot().game.moves[10] === 'a2a3');
  await waitForMoves(page, 110);
  assert.deepEqual((await moveListSan(page)).slice(10, 13), ['a3', 'Kf8', 'Kh1']);
  await shot(page, 'analysis-big-1-deep-variation');

  // Made the main line, a move deep in it clicked and deleted from there; a reload keeps it all.
  await page.keyboard.press('Shift+M');
  await page.click('#move-list .move[data-ply="60"]');
  await page.keyboard.press('Delete');
  await waitForMoves(page, 59);
  const edited = await downloadPgn(page);
  // 6. a3 is the main line, to 30. Kg1 (its 59th ply, 30... Kf8 and after deleted); 6. Kh1 is
  // its first variation, whole, then the others in their order.
  assert.match(edited, /5\. O-O Nf6 6\. a3 \(6\. Kh1 Kf8 7\. Kg1 .* 100\. Kh1 Kf8\) \(6\. Nbd2\) .* \(6\. Bb5\) 6\.\.\. Kf8 7\. Kh1 .* 30\. Kg1 \*/);
  await page.reload();
  await waitForMoves(page, 59);
  await page.click('#btn-stop');
  assert.equal(await downloadPgn(page), edited);
  assert.equal(await page.locator('#move-list .move-variations > .variation').count(), 30);
  console.log(`opened ${opened} ms, 100 steps ${walked} ms, 30 variations ${across} ms`);
  assert.deepEqual(errors, []);
});

test('a long game with 1,440 late variations is kept across a reload (its lines once stored whole outgrew the tab)', async () => {
  const { page, errors } = browser;
  // The 30 alternatives at each of White's moves 6, 8, 10, … 100 (the same position each time).
  const parts = [];
  for (let ply = 0; ply < main.length; ply++) {
    const number = Math.floor(ply / 2) + 1;
    const afterVariations = ply % 2 === 1 && (ply - 11) % 4 === 0 && ply >= 11;
    if (ply % 2 === 0) parts.push(`${number}. ${main[ply]}`);
    else parts.push(afterVariations ? `${number}... ${main[ply]}` : main[ply]);
    if (ply >= 10 && (ply - 10) % 4 === 0) for (const move of ALTERNATIVES) parts.push(`(${number}. ${move})`);
  }
  const pgn = `${parts.join(' ')} *`;
  await page.goto(process.env.OUTPOST_URL);
  await page.waitForSelector('#new-game[open]');
  await page.fill('#new-game textarea[name=start]', pgn);
  await page.click('#new-game-analyse');
  await waitForMoves(page, 200);
  await page.click('#btn-stop');
  assert.equal(await page.locator('#move-list .move-variations > .variation').count(), 48 * 30);
  const exported = await downloadPgn(page);
  // A line tried after it was opened: 100. Bd5 instead of 100. Kh1.
  await page.click('#move-list .move[data-ply="198"]');
  await page.fill('#move-input', 'Bd5');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#move-list .move.current[data-ply="199"]');
  const key = await page.evaluate(() => new URLSearchParams(location.search).get('board'));
  await page.reload();
  await page.waitForFunction((k) => new URLSearchParams(location.search).get('board') === k && document.body.dataset.mode === 'analysis', key);
  await waitForMoves(page, 199);
  await page.click('#btn-stop');
  assert.equal(await page.evaluate(() => document.querySelector('#new-game').open), false, 'no new-game dialog: the board was kept');
  assert.equal(await page.evaluate(() => window.outpost.snapshot().game.moves.at(-1)), 'c4d5');
  const reloaded = await downloadPgn(page);
  assert.equal(reloaded.replace(' (100. Bd5)', ''), exported);
  assert.ok(reloaded.includes('(100. Bb5) (100. Bd5) 100... Kf8'));
  assert.deepEqual(errors, []);
});

test('a board the tab cannot keep (its storage full) says so, once, instead of losing its lines silently', async () => {
  const { page, errors } = browser;
  await page.goto(process.env.OUTPOST_URL);
  await page.click('#new-game-cancel');
  await page.click('#btn-analysis');
  await page.waitForSelector('#analysis-card:not([hidden])');
  await page.click('#btn-stop');
  // Another script of the site filled the tab's storage (the tab keeps no other board, which it
  // would forget to make room).
  await page.evaluate(() => {
    for (const key of Object.keys(sessionStorage)) if (!key.endsWith(new URLSearchParams(location.search).get('board'))) sessionStorage.removeItem(key);
    let i = 0;
    for (let size = 256 * 1024; size >= 1; size = Math.floor(size / 2)) {
      const chunk = 'x'.repeat(size);
      for (;;) {
        try {
          sessionStorage.setItem(`filler-${i++}`, chunk);
        } catch {
          break;
        }
      }
    }
  });
  await page.fill('#move-input', 'e4');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => /too large to keep in this tab/.test(document.querySelector('#toast').textContent));
  await page.evaluate(() => {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith('filler-')) sessionStorage.removeItem(key);
  });
  await page.fill('#move-input', 'e5');
  await page.press('#move-input', 'Enter');
  await waitForMoves(page, 2);
  await page.reload();
  await waitForMoves(page, 2);
  assert.deepEqual(await moveListSan(page), ['e4', 'e5']);
  assert.deepEqual(errors, []);
});
