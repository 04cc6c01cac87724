// Game review: a finished game with a known blunder is reviewed; the evaluation graph, the classes
// in the move list, the summary, "next/previous mistake" and the better move's arrow show it; the
// review is shown again after a reload. A pasted PGN is reviewed on an analysis board; a busy
// server and a failed review are said clearly. The expectations hold for a real engine's review
// (a move that walks into mate in one, or gives the queen for a pawn, is a blunder), not only
// for the mock's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, clickMove, openBrowser, shot } from './helpers.mjs';

// 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7#: Black's 3...Nf6 (ply 6) walks into mate in one.
const SCHOLAR = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
const SCHOLAR_BLUNDER = 6;
// 1. e4 e5 2. Qh5 Nc6 3. Qxe5+?? Nxe5 4. Nc3: White's 3. Qxe5+ (ply 5) gives the queen for a pawn.
const QUEEN_PGN = '[Event "Review test"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 4. Nc3 *\n';
const QUEEN_BLUNDER = 5;
// A small budget per position: the review of a short game takes a few seconds on a real server.
const LIMITS = { depth: 8 };
const FLAGGED = ['inaccuracy', 'mistake', 'blunder'];
const REVIEW_TIMEOUT = 60000;

/**
 * The page's errors, less the browser's own lines about answers the page expects: 404 (a game
 * without a kept review) and the 503 the busy test makes.
 */
const unexpected = (errors) => errors.filter((e) => !/Failed to load resource: the server responded with a status of (404|503)/.test(e));

let browser;
before(async () => {
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
});

