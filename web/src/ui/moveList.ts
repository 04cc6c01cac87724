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
function renderVariation(moves: VariationMove[], firstPly: number): HTMLElement {
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
    box.append(button);
    for (const variation of move.variations) box.append(' ', renderVariation(variation, firstPly));
    // After a nested variation the next Black move says its number again.
    numbered = move.variations.length > 0;
  });
  box.append(')');
  return box;
}

/** What the list shows besides the position on screen: drawn anew only when it changes. */
export interface MoveListContent {
  initialFen: string;
  san: string[];
  /** A move sent and not answered yet (SAN): shown after the last one, dimmed, not a button. */
  pending?: string;
  result: string;
  /** The review's class of the move that led to `ply`, when there is one. */
  classOf?: (ply: number) => MoveClass | undefined;
  variations?: Variations;
}

/** A variation's moves as text: what the list draws of it (its SANs, its own variations nested). */
function variationKey(moves: VariationMove[]): string {
  return moves.map((move) => `${move.san}${move.variations.map((v) => `(${variationKey(v)})`).join('')}`).join(' ');
}

/**
 * The move list of the game on screen. A step through the game (←/→, a click on a move) moves
 * the current-move mark and nothing else: the list is drawn anew only when what it shows changed
 * (a move, a result, a review class, a line tried or edited), as a 200-ply list costs tens of
 * milliseconds to draw.
 */
export class MoveList {
  /** What the list on screen was drawn from (null: nothing drawn yet). */
  private drawnKey: string | null = null;
  private onSelect: (ply: number) => void = () => {};
  private onSelectLine: (line: string[]) => void = () => {};

  constructor(private readonly list: HTMLElement) {
    // One listener for every move, whichever drawing of the list it belongs to.
    list.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLElement>('button');
      if (!button || !list.contains(button)) return;
      if (button.dataset.ply !== undefined) this.onSelect(Number(button.dataset.ply));
      else if (button.dataset.line !== undefined) this.onSelectLine(button.dataset.line.split(' '));
    });
  }

  /** Shows `content` with the position after `viewPly` marked; `onSelect`: a move clicked. */
  render(content: MoveListContent, viewPly: number, onSelect: (ply: number) => void): void {
    this.onSelect = onSelect;
    this.onSelectLine = content.variations?.select ?? (() => {});
    const classes = content.san.map((_, i) => content.classOf?.(i + 1) ?? '');
    const others = content.variations
      ? content.san.map((_, i) => content.variations!.at(i + 1))
      : content.san.map(() => [] as VariationMove[][]);
    const key = JSON.stringify([
      content.initialFen,
      content.result,
      content.san,
      content.pending ?? null,
      classes,
      others.map((lines) => lines.map(variationKey)),
    ]);
    // A move that has the keyboard focus keeps it; on the current move it follows the current move.
    const focused = this.list.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
    let followCurrent = !!focused && focused.classList.contains('current');
    if (key !== this.drawnKey) {
      // A focused move gone from the list (a variation clicked is now on the line on screen)
      // hands the focus to the current move.
      if (!this.draw(content, classes, others, focused) && focused) followCurrent = true;
      this.drawnKey = key;
    }
    this.mark(viewPly, followCurrent);
  }

  /** The move shown pending, when there is one: the current one while the last move is. */
  private pendingMark(viewPly: number): HTMLElement | null {
    const pending = this.list.querySelector<HTMLElement>('.pending-move');
    return pending && !this.list.querySelector(`.move[data-ply="${viewPly + 1}"]`) ? pending : null;
  }

  /** Moves the current-move mark to `viewPly` and scrolls the list (never the page) to it. */
  private mark(viewPly: number, followCurrent: boolean): void {
    const list = this.list;
    const pending = this.pendingMark(viewPly);
    const current = pending ?? list.querySelector<HTMLElement>(`.move[data-ply="${viewPly}"]`);
    for (const old of list.querySelectorAll<HTMLElement>('.move.current, .pending-move.current')) {
      if (old === current) continue;
      old.classList.remove('current');
      old.removeAttribute('aria-current');
    }
    if (current) {
      current.classList.add('current');
      current.setAttribute('aria-current', 'step');
      if (followCurrent && !pending && document.activeElement !== current) current.focus({ preventScroll: true });
    }
    if (!current) {
      // The start position (before the first move): the list from its top; no moves yet: its end.
      list.scrollTop = viewPly === 0 && list.querySelector('.move') ? 0 : list.scrollHeight;
      return;
    }
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  }

  /**
   * Draws the list anew; a move that had the focus hands it to its new button. False when that
   * move is no longer in the list.
   */
  private draw(content: MoveListContent, classes: (MoveClass | '')[], others: VariationMove[][][], focused: HTMLElement | null): boolean {
    const list = this.list;
    const { initialFen, san, result, pending } = content;
    const refocus = focused
      ? focused.dataset.ply !== undefined
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
      if (ply > san.length) {
        // Not yet played: what it is is said in words too (the status line says it is being sent).
        const item = el('span', 'pending-move', pending);
        item.setAttribute('aria-label', `${pending}, being sent`);
        row?.appendChild(item);
        return;
      }
      const button = el('button', 'move', san[ply - 1]);
      button.type = 'button';
      button.dataset.ply = String(ply);
      const cls = classes[ply - 1];
      if (cls) {
        button.dataset.class = cls;
        const mark = CLASS_MARK[cls];
        if (mark) {
          button.append(el('span', 'move-mark', mark));
          button.setAttribute('aria-label', `${san[ply - 1]}, ${cls}`);
        }
      }
      row?.appendChild(button);
    };

    const plies = san.length + (pending ? 1 : 0);
    for (let ply = 1; ply <= plies; ply++) {
      const whiteMove = blackFirst ? ply % 2 === 0 : ply % 2 === 1;
      if (whiteMove || ply === 1 || rowCut) {
        row = el('li', 'move-row');
        row.appendChild(el('span', 'move-number', `${moveNumber}.`));
        if (!whiteMove) row.appendChild(el('span', 'move placeholder', '…'));
        list.appendChild(row);
        rowCut = false;
      }
      addMove(ply);
      const lines = others[ply - 1] ?? [];
      if (lines.length > 0) {
        const item = el('li', 'move-variations');
        lines.forEach((line, i) => {
          if (i > 0) item.append(' ');
          item.append(renderVariation(line, firstPly));
        });
        list.appendChild(item);
        rowCut = whiteMove;
      }
      if (!whiteMove) moveNumber++;
    }
    if (plies === 0 && result === '*') list.appendChild(el('li', 'move-empty', 'No moves yet'));
    if (result !== '*') list.appendChild(el('li', 'move-result', result));

    const again = refocus ? list.querySelector<HTMLElement>(refocus) : null;
    again?.focus({ preventScroll: true });
    return !!again;
  }
}
