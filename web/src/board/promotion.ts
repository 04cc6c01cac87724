// The promotion picker: four pieces in a column over the promotion square (queen nearest the
// edge, as people expect), each a real button so it works by keyboard too. Escape cancels, and
// so does its owner (the function returned) when the board is drawn anew under it.

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
  overlay.setAttribute('aria-label', 'Choose the promotion piece');

  const menu = document.createElement('div');
  menu.className = `promotion-menu ${fromTop ? 'top' : 'bottom'}`;
  menu.style.left = `${column * 12.5}%`;
  overlay.appendChild(menu);

  let finished = false;
  const finish = (role: PromotionRole | null) => {
    if (finished) return;
    finished = true;
    overlay.remove();
    document.removeEventListener('keydown', onKey, true);
    done(role);
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      finish(null);
      return;
    }
    const match = CHOICES.find((c) => c.role === event.key.toLowerCase());
    if (match) {
      event.preventDefault();
      finish(match.role);
    }
  };

  for (const choice of CHOICES) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'promotion-choice';
    button.dataset.role = choice.role;
    button.title = `${choice.name} (${choice.role.toUpperCase()})`;
    button.setAttribute('aria-label', `Promote to ${choice.name.toLowerCase()}`);
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
  (menu.firstElementChild as HTMLButtonElement | null)?.focus();
  return () => finish(null);
}