async function createGame(moves) {
  const response = await fetch(new URL('api/v1/games', BASE_URL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ moves, engine: { side: 'none' } }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return response.json();
}

/** Opens a game with the review budget set, and its live analysis stopped (the review gets the CPU). */
async function openGame(page, id) {
  await page.goto(BASE_URL);
  await page.evaluate((limits) => localStorage.setItem('outpost.review.limits', JSON.stringify(limits)), LIMITS);
  await page.goto(new URL(`?game=${id}`, BASE_URL).toString());
  await page.waitForSelector('#move-list .move[data-ply="1"]');
  await stopAnalysis(page);
}

async function stopAnalysis(page) {
  if (!(await page.isVisible('#analysis-card'))) return;
  await page.waitForSelector('#btn-stop:not([disabled]), #analysis-card[data-running="false"]');
  if (await page.isEnabled('#btn-stop')) await page.click('#btn-stop');
  await page.waitForSelector('#analysis-card[data-running="false"]');
}

async function waitForReview(page, phase = 'done') {
  await page.waitForSelector(`#review-card[data-phase="${phase}"]`, { timeout: REVIEW_TIMEOUT });
}

const currentPly = (page) => page.evaluate(() => window.outpost.snapshot().viewPly);

/** The class shown in the move list for every move (null: no class). */
async function moveClasses(page) {
  return page.$$eval('#move-list .move[data-ply]', (buttons) =>
    Object.fromEntries(buttons.map((b) => [Number(b.dataset.ply), b.dataset.class ?? null])),
  );
}

/** Presses "next mistake" from the start until `target` is shown; every stop is a flagged move. */
async function nextMistakeUntil(page, target) {
  await page.click('#nav-first');
  const classes = await moveClasses(page);
  const stops = [];
  for (let i = 0; i < 40 && (await currentPly(page)) !== target; i++) {
    assert.ok(await page.isEnabled('#review-next'), `"next mistake" reaches ply ${target} (stopped at ${stops})`);
    const from = await currentPly(page);
    await page.click('#review-next');
    await page.waitForFunction((ply) => window.outpost.snapshot().viewPly !== ply, from);
    const ply = await currentPly(page);
    assert.ok(FLAGGED.includes(classes[ply]), `next mistake lands on a flagged move (ply ${ply}: ${classes[ply]})`);
    stops.push(ply);
  }
  assert.equal(await currentPly(page), target);
  return stops;
}

test('a finished game with a blunder: graph, classes, summary, navigation, reload', async () => {
  const { page, errors } = browser;
  const game = await createGame(SCHOLAR);
  assert.equal(game.status, 'checkmate');
  await openGame(page, game.id);

  // The finished game offers a review (on the game-over card and among the actions).
  await page.waitForSelector('#game-over:not([hidden]) #game-over-review:not([hidden])');
  assert.ok(await page.isVisible('#btn-review'));
  await page.click('#game-over-review');
  await page.waitForSelector('#review-card:not([hidden])');
  // The graph fills in as the positions are done (a fast review may already be finished).
  await page.waitForSelector('#eval-graph:not([hidden]) svg', { timeout: REVIEW_TIMEOUT });
  if ((await page.getAttribute('#review-card', 'data-phase')) === 'running') await shot(page, 'review-1-running');
  await waitForReview(page);
  assert.ok(!(await page.isVisible('#btn-review')), 'a reviewed game offers no second review');

  // The graph: White's area, the blunder as a red dot at its ply.
  assert.ok((await page.locator('#eval-graph .eg-white').count()) >= 1);
  assert.equal(await page.locator(`#eval-graph .eg-blunder[data-ply="${SCHOLAR_BLUNDER}"]`).count(), 1);
  assert.equal(await page.getAttribute('#eval-graph svg', 'aria-valuemax'), String(SCHOLAR.length));

  // The move list: 3...Nf6 is a blunder, marked "??"; the mating move is not flagged.
  const classes = await moveClasses(page);
  assert.equal(classes[SCHOLAR_BLUNDER], 'blunder');
  assert.match(await page.textContent(`#move-list .move[data-ply="${SCHOLAR_BLUNDER}"]`), /Nf6\?\?/);
  assert.ok(!FLAGGED.includes(classes[SCHOLAR.length]), 'Qxf7# is not a mistake');

  // The mated position (scored mate 0, the side to move mated): the bar is White's, and says so.
  await page.click(`#move-list .move[data-ply="${SCHOLAR.length}"]`);
  await page.waitForFunction((ply) => window.outpost.snapshot().viewPly === ply, SCHOLAR.length);
  await page.waitForFunction(() => document.querySelector('#eval-bar .eval-label')?.textContent === '1-0');
  assert.equal(await page.locator('#eval-bar .eval-fill').evaluate((fill) => Number.parseFloat(fill.style.height)), 100);

  // The summary: Black made at least one blunder; accuracies are percentages.
  const blackBlunders = Number(await page.textContent('#review-summary .rs-blunder td:nth-of-type(2)'));
  assert.ok(blackBlunders >= 1, `black blunders: ${blackBlunders}`);
  assert.match(await page.textContent('#review-summary .rs-accuracy td:nth-of-type(1)'), /^\d+%$/);

  // "Next mistake" from the start lands on the blunder; the card names it and the better move,
  // and the board shows that move as a green arrow.
  await nextMistakeUntil(page, SCHOLAR_BLUNDER);
  await page.waitForSelector(`#move-list .move.current[data-ply="${SCHOLAR_BLUNDER}"]`);
  const detail = await page.textContent('#review-move');
  assert.match(detail, /Blunder/);
  assert.match(detail, /Best was \S+/);
  assert.match(detail, /forced mate/);
  assert.ok((await page.locator('.cg-shapes line[stroke="#15781B"]').count()) >= 1, 'the better move is an arrow');
  assert.equal(await page.getAttribute('#eval-graph svg', 'aria-valuenow'), String(SCHOLAR_BLUNDER));
  await shot(page, 'review-2-blunder');

  // "Previous mistake" goes back to an earlier flagged move, or is off when there is none.
  const earlier = Object.entries(classes).filter(([ply, cls]) => Number(ply) < SCHOLAR_BLUNDER && FLAGGED.includes(cls));
  if (earlier.length === 0) assert.ok(await page.isDisabled('#review-prev'));
  else {
    await page.click('#review-prev');
    await page.waitForFunction((n) => window.outpost.snapshot().viewPly < n, SCHOLAR_BLUNDER);
  }

  // A click on the graph shows that position; the graph is a slider for the keyboard.
  const box = await page.locator('#eval-graph svg').boundingBox();
  const pad = 6;
  await page.mouse.click(box.x + pad + (3 * (box.width - 2 * pad)) / SCHOLAR.length, box.y + box.height / 2);
  await page.waitForFunction(() => window.outpost.snapshot().viewPly === 3);
  await page.focus('#eval-graph svg');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.outpost.snapshot().viewPly === 4);
  assert.equal(await page.getAttribute('#eval-graph svg', 'aria-valuenow'), '4');

  // A reload shows the kept review again.
  await page.reload();
  await waitForReview(page);
  await page.waitForSelector(`#move-list .move[data-ply="${SCHOLAR_BLUNDER}"][data-class="blunder"]`);
  assert.equal(await page.locator(`#eval-graph .eg-blunder[data-ply="${SCHOLAR_BLUNDER}"]`).count(), 1);
  await page.click(`#move-list .move[data-ply="${SCHOLAR_BLUNDER}"]`);
  await shot(page, 'review-3-after-reload');
  // The same in the dark theme, and on a phone (the graph under the board, full width).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(400); // the buttons' colour transition
  await shot(page, 'review-3-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#eval-graph').scrollIntoViewIfNeeded();
  await shot(page, 'review-3-phone');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(unexpected(errors), []);
});

