// The promotion picker: four pieces in a column over the promotion square (queen nearest the
// edge, as people expect), each a real button so it works by keyboard too. It is a modal dialog:
// it takes the focus, Tab and Shift+Tab go round its four pieces, and so do the arrow keys (↑/↓
// as they stand on screen, ←/→ in the order queen, knight, rook, bishop; Home and End the first
// and last), Enter or Space chooses the piece with the focus, Q, R, B or N one directly, Escape
// cancels (as its owner does, with the function returned, when the board is drawn anew under it;
// so does the focus going elsewhere), and once it closes the focus goes back where it was before
// it opened. While it is open the page's own shortcuts (← → stepping through the game, T, F, M…)
// do nothing: the keys are the dialog's.

type Side = 'white' | 'black';
export type PromotionRole = 'q' | 'n' | 'r' | 'b';

const CHOICES: Array<{ role: PromotionRole; name: string; cg: string }> = [
  { role: 'q', name: 'Queen', cg: 'queen' },
  { role: 'n', name: 'Knight', cg: 'knight' },
  { role: 'r', name: 'Rook', cg: 'rook' },
  { role: 'b', name: 'Bishop', cg: 'bishop' },
];

export function openPromotionPicker(
  boardElement: HTMLElement,
  dest: string,
  color: Side,
  orientation: Side,
  done: (role: PromotionRole | null) => void,
): () => void {
  // Inside the board's own wrapper, so the piece images of the board's theme apply.
  const host = boardElement;
  host.querySelector('.promotion')?.remove();

  const file = dest.charCodeAt(0) - 'a'.charCodeAt(0);
  const column = orientation === 'white' ? file : 7 - file;
  // The picker grows from the edge the pawn reached, towards the middle of the board.
  const fromTop = (dest[1] === '8') === (orientation === 'white');

  const overlay = document.createElement('div');
  overlay.className = 'promotion';
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', 'Choose the promotion piece');
  // Where the focus goes back to (the board itself takes none: usually the page, or the move box).
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;

  const menu = document.createElement('div');
  menu.className = `promotion-menu ${fromTop ? 'top' : 'bottom'}`;
  menu.style.left = `${column * 12.5}%`;
  overlay.appendChild(menu);

  let finished = false;
  const finish = (role: PromotionRole | null) => {
    if (finished) return;
    finished = true;
    // The focus left the picker for something else (a click on the page): it stays there.
    const hadFocus = overlay.contains(document.activeElement);
    overlay.remove();
    document.removeEventListener('keydown', onKey, true);
    document.removeEventListener('focusin', onFocusIn, true);
    const lost = hadFocus || !document.activeElement || document.activeElement === document.body;
    if (lost && before?.isConnected && before !== document.body) before.focus({ preventScroll: true });
    done(role);
  };
  const choices = () => [...menu.querySelectorAll<HTMLButtonElement>('.promotion-choice')];
  // Moves the focus `step` pieces on (in the order queen, knight, rook, bishop), round the four,
  // never out to the page under the dialog.
  const cycle = (step: number) => {
    const buttons = choices();
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = at < 0 ? 0 : (at + step + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };
  // The column runs from the queen down (the picker at the top edge), or up (at the bottom edge).
  const down = fromTop ? 1 : -1;
  const steps: Record<string, number> = { ArrowDown: down, ArrowUp: -down, ArrowRight: 1, ArrowLeft: -1 };
  // The focus taken elsewhere (a click on the page beside the board, the move box's shortcut)
  // cancels the promotion, as a click beside the picker does; the focus stays where it went.
  const onFocusIn = (event: FocusEvent) => {
    if (event.target instanceof Node && !overlay.contains(event.target)) finish(null);
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish(null);
      return;
    }
    if (event.key === 'Tab') {
      event.preventDefault();
      cycle(event.shiftKey ? -1 : 1);
      return;
    }
    // Modifier shortcuts (the browser's own) are left alone.
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    // The rest is the dialog's: the page's shortcuts under it do nothing (Enter and Space still
    // press the piece with the focus: that is the button's own default, not a listener).
    event.stopPropagation();
    const match = CHOICES.find((c) => c.role === event.key.toLowerCase());
    if (match) {
      event.preventDefault();
      finish(match.role);
      return;
    }
    if (event.key in steps) {
      event.preventDefault();
      cycle(steps[event.key]);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      const buttons = choices();
      buttons[event.key === 'Home' ? 0 : buttons.length - 1]?.focus();
    }
  };

  for (const choice of CHOICES) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'promotion-choice';
    button.dataset.role = choice.role;
    button.title = `${choice.name} (${choice.role.toUpperCase()})`;
    button.setAttribute('aria-label', `Promote to ${choice.name.toLowerCase()}`);
    button.setAttribute('aria-keyshortcuts', choice.role.toUpperCase());
    const piece = document.createElement('piece');
    piece.className = `${choice.cg} ${color}`;
    button.appendChild(piece);
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      finish(choice.role);
    });
    menu.appendChild(button);
  }
  overlay.addEventListener('click', () => finish(null));
  document.addEventListener('keydown', onKey, true);
  host.appendChild(overlay);
  document.addEventListener('focusin', onFocusIn, true);
  (menu.firstElementChild as HTMLButtonElement | null)?.focus();
  return () => finish(null);
}
