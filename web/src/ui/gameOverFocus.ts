// The keyboard and the game-over card (an alertdialog over the board). A game that ends on screen
// turns the move box off (and Resign, Takeback…), which drops the keyboard's focus to the page's
// start; the card's buttons come before the move box in the page, so Tab went on past them, to the
// controls under the board, and a keyboard player reached Rematch or New game only after going
// round the whole page. So when the card comes up for a game that ended on screen, and the focus
// is nowhere the player chose (lost, in the move box, on the board), it goes to the card's first
// button; a chat or any other text box being typed in keeps it. Escape closes the card (as its ✕
// does), and the focus then goes to the move on screen in the move list.

/** Where the focus is the player's own choice, and is left there when the card comes up. */
function focusIsChosen(active: Element | null, card: HTMLElement): boolean {
  if (!active || active === document.body || active === document.documentElement) return false;
  if (card.contains(active)) return false;
  if ((active as HTMLInputElement).disabled) return false;
  if (active.id === 'move-input' || active.closest('.board-area')) return false;
  return true;
}

export class GameOverFocus {
  /** The game that was last seen ongoing: its end, once the card shows it, takes the focus. */
  private ongoing: string | null = null;
  /** The game that ended on screen and whose card has not come up yet. */
  private ended: string | null = null;

  constructor(
    private readonly card: HTMLElement,
    close: () => void,
  ) {
    card.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || card.hidden) return;
      event.preventDefault();
      event.stopPropagation();
      close();
    });
  }

  /** After each drawing of the page: the game on screen (null: none). */
  update(game: { id: string; status: string } | null): void {
    if (!game) {
      this.ongoing = this.ended = null;
      return;
    }
    if (game.status === 'ongoing') {
      this.ongoing = game.id;
      this.ended = null;
      return;
    }
    if (this.ongoing === game.id) this.ended = game.id;
    this.ongoing = null;
    if (this.ended !== game.id || this.card.hidden) return;
    this.ended = null;
    // Another dialog (the new-game dialog) is the player's.
    if (document.querySelector('dialog[open]')) return;
    if (focusIsChosen(document.activeElement, this.card)) return;
    const first = [...this.card.querySelectorAll<HTMLButtonElement>('button')].find((b) => !b.hidden && !b.disabled);
    first?.focus();
  }

  /** The card was closed (✕ or Escape): the focus it held goes to the move on screen. */
  closed(): void {
    const active = document.activeElement;
    if (active && active !== document.body && !this.card.contains(active)) return;
    const moves = [...document.querySelectorAll<HTMLElement>('#move-list .move:not(.placeholder)')];
    const target = moves.find((m) => m.classList.contains('current')) ?? moves[moves.length - 1] ?? document.getElementById('btn-new');
    target?.focus();
  }
}