test('a pasted PGN is reviewed on an analysis board, and kept across a reload', async () => {
  const { page, errors } = browser;
  await page.goto(BASE_URL);
  await page.evaluate((limits) => localStorage.setItem('outpost.review.limits', JSON.stringify(limits)), LIMITS);
  await page.reload();
  await page.click('#new-game-cancel');
  await page.click('#btn-review-pgn');
  // Not a game: said in the dialog.
  await page.fill('#review-pgn-text', 'hello');
  await page.click('#review-pgn-start');
  await page.waitForFunction(() => document.querySelector('#review-pgn-error').textContent.length > 0);
  await page.fill('#review-pgn-text', QUEEN_PGN);
  await page.click('#review-pgn-start');
  await page.waitForFunction(() => new URLSearchParams(location.search).has('review'), null, { timeout: REVIEW_TIMEOUT });
  await waitForReview(page);
  assert.equal(await page.getAttribute('body', 'data-mode'), 'analysis');
  assert.equal((await moveClasses(page))[QUEEN_BLUNDER], 'blunder');
  await nextMistakeUntil(page, QUEEN_BLUNDER);
  assert.match(await page.textContent('#review-move'), /Qxe5\+\?\?.*Blunder/s);
  const whiteBlunders = Number(await page.textContent('#review-summary .rs-blunder td:nth-of-type(1)'));
  assert.ok(whiteBlunders >= 1);
  await shot(page, 'review-4-pasted-pgn');

  await page.reload();
  await waitForReview(page);
  await page.waitForSelector(`#move-list .move[data-ply="${QUEEN_BLUNDER}"][data-class="blunder"]`);
  assert.match(await page.textContent('#review-status'), /^7 moves reviewed/);
  assert.doesNotMatch(await page.textContent('#review-status'), /more since|leaves/);

  // A line tried from 2...Nc6 leaves the reviewed game there: the card says so (not "more since").
  await page.click('#move-list .move[data-ply="4"]');
  await page.waitForFunction(() => window.outpost.snapshot().viewPly === 4);
  await clickMove(page, 'f1', 'c4');
  await page.waitForFunction(() => window.outpost.snapshot().game?.moves.length === 5);
  await page.waitForSelector('#review-status:has-text("the line on screen leaves the reviewed game after move 4")');
  assert.doesNotMatch(await page.textContent('#review-status'), /more since/);
  assert.deepEqual(unexpected(errors), []);
});

test('a pasted PGN under review has the line tools at once: Delete from here makes it a board in the page, its review kept', async () => {
  const { page, errors } = browser;
  await page.goto(BASE_URL);
  await page.evaluate((limits) => localStorage.setItem('outpost.review.limits', JSON.stringify(limits)), LIMITS);
  await page.reload();
  await page.click('#new-game-cancel');
  await page.click('#btn-review-pgn');
  await page.fill('#review-pgn-text', QUEEN_PGN);
  await page.click('#review-pgn-start');
  await page.waitForFunction(() => new URLSearchParams(location.search).has('review'), null, { timeout: REVIEW_TIMEOUT });
  // The tools are there before any line is tried: the pasted game is the main line.
  await page.waitForSelector('#line-tools:not([hidden])');
  assert.equal(await page.textContent('#line-kind'), 'Main line');
  assert.ok(await page.isDisabled('#btn-line-main'));
  assert.ok(await page.isEnabled('#btn-line-delete'));
  await waitForReview(page);

  // Delete from 3. Qxe5+ (the Delete key): the board becomes a board in the page without it.
  await page.click(`#move-list .move[data-ply="${QUEEN_BLUNDER}"]`);
  await page.waitForFunction((n) => window.outpost.snapshot().viewPly === n, QUEEN_BLUNDER);
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => window.outpost.snapshot().game?.moves.join(' ') === 'e2e4 e7e5 d1h5 b8c6');
  assert.equal(await currentPly(page), 4);
  assert.ok(await page.evaluate(() => new URLSearchParams(location.search).has('board')), 'a board in the page');
  assert.match(await page.textContent('#toast'), /Deleted 3\. Qxe5\+ and 2 moves after it/);
  // The review of the moves kept stays on screen.
  assert.equal(await page.getAttribute('#review-card', 'data-phase'), 'done');
  // Undo brings the pasted game's moves back, on the board in the page.
  await page.click('#btn-line-undo');
  await page.waitForFunction(() => window.outpost.snapshot().game?.moves.length === 7);
  assert.equal(await currentPly(page), QUEEN_BLUNDER);
  assert.deepEqual(unexpected(errors), []);
});

