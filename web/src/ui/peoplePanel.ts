// The card of a game between people: the invite link (for the creator, until the friend comes),
// who is connected, draw offers and takeback requests with accept/decline, and "claim victory" /
// "claim draw" once the other side has been gone past the server's grace time. Spectators see
// the same card without its buttons.
import type { Game } from '../api/types';
import { byId } from './dom';

type Side = 'white' | 'black';

export interface PeopleView {
  game: Game;
  /** The side this browser plays; null for a spectator. */
  mySide: Side | null;
  /** The link that lets the friend play, while it is worth showing; null otherwise. */
  inviteLink: string | null;
  /** The link for spectators (no token). */
  watchLink: string;
  /** Milliseconds until the other side's absence may be claimed (0: now); null: not gone. */
  claimableInMs: number | null;
}

export interface PeopleActions {
  offer: (kind: 'draw' | 'takeback', yes: boolean) => void;
  claim: (what: 'victory' | 'draw') => void;
  copyInvite: () => void;
}

const sideName = (side: Side): string => (side === 'white' ? 'White' : 'Black');
const otherSide = (side: Side): Side => (side === 'white' ? 'black' : 'white');

export class PeoplePanel {
  private readonly card = byId('people-card');

  constructor(private readonly actions: PeopleActions) {
    byId('btn-copy-invite').addEventListener('click', () => this.actions.copyInvite());
    byId('draw-accept').addEventListener('click', () => this.actions.offer('draw', true));
    byId('draw-decline').addEventListener('click', () => this.actions.offer('draw', false));
    byId('takeback-accept').addEventListener('click', () => this.actions.offer('takeback', true));
    byId('takeback-decline').addEventListener('click', () => this.actions.offer('takeback', false));
    byId('btn-claim-victory').addEventListener('click', () => this.actions.claim('victory'));
    byId('btn-claim-draw').addEventListener('click', () => this.actions.claim('draw'));
  }

  hide(): void {
    this.card.hidden = true;
  }

  render(view: PeopleView): void {
    const { game, mySide } = view;
    const ongoing = game.status === 'ongoing';
    // All it holds is for a game going on: the invite, who is here, offers, a claim. Who is here
    // in particular: the server forgets it at the end (docs/play.md) and says false for both
    // sides, which read "You: away" to a player looking at the page.
    this.card.hidden = !ongoing;

    const invite = byId('invite');
    invite.hidden = !view.inviteLink || !ongoing;
    if (view.inviteLink && mySide) {
      byId<HTMLInputElement>('invite-link').value = view.inviteLink;
      byId('invite-side').textContent = sideName(otherSide(mySide));
    }
    byId<HTMLAnchorElement>('watch-link').href = view.watchLink;

    const presence = byId('presence');
    presence.replaceChildren(
      ...(['white', 'black'] as const).map((side) => {
        const online = game.presence?.[side];
        const item = document.createElement('span');
        item.className = 'presence-item';
        item.dataset.side = side;
        item.dataset.online = online === undefined ? 'unknown' : String(online);
        const who = !mySide ? sideName(side) : side === mySide ? 'You' : 'Your friend';
        item.textContent = `${who}: ${online === undefined ? '…' : online ? 'here' : 'away'}`;
        return item;
      }),
    );

    this.renderOffer('draw', game.drawOffer, mySide, ongoing, 'offers a draw', 'You offered a draw', 'Withdraw');
    this.renderOffer('takeback', game.takebackOffer, mySide, ongoing, 'asks to take back a move', 'You asked for a takeback', 'Withdraw');

    const claim = byId('claim');
    const canClaim = ongoing && !!mySide && view.claimableInMs !== null;
    claim.hidden = !canClaim;
    if (canClaim) {
      const wait = view.claimableInMs ?? 0;
      byId('claim-text').textContent =
        wait > 0 ? `Your opponent left. You can claim the game in ${Math.ceil(wait / 1000)} s.` : 'Your opponent left the game.';
      byId<HTMLButtonElement>('btn-claim-victory').disabled = wait > 0;
      byId<HTMLButtonElement>('btn-claim-draw').disabled = wait > 0;
    }
  }

  private renderOffer(
    kind: 'draw' | 'takeback',
    by: Side | undefined,
    mySide: Side | null,
    ongoing: boolean,
    theirWords: string,
    myWords: string,
    withdraw: string,
  ): void {
    const box = byId(`${kind}-offer`);
    box.hidden = !by || !ongoing;
    if (!by) return;
    box.dataset.by = by;
    const mine = by === mySide;
    byId(`${kind}-offer-text`).textContent = mine ? myWords : `${mySide ? 'Your opponent' : sideName(by)} ${theirWords}`;
    const accept = byId<HTMLButtonElement>(`${kind}-accept`);
    const decline = byId<HTMLButtonElement>(`${kind}-decline`);
    accept.hidden = mine || !mySide;
    decline.hidden = !mySide;
    decline.textContent = mine ? withdraw : 'Decline';
  }
}
