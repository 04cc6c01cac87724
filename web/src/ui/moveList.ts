// The move list: SAN in numbered rows; each move is a button that shows the position after it.
// A reviewed game's moves carry their class: a coloured ?!, ? or ?? after the SAN.
import type { MoveClass } from '../api/types';
import { fenTurn, fullmoveNumber } from '../chess/position';
import { el } from './dom';
import { CLASS_MARK } from './format';

export function renderMoveList(
  list: HTMLElement,
  initialFen: string,
  san: string[],
  viewPly: number,
  result: string,
  onSelect: (ply: number) => void,
  /** The review's class of the move that led to `ply`, when there is one. */
  classOf?: (ply: number) => MoveClass | undefined,
): void {
  list.replaceChildren();
  let moveNumber = fullmoveNumber(initialFen);
  const blackFirst = fenTurn(initialFen) === 'black';
  let row: HTMLLIElement | null = null;

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
    if (whiteMove || ply === 1) {
      row = el('li', 'move-row');
      row.appendChild(el('span', 'move-number', `${moveNumber}.`));
      if (!whiteMove) row.appendChild(el('span', 'move placeholder', '…'));
      list.appendChild(row);
    }
    addMove(ply);
    if (!whiteMove) moveNumber++;
  }
  if (san.length === 0 && result === '*') list.appendChild(el('li', 'move-empty', 'No moves yet'));
  if (result !== '*') list.appendChild(el('li', 'move-result', result));

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