test('a busy server and a failed review are said clearly', async () => {
  const { page, errors } = browser;
  const game = await createGame(SCHOLAR);
  // The server answers 503 with Retry-After (its review queue is full) to the first request.
  let refused = 0;
  await page.route('**/api/v1/games/*/review', async (route) => {
    if (route.request().method() === 'POST' && refused === 0) {
      refused++;
      await route.fulfill({
        status: 503,
        headers: { 'Retry-After': '2', 'Content-Type': 'application/json' },
        body: JSON.stringify({ error: { code: 'overloaded', message: 'The review queue is full' } }),
      });
      return;
    }
    await route.fallback();
  });
  await openGame(page, game.id);
  await page.click('#btn-review');
  await waitForReview(page, 'busy');
  assert.match(await page.textContent('#review-status'), /busy.*Try again in \d+ s/);
  assert.ok(await page.isDisabled('#review-again'));
  await shot(page, 'review-5-busy');
  // After the wait, "Try again" starts it.
  await page.waitForSelector('#review-again:not([disabled])', { timeout: 5000 });
  await page.click('#review-again');
  await waitForReview(page);
  await page.unroute('**/api/v1/games/*/review');

  // A review that fails on the server: the stream's last line says so.
  const other = await createGame(['e2e4', 'e7e5', 'g1f3']);
  await page.route('**/api/v1/games/*/review', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const review = { id: 'failing', gameId: other.id, status: 'running', initialFen: other.initialFen, moves: other.moves, san: other.san, done: 0, total: 4, plies: [] };
    await route.fulfill({ status: 202, contentType: 'application/json', body: JSON.stringify(review) });
  });
  await page.route('**/api/v1/reviews/failing/stream', (route) => {
    const failed = { id: 'failing', status: 'failed', initialFen: other.initialFen, moves: other.moves, san: other.san, done: 1, total: 4, plies: [], error: { code: 'internal', message: 'The engine stopped' } };
    route.fulfill({
      status: 200,
      contentType: 'application/x-ndjson',
      body: `${JSON.stringify({ ...failed, status: 'running' })}\n\n${JSON.stringify({ type: 'review', review: failed })}\n`,
    });
  });
  await openGame(page, other.id);
  await page.click('#btn-review');
  await waitForReview(page, 'failed');
  assert.match(await page.textContent('#review-status'), /failed: The engine stopped/);
  assert.ok(await page.isVisible('#review-again'));
  await shot(page, 'review-6-failed');
  await page.unroute('**/api/v1/games/*/review');
  await page.unroute('**/api/v1/reviews/failing/stream');
  assert.deepEqual(unexpected(errors), []);
});

// ---- Lichess's judgement on the page (docs/review.md) -------------------------------------------
// The server's answers are made up here (routed), so the page's reading of them is checked
// whatever the engine finds: `good` is "not judged", the per-move `accuracy` is the server's, the
// running summary is provisional, and a time-capped review says so.

const score = (cp) => ({ cp });
/** A reviewed move as the server sends it (docs/review.md). */
function reviewedMove(ply, move, san, cls, accuracy, extra = {}) {
  return {
    ply, move, san, side: ply % 2 === 1 ? 'white' : 'black',
    before: score(20), after: score(20), winBefore: 0.52, winAfter: 0.52, winLoss: 0, cpLoss: 0,
    accuracy, class: cls, ...extra,
  };
}

