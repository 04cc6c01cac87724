// "Recent games": the games this browser created or opened. Their ids are kept in localStorage
// (most recent first) and shown with one request, GET /api/v1/games?ids=…; games the server no
// longer has (removed by its retention) are dropped from the list.
import { api } from '../api/rest';
import type { Game, GameSummary } from '../api/types';
import { kept } from '../game/keptTokens';
import { byId, el } from './dom';
import { gameOverText } from './format';

const RECENT_KEY = 'outpost.recent';
/** The server answers at most 50 ids per request. */
const MAX_RECENT = 50;
/** How many the card shows. */
const SHOWN_RECENT = 10;

export function recentGameIds(): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function storeRecentIds(ids: string[]): void {
  localStorage.setItem(RECENT_KEY, JSON.stringify(ids.slice(0, MAX_RECENT)));
}

/** Puts a game at the top of the list. */
export function rememberGame(id: string): void {
  storeRecentIds([id, ...recentGameIds().filter((known) => known !== id)]);
}

function describe(game: GameSummary): string {
  const opponent =
    game.engine.side === 'none'
      ? kept.peopleSide(game.id)
        ? `A friend (you: ${kept.peopleSide(game.id)})`
        : 'Analysis board'
      : `Outpost${game.engine.level ? ` level ${game.engine.level}` : ''} (${game.engine.side})`;
  const moves = Math.ceil(game.moveCount / 2);
  const state = game.status === 'ongoing' ? `${game.turn} to move` : game.status === 'aborted' ? 'aborted' : game.result;
  return `${opponent} · ${moves} move${moves === 1 ? '' : 's'} · ${state}`;
}

/** Fills the "Recent games" card; the current game is marked, not linked. */
export async function renderRecentGames(currentId: string | null): Promise<void> {
  const card = byId('recent-card');
  const list = byId('recent-list');
  const ids = recentGameIds();
  if (ids.length === 0) {
    card.hidden = true;
    return;
  }
  let games: GameSummary[];
  try {
    ({ games } = await api.listGames(ids.slice(0, MAX_RECENT)));
  } catch {
    return; // the list is a convenience: keep what it showed
  }
  // Forget ids the server no longer knows.
  const known = new Set(games.map((game) => game.id));
  storeRecentIds(ids.filter((id) => known.has(id) || id === currentId));
  list.replaceChildren(
    ...games.slice(0, SHOWN_RECENT).map((game) => {
      const item = el('li', 'recent-item');
      item.dataset.gameId = game.id;
      item.dataset.status = game.status;
      const title = game.status === 'ongoing' ? 'In progress' : gameOverText(game);
      if (game.id === currentId) {
        item.append(el('span', 'recent-current', describe(game)));
        item.setAttribute('aria-current', 'true');
      } else {
        const link = el('a', 'recent-link', describe(game));
        link.href = `?game=${encodeURIComponent(game.id)}`;
        link.title = title;
        item.append(link);
      }
      return item;
    }),
  );
  card.hidden = games.length === 0;
}

/** What the list says of a game the page holds whole (the one on screen). */
function summaryOf(game: Game): GameSummary {
  return {
    id: game.id,
    status: game.status,
    result: game.result,
    reason: game.reason,
    winner: game.winner,
    turn: game.turn,
    fen: game.fen,
    moveCount: game.moves.length,
    engine: { side: game.engine.side, level: game.engine.level },
    clock: game.clock && game.clock.initial !== undefined ? { initial: game.clock.initial, increment: game.clock.increment ?? 0 } : undefined,
    version: game.version,
    createdAt: 0,
    updatedAt: 0,
  };
}

/** Brings the current game's line up to date as the game goes on (no request). */
export function updateRecentGame(game: Game): void {
  const item = byId('recent-list').querySelector<HTMLElement>(`li[data-game-id="${CSS.escape(game.id)}"]`);
  const text = item?.querySelector<HTMLElement>('.recent-current, .recent-link');
  if (!item || !text) return;
  const summary = summaryOf(game);
  item.dataset.status = summary.status;
  text.textContent = describe(summary);
}
