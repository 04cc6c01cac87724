// The lobby (docs/play.md): quick pairing with the common clocks, and the open seeks, refreshed
// while the lobby is open. A seek made here is followed on its stream (which keeps it open); when
// someone accepts it, or when this page accepts another's, the page opens the game with the
// player's token, as an invite link does.
import { ApiError } from '../api/rest';
import type { Color } from '../api/types';
import { el } from '../ui/dom';
import { followSeek, lobbyApi, type OwnSeek, type Seek, type SeekClock } from './lobbyApi';

/** The quick pairings: minutes + seconds of increment. */
export const QUICK_PAIRINGS: ReadonlyArray<{ minutes: number; increment: number }> = [
  { minutes: 1, increment: 0 },
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
];
const MS_PER_MINUTE = 60000;
const MS_PER_SECOND = 1000;
/** How often the open seeks are read again while the lobby is open. */
const LIST_REFRESH_MS = 2000;
/** A seek's stream that ended early is opened again after this (times the failed tries) ... */
const SEEK_REOPEN_DELAY_MS = 1000;
/** ... up to this many failed tries in a row (the seek expires after its grace time anyway). */
const SEEK_REOPEN_ATTEMPTS = 5;

const clockOf = (minutes: number, increment: number): SeekClock => ({
  initial: minutes * MS_PER_MINUTE,
  increment: increment * MS_PER_SECOND,
});

export function clockLabel(clock: SeekClock | null): string {
  if (!clock) return 'Untimed';
  return `${clock.initial / MS_PER_MINUTE}+${clock.increment / MS_PER_SECOND}`;
}

/** The page URL that opens game `id` with the token of `side` (the invite fragment). */
export function gameLink(id: string, token: string, side: Color): string {
  const url = new URL(document.baseURI);
  url.search = new URLSearchParams({ game: id }).toString();
  url.hash = new URLSearchParams({ invite: token, side }).toString();
  return url.toString();
}

export class LobbyPanel {
  private readonly dialog: HTMLDialogElement;
  private readonly list: HTMLUListElement;
  private readonly status: HTMLParagraphElement;
  private readonly cancelButton: HTMLButtonElement;
  private refreshTimer: number | undefined;
  /** The seek this page made and follows (one at a time), and the game on screen when it was made. */
  private mine: { id: string; token: string; abort: AbortController; madeOn: string | null } | null = null;
  /** The game (or analysis board) on screen (null: none). */
  private shown: string | null = null;

  constructor(private readonly open: (url: string) => void = (url) => location.assign(url)) {
    this.dialog = el('dialog', 'dialog lobby-dialog');
    this.dialog.id = 'lobby-dialog';
    this.dialog.setAttribute('aria-labelledby', 'lobby-title');
    const title = el('h2', undefined, 'Lobby');
    title.id = 'lobby-title';
    const quick = el('div', 'lobby-quick');
    quick.setAttribute('role', 'group');
    quick.setAttribute('aria-label', 'Quick pairing');
    for (const { minutes, increment } of QUICK_PAIRINGS) {
      const button = el('button', 'btn lobby-quick-button', `${minutes}+${increment}`);
      button.type = 'button';
      button.dataset.clock = `${minutes}+${increment}`;
      button.addEventListener('click', () => void this.seek(clockOf(minutes, increment)));
      quick.appendChild(button);
    }
    this.status = el('p', 'lobby-status');
    this.status.id = 'lobby-status';
    this.status.setAttribute('role', 'status');
    this.cancelButton = el('button', 'btn btn-small', 'Cancel my seek');
    this.cancelButton.type = 'button';
    this.cancelButton.id = 'lobby-cancel';
    this.cancelButton.hidden = true;
    this.cancelButton.addEventListener('click', () => void this.cancel());
    const listTitle = el('h3', undefined, 'Open seeks');
    this.list = el('ul', 'lobby-seeks');
    this.list.id = 'lobby-seeks';
    const close = el('button', 'btn', 'Close');
    close.type = 'button';
    close.addEventListener('click', () => this.dialog.close());
    this.dialog.append(title, quick, this.status, this.cancelButton, listTitle, this.list, close);
    this.dialog.addEventListener('close', () => window.clearInterval(this.refreshTimer));
    document.body.appendChild(this.dialog);

    const nav = document.querySelector('.topnav');
    const button = el('button', 'btn', 'Lobby');
    button.type = 'button';
    button.id = 'btn-lobby';
    button.addEventListener('click', () => this.show());
    nav?.insertBefore(button, nav.children[1] ?? null);
    // The new-game dialog leads to the lobby too (the top bar's button is left out on phones).
    const analyse = document.getElementById('new-game-analyse');
    if (analyse) {
      const fromDialog = el('button', 'btn', 'Find an opponent');
      fromDialog.type = 'button';
      fromDialog.id = 'new-game-lobby';
      fromDialog.title = 'The lobby: quick pairing with someone waiting';
      fromDialog.addEventListener('click', () => {
        analyse.closest('dialog')?.close();
        this.show();
      });
      analyse.before(fromDialog);
    }
  }