/** Routes this game's review: the POST answers `review`; its stream and reads repeat it. */
async function routeReview(page, review) {
  await page.route('**/api/v1/games/*/review', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fulfill({ status: review.status === 'running' ? 202 : 200, contentType: 'application/json', body: JSON.stringify(review) });
  });
  await page.route(`**/api/v1/reviews/${review.id}/stream`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: `${JSON.stringify(review)}\n` }),
  );
  await page.route(`**/api/v1/reviews/${review.id}`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(review) }),
  );
}

async function unrouteReview(page, review) {
  await page.unroute('**/api/v1/games/*/review');
  await page.unroute(`**/api/v1/reviews/${review.id}/stream`);
  await page.unroute(`**/api/v1/reviews/${review.id}`);
}

const OPENING = ['e2e4', 'e7e5', 'g1f3'];
const OPENING_SAN = ['e4', 'e5', 'Nf3'];

/** Opens a game whose routed review is running, two moves in: 1. e4 `good` (accuracy 40), 1...e5 `best`. */
async function openRunningReview(page) {
  const game = await createGame(OPENING);
  const review = {
    id: 'lichess-running', gameId: game.id, status: 'running', initialFen: game.initialFen, moves: OPENING, san: OPENING_SAN,
    done: 3, total: 4,
    plies: [
      // A small loss: not judged (`good`), yet its accuracy is the server's 40, not a formula's ~100.
      reviewedMove(1, 'e2e4', 'e4', 'good', 40, { winLoss: 0.001, cpLoss: 4, best: { move: 'd2d4', san: 'd4' } }),
      reviewedMove(2, 'e7e5', 'e5', 'best', 100),
    ],
  };
  await routeReview(page, review);
  await openGame(page, game.id);
  await page.click('#btn-review');
  await waitForReview(page, 'running');
  await page.waitForSelector('#review-summary:not([hidden])');
  return review;
}

test('Lichess: the running summary is the mean of the server per-move accuracies, marked provisional', async () => {
  const { page, errors } = browser;
  const review = await openRunningReview(page);
  // The mean of the server's per-move accuracies, marked as not yet the game's accuracy.
  assert.equal((await page.textContent('#review-summary .rs-accuracy td:nth-of-type(1)')).trim(), '≈40%');
  assert.equal((await page.textContent('#review-summary .rs-accuracy td:nth-of-type(2)')).trim(), '≈100%');
  await unrouteReview(page, review);
  await page.goto(BASE_URL); // leaves the routed review (its reads stop)
  assert.deepEqual(unexpected(errors), []);
});

test('Lichess: a good move (not judged) has no badge and no mark; best keeps its badge', async () => {
  const { page, errors } = browser;
  const review = await openRunningReview(page);
  // 1. e4 (`good`): no badge, no mark; 1...e5 (`best`) keeps its badge.
  await page.click('#move-list .move[data-ply="1"]');
  await page.waitForFunction(() => window.outpost.snapshot().viewPly === 1);
  assert.equal(await page.locator('#review-move .rm-class').count(), 0, 'a good move is not judged');
  assert.doesNotMatch(await page.textContent('#review-move'), /Good move/);
  assert.doesNotMatch(await page.textContent('#move-list .move[data-ply="1"]'), /[?!]/);
  await page.click('#move-list .move[data-ply="2"]');
  await page.waitForFunction(() => window.outpost.snapshot().viewPly === 2);
  assert.match(await page.textContent('#review-move .rm-class'), /Best move/);
  await unrouteReview(page, review);
  await page.goto(BASE_URL); // leaves the routed review (its reads stop)
  assert.deepEqual(unexpected(errors), []);
});

test('Lichess: the server summary replaces the provisional one; a time-capped review says so', async () => {
  const { page, errors } = browser;
  const game = await createGame(OPENING);
  const side = (accuracy) => ({ accuracy, inaccuracies: 0, mistakes: 0, blunders: 0, acpl: 3 });
  const review = {
    id: 'lichess-capped', gameId: game.id, status: 'done', initialFen: game.initialFen, moves: OPENING, san: OPENING_SAN,
    done: 4, total: 4, timeCapped: 2,
    plies: [reviewedMove(1, 'e2e4', 'e4', 'good', 40), reviewedMove(2, 'e7e5', 'e5', 'good', 90), reviewedMove(3, 'g1f3', 'Nf3', 'good', 80)],
    summary: { white: side(57.4), black: side(90) },
  };
  await routeReview(page, review);
  await openGame(page, game.id);
  await page.click('#btn-review');
  await waitForReview(page);
  assert.equal((await page.textContent('#review-summary .rs-accuracy td:nth-of-type(1)')).trim(), '57%');
  assert.equal((await page.textContent('#review-summary .rs-accuracy td:nth-of-type(2)')).trim(), '90%');
  assert.match(await page.textContent('#review-status'), /2 positions were cut short by the time cap/);
  await shot(page, 'review-7-time-capped');
  await unrouteReview(page, review);
  assert.deepEqual(unexpected(errors), []);
});

