// Rematch on the game-over card (docs/play.md, "Rematch"): offer or accept with one button, decline
// or withdraw with another. Once the server makes the rematch, the page opens it with this
// browser's token of the old game, which moves its new colour there.
import { ApiError, request } from '../api/rest';
import type { Color, Game, Rematch } from '../api/types';
import { kept } from '../game/keptTokens';
import { el, toast } from '../ui/dom';

export type { Rematch };

type WithRematch = Game;

export class RematchButton {
  private readonly yes: HTMLButtonElement;
  private readonly no: HTMLButtonElement;
  private game: WithRematch | null = null;
  private token: string | null = null;
  private side: Color | null = null;
  private opened: string | null = null;
  /** The game last seen without its rematch made: when it is made, the page follows at once. */
  private waiting: string | null = null;
  /** The game (and its version) where this side's rematch offer was last seen standing. */
  private offered: { id: string; version: number } | null = null;
  /** This side is withdrawing its own offer (its end is not the other side's "no"). */
  private withdrawing = false;

  constructor(private readonly open: (url: string) => void = (url) => location.assign(url)) {
    this.yes = el('button', 'btn btn-primary', 'Rematch');
    this.yes.type = 'button';
    this.yes.id = 'game-over-rematch';
    this.no = el('button', 'btn', 'Decline');
    this.no.type = 'button';
    this.no.id = 'game-over-rematch-no';
    this.yes.addEventListener('click', () => void this.answer(true));
    this.no.addEventListener('click', () => void this.answer(false));
    const buttons = document.querySelector('#game-over .game-over-buttons');
    buttons?.prepend(this.yes, this.no);
    this.update(null, null, null);
  }

  /** The game on screen, this browser's token and side in it (null: watching). */
  update(game: Game | null, token: string | null, side: Color | null): void {
    this.game = game as WithRematch | null;
    this.token = token;
    this.side = side;
    const rematch = this.game?.rematch ?? null;
    const over = !!game && game.status !== 'ongoing';
    this.yes.hidden = !over || !token;
    this.no.hidden = !over || !token || !rematch?.offeredBy;
    if (!over || !token || !game) return;
    if (rematch?.gameId) {
      this.yes.textContent = 'Open the rematch';
      // Made while this page watched (the other side accepted): open it.
      if (this.waiting === game.id) this.follow(rematch.gameId);
      return;
    }
    this.waiting = game.id;
    // A newer version without the offer and without a rematch, not by this side's hand: the other
    // side declined. (Without a word, the button just went back to "Rematch".) An older copy of
    // the game (the page's, before the offer's answer reached it) says nothing.
    const offered = this.offered?.id === game.id ? this.offered : null;
    if (offered && game.version < offered.version) {
      this.no.hidden = false;
      return;
    }
    if (offered && !rematch?.offeredBy && !this.withdrawing) toast('Your opponent declined the rematch');
    this.offered = rematch?.offeredBy && rematch.offeredBy === side ? { id: game.id, version: game.version } : null;
    this.label(side, rematch);
  }

  private label(side: Color | null, rematch: Game['rematch'] | null): void {
    if (rematch?.offeredBy && rematch.offeredBy !== side) {
      this.yes.textContent = 'Accept rematch';
      this.no.textContent = 'Decline';
    } else if (rematch?.offeredBy === side) {
      this.yes.textContent = 'Rematch offered…';
      this.no.textContent = 'Cancel';
    } else {
      this.yes.textContent = 'Rematch';
    }
  }

  private async answer(yes: boolean): Promise<void> {
    const game = this.game;
    if (!game || !this.token) return;
    if (yes && game.rematch?.gameId) return this.follow(game.rematch.gameId);
    this.withdrawing = !yes && !!this.side && game.rematch?.offeredBy === this.side;
    try {
      const answer = await request<WithRematch>(
        'POST',
        `games/${encodeURIComponent(game.id)}/rematch/${yes ? 'yes' : 'no'}`,
        {},
        this.token,
      );
      if (answer.rematch?.gameId) this.follow(answer.rematch.gameId);
      else this.update(answer, this.token, this.side);
    } catch (err) {
      toast(err instanceof ApiError ? err.message : String(err), 'error');
    } finally {
      this.withdrawing = false;
    }
  }

  /** Opens the rematch: this browser's token plays the other colour there. */
  private follow(id: string): void {
    if (!this.token || this.opened === id) return;
    this.opened = id;
    const side: Color | null = this.side ? (this.side === 'white' ? 'black' : 'white') : null;
    kept.setToken(id, this.token);
    if (this.game?.engine.side === 'none' && side) kept.setPeopleSide(id, side);
    if (side) kept.setOrientation(id, side);
    const url = new URL(document.baseURI);
    url.search = new URLSearchParams({ game: id }).toString();
    url.hash = '';
    this.open(url.toString());
  }
}
