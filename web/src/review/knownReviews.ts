// The games this browser has seen a review of (started, joined or shown), kept in localStorage.
// A server whose games do not say whether they keep a review (Game.review, newer servers) says
// so only by answering GET /games/{id}/review with the review or with a 404, and the browser
// logs every 404 in its console, so with such a server the page asks only about the games it
// knows a review of; a game someone else reviewed shows its review when "Review" is pressed (the
// server answers the kept one at once). Bounded: the MAX_GAMES games seen most recently.
const KEY = 'outpost.reviewedGames';
const MAX_GAMES = 200;

function read(): string[] {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function write(ids: string[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(ids.slice(-MAX_GAMES)));
  } catch {
    // Private mode or full: the review is just not shown by itself after a reload.
  }
}

export const knownReviews = {
  has: (gameId: string) => read().includes(gameId),
  add(gameId: string): void {
    const ids = read();
    if (ids[ids.length - 1] === gameId) return;
    write([...ids.filter((id) => id !== gameId), gameId]);
  },
  remove(gameId: string): void {
    const ids = read();
    if (ids.includes(gameId)) write(ids.filter((id) => id !== gameId));
  },
};