test('a review of one move says "1 move reviewed"', async () => {
  const { page, errors } = browser;
  // One move on a board without engine (an analysis board): it may be reviewed.
  const game = await createGame(['e2e4']);
  await openGame(page, game.id);
  await page.click('#btn-review');
  await waitForReview(page);
  assert.match(await page.textContent('#review-status'), /^1 move reviewed/);
  assert.deepEqual(unexpected(errors), []);
});

test('a finished game nobody reviewed opens without a 404; one reviewed elsewhere shows it on opening', async () => {
  // A browser of its own: its console holds only this test's lines, and it has seen no review.
  const other = await openBrowser();
  try {
    const { page, errors } = other;
    const asked = [];
    page.on('request', (request) => {
      if (/\/review(\?|$)/.test(new URL(request.url()).pathname)) asked.push(`${request.method()} ${request.url()}`);
    });
    const game = await createGame(SCHOLAR);
    await openGame(page, game.id);
    await page.waitForSelector('#game-over:not([hidden]) #game-over-review:not([hidden])');
    await page.reload();
    await page.waitForSelector('#game-over:not([hidden]) #game-over-review:not([hidden])');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(errors, [], 'nothing in the console (no 404 for a review the game does not have)');
    assert.deepEqual(asked, []);
    assert.ok(await page.isHidden('#review-card'));

    // Someone else reviews it (another device): the game now says it keeps a review, and opening
    // it shows the review without Review pressed (the page knew only the reviews this browser saw).
    await reviewElsewhere(game.id);
    const said = await (await fetch(new URL(`api/v1/games/${game.id}`, BASE_URL))).json();
    assert.equal(said.review?.status, 'done');
    await page.reload();
    await waitForReview(page);
    await page.waitForSelector(`#move-list .move[data-ply="${SCHOLAR_BLUNDER}"][data-class="blunder"]`);
    assert.deepEqual(errors, []);
  } finally {
    await other.close();
  }
});

test('from a server whose games do not say whether they keep a review, one reviewed elsewhere shows on Review, then on reload', async () => {
  const other = await openBrowser();
  try {
    const { page, errors } = other;
    const asked = [];
    page.on('request', (request) => {
      if (/\/review(\?|$)/.test(new URL(request.url()).pathname)) asked.push(`${request.method()} ${request.url()}`);
    });
    // An older server: the game's JSON has no `review`.
    await page.route(/\/api\/v1\/games\/[^/?]+(\?.*)?$/, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      const body = await response.json();
      delete body.review;
      await route.fulfill({ response, json: body });
    });
    const game = await createGame(SCHOLAR);
    await reviewElsewhere(game.id);
    await openGame(page, game.id);
    await page.waitForSelector('#game-over:not([hidden]) #game-over-review:not([hidden])');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(asked, [], 'a game this browser has not seen reviewed is not asked about');
    assert.ok(await page.isHidden('#review-card'));
    await page.click('#game-over-review');
    await waitForReview(page);
    await page.waitForSelector(`#move-list .move[data-ply="${SCHOLAR_BLUNDER}"][data-class="blunder"]`);
    await page.reload();
    await waitForReview(page);
    await page.waitForSelector(`#move-list .move[data-ply="${SCHOLAR_BLUNDER}"][data-class="blunder"]`);
    assert.deepEqual(errors, []);
  } finally {
    await other.close();
  }
});

/** Reviews a game over the API, as another device would, and waits until the review is kept. */
async function reviewElsewhere(id) {
  const started = await fetch(new URL(`api/v1/games/${id}/review`, BASE_URL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ limits: LIMITS }),
  });
  assert.ok([200, 202].includes(started.status));
  for (let i = 0; i < 600; i++) {
    const kept = await fetch(new URL(`api/v1/games/${id}/review`, BASE_URL));
    if (kept.status === 200 && (await kept.json()).status === 'done') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the review did not finish');
}
