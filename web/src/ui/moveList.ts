// The move list: SAN in numbered rows; each move is a button that shows the position after it.
// A reviewed game's moves carry their class: a coloured ?!, ? or ?? after the SAN. On an analysis
// board the rows are the line on screen, and the other lines tried follow the move they replace,
// in parentheses as in a PGN; a click on one of their moves shows that line from there.
import type { VariationMove } from '../analysis/variationTree';
import type { MoveClass } from '../api/types';
import { fenTurn, fullmoveNumber } from '../chess/position';
import { el } from './dom';
import { CLASS_MARK } from './format';

/** The lines tried besides the one on screen (an analysis board's). */
export interface Variations {
  /** The other lines tried in place of the move that led to `ply`. */
  at: (ply: number) => VariationMove[][];
  /** Shows the position after the last move of `line` (UCI from the start), in that line. */
  select: (line: string[]) => void;
}

/** A variation in parentheses: numbered moves, each a button, and its own variations nested. */
function renderVariation(moves: VariationMove[], firstPly: number, select: (line: string[]) => void): HTMLElement {
  const box = el('span', 'variation');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', 'Variation');
  box.append('(');
  let numbered = true;
  moves.forEach((move, i) => {
    // The ply counted from White's first move of the game, whatever the start position.
    const ply = firstPly + move.line.length - 1;
    const white = ply % 2 === 0;
    const number = `${Math.floor(ply / 2) + 1}.${white ? '' : '..'}`;
    if (i > 0) box.append(' ');
    if (white || numbered) box.append(el('span', 'variation-number', number), ' ');
    const button = el('button', 'variation-move', move.san);
    button.type = 'button';
    button.dataset.line = move.line.join(' ');
    button.setAttribute('aria-label', `${number} ${move.san}, in a variation`);
    button.addEventListener('click', () => select(move.line));
    box.append(button);
    for (const variation of move.variations) box.append(' ', renderVariation(variation, firstPly, select));
    // After a nested variation the next Black move says its number again.
    numbered = move.variations.length > 0;
  });
  box.append(')');
  return box;
}

export function renderMoveList(
  list: HTMLElement,
  initialFen: string,
  san: string[],
  viewPly: number,
  result: string,
  onSelect: (ply: number) => void,
  /** The review's class of the move that led to `ply`, when there is one. */
  classOf?: (ply: number) => MoveClass | undefined,
  variations?: Variations,
): void {
  // The list is drawn anew: a move that had the keyboard focus (a keyboard user who pressed Enter
  // on it, or ←/→ from it, or a move arriving meanwhile) hands it to its new button, else the
  // focus fell back to the page's start. On the current move it follows the current move.
  const focused = list.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
  const refocus = focused
    ? focused.classList.contains('current')
      ? '.move.current'
      : focused.dataset.ply !== undefined
        ? `.move[data-ply="${focused.dataset.ply}"]`
        : focused.dataset.line !== undefined
          ? `.variation-move[data-line="${CSS.escape(focused.dataset.line)}"]`
          : null
    : null;
  list.replaceChildren();
  let moveNumber = fullmoveNumber(initialFen);
  const blackFirst = fenTurn(initialFen) === 'black';
  // The ply (from White's first move of the game) before the first move of the list.
  const firstPly = (moveNumber - 1) * 2 + (blackFirst ? 1 : 0);
  let row: HTMLLIElement | null = null;
  /** The row was cut by variations: the next Black move starts a new one, after "…". */
  let rowCut = false;

  const addMove = (ply: number) => {
    const button = el('button', 'move', san[ply - 1]);
    button.type = 'button';
    button.dataset.ply = String(ply);
    const cls = classOf?.(ply);
    if (cls) {
      button.dataset.class = cls;
      const mark = CLASS_MARK[cls];
      if (mark) {
        button.append(el('span', 'move-mark', mark));
        button.setAttribute('aria-label', `${san[ply - 1]}, ${cls}`);
      }
    }
    if (ply === viewPly) {
      button.classList.add('current');
      button.setAttribute('aria-current', 'step');
    }
    button.addEventListener('click', () => onSelect(ply));
    row?.appendChild(button);
  };

  for (let ply = 1; ply <= san.length; ply++) {
    const whiteMove = blackFirst ? ply % 2 === 0 : ply % 2 === 1;
    if (whiteMove || ply === 1 || rowCut) {
      row = el('li', 'move-row');
      row.appendChild(el('span', 'move-number', `${moveNumber}.`));
      if (!whiteMove) row.appendChild(el('span', 'move placeholder', '…'));
      list.appendChild(row);
      rowCut = false;
    }
    addMove(ply);
    const others = variations?.at(ply) ?? [];
    if (others.length > 0) {
      const item = el('li', 'move-variations');
      others.forEach((line, i) => {
        if (i > 0) item.append(' ');
        item.append(renderVariation(line, firstPly, variations!.select));
      });
      list.appendChild(item);
      rowCut = whiteMove;
    }
    if (!whiteMove) moveNumber++;
  }
  if (san.length === 0 && result === '*') list.appendChild(el('li', 'move-empty', 'No moves yet'));
  if (result !== '*') list.appendChild(el('li', 'move-result', result));

  // (A variation move clicked has become a move of the line on screen: the current one.)
  if (refocus) (list.querySelector<HTMLElement>(refocus) ?? list.querySelector<HTMLElement>('.move.current'))?.focus({ preventScroll: true });

  // Scroll the list itself (never the page, which would jump on phones).
  const current = list.querySelector<HTMLElement>('.move.current');
  if (!current) {
    list.scrollTop = list.scrollHeight;
    return;
  }
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + current.offsetHeight - list.clientHeight;
  }
}