  show(): void {
    if (!this.dialog.open) this.dialog.showModal();
    void this.refresh();
    window.clearInterval(this.refreshTimer);
    this.refreshTimer = window.setInterval(() => void this.refresh(), LIST_REFRESH_MS);
  }

  private async refresh(): Promise<void> {
    let seeks: Seek[];
    try {
      seeks = (await lobbyApi.list()).seeks;
    } catch {
      return; // the next refresh tries again
    }
    this.list.replaceChildren();
    if (seeks.length === 0) this.list.appendChild(el('li', 'lobby-empty', 'Nobody is seeking. Start one above.'));
    for (const seek of seeks) {
      const item = el('li', 'lobby-seek');
      item.dataset.seekId = seek.id;
      const colour = seek.color === 'random' ? 'random colour' : `seeker plays ${seek.color}`;
      item.append(el('span', 'lobby-seek-clock', clockLabel(seek.clock)), el('span', 'lobby-seek-colour', colour));
      if (seek.id === this.mine?.id) {
        item.appendChild(el('span', 'lobby-seek-mine', 'yours'));
      } else {
        const accept = el('button', 'btn btn-small btn-primary', 'Play');
        accept.type = 'button';
        accept.addEventListener('click', () => void this.accept(seek.id));
        item.appendChild(accept);
      }
      this.list.appendChild(item);
    }
  }

  private async seek(clock: SeekClock): Promise<void> {
    await this.cancel();
    let made: OwnSeek;
    try {
      made = await lobbyApi.create(clock, 'random');
    } catch (err) {
      this.status.textContent = String((err as Error).message);
      return;
    }
    const token = made.seekToken ?? '';
    const abort = new AbortController();
    this.mine = { id: made.id, token, abort, madeOn: this.shown };
    this.status.textContent = `Waiting for an opponent (${clockLabel(clock)})…`;
    this.cancelButton.hidden = false;
    void this.refresh();
    void this.follow(made.id, token, abort.signal);
  }

  /**
   * Keeps the seek's stream open until the seek closes: a stream that ends without saying how the
   * seek closed (a replica shutting down, a dropped connection) is opened again, or the seek
   * would expire while its seeker still waits.
   */
  private async follow(id: string, token: string, signal: AbortSignal): Promise<void> {
    let closed = false;
    for (let attempt = 1; ; attempt++) {
      try {
        await followSeek(
          id,
          token,
          (event) => {
            if (event.type === 'seekAccepted' && event.gameId && event.playerSide) {
              closed = true;
              this.mine = null;
              this.open(gameLink(event.gameId, event.playerToken ?? token, event.playerSide));
            } else if (event.type === 'seekClosed') {
              closed = true;
              this.mine = null;
              this.cancelButton.hidden = true;
              this.status.textContent = event.status === 'expired' ? 'Your seek expired.' : 'Your seek was cancelled.';
            }
          },
          signal,
        );
        attempt = 0; // it was open: a later end starts the count again
      } catch (err) {
        const busy = err instanceof ApiError && (err.code === 'network' || err.status >= 500);
        if (!busy || attempt >= SEEK_REOPEN_ATTEMPTS) {
          if (!signal.aborted) this.status.textContent = (err as Error).message;
          return;
        }
      }
      if (closed || signal.aborted || this.mine?.id !== id) return;
      await new Promise((resolve) => window.setTimeout(resolve, SEEK_REOPEN_DELAY_MS * Math.max(1, attempt)));
      if (signal.aborted || this.mine?.id !== id) return;
    }
  }

  /**
   * Another game or board came on screen (the person started one, opened a link, went Back): a
   * seek made before is given up, as on lichess. Left open, its acceptance by a stranger later
   * took the page away from the game being played, into a game whose clock was already running.
   */
  onGameShown(id: string | null): void {
    this.shown = id;
    if (this.mine && id !== this.mine.madeOn) void this.cancel();
  }

  private async cancel(): Promise<void> {
    const mine = this.mine;
    if (!mine) return;
    this.mine = null;
    mine.abort.abort();
    this.cancelButton.hidden = true;
    this.status.textContent = '';
    try {
      await lobbyApi.cancel(mine.id, mine.token);
    } catch {
      // Accepted meanwhile (409) or gone: nothing to cancel.
    }
    void this.refresh();
  }

  private async accept(id: string): Promise<void> {
    try {
      const game = await lobbyApi.accept(id);
      if (game.playerToken && game.playerSide) this.open(gameLink(game.id, game.playerToken, game.playerSide));
    } catch (err) {
      this.status.textContent = String((err as Error).message);
      void this.refresh();
    }
  }
}
