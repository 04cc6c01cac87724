// Editing the analysis board's lines: make a line the main line, move a variation up one, delete
// a move and all that follows it. Buttons under the move list act on the move on screen; a menu
// opened on a move of the list (right click, the context-menu key or Shift+F10) acts on that move.
// Undo (its button, Ctrl+Z / Cmd+Z) takes the latest edit back (lineUndo.ts).
import { byId, el } from '../ui/dom';

export type LineAction = 'main' | 'up' | 'delete';

export interface LineToolsHooks {
  /** Whether the line to a move (UCI from the start) is the main line as far as it goes. */
  isMain: (line: string[]) => boolean;
  /** Does `action` to the move at the end of `line`. */
  act: (action: LineAction, line: string[]) => void;
  /** What Undo would undo now, in words (lineUndo.ts); null when nothing. */
  undoable: () => string | null;
  /** Undoes the latest edit. */
  undo: () => void;
}

const ACTIONS: { action: LineAction; label: string; key: string }[] = [
  { action: 'main', label: 'Make main line', key: 'Shift+M' },
  { action: 'up', label: 'Move variation up', key: 'Shift+↑' },
  { action: 'delete', label: 'Delete from here', key: 'Delete' },
];

export class LineTools {
  /** The move the buttons act on (the one on screen); null: none (the start position). */
  private onScreen: string[] | null = null;
  private menu: HTMLElement | null = null;
  /** Where the focus goes back to when the menu closes. */
  private opener: HTMLElement | null = null;

  constructor(private readonly hooks: LineToolsHooks) {
    for (const { action } of ACTIONS) {
      byId(`btn-line-${action}`).addEventListener('click', () => {
        if (this.onScreen) this.hooks.act(action, this.onScreen);
      });
    }
    byId('btn-line-undo').addEventListener('click', () => this.hooks.undo());
    document.addEventListener('pointerdown', (event) => {
      if (this.menu && !this.menu.contains(event.target as Node)) this.close(false);
    });
    window.addEventListener('blur', () => this.close(false));
  }

  /** The buttons, for the move on screen (`line`, null at the start); hidden when `shown` is false. */
  render(shown: boolean, line: string[] | null): void {
    const tools = byId('line-tools');
    tools.hidden = !shown;
    this.onScreen = shown && line && line.length > 0 ? line : null;
    const main = !this.onScreen || this.hooks.isMain(this.onScreen);
    byId('line-kind').textContent = !shown ? '' : main ? 'Main line' : 'Variation';
    byId<HTMLButtonElement>('btn-line-main').disabled = main;
    byId<HTMLButtonElement>('btn-line-up').disabled = main;
    byId<HTMLButtonElement>('btn-line-delete').disabled = !this.onScreen;
    const undoable = shown ? this.hooks.undoable() : null;
    const undo = byId<HTMLButtonElement>('btn-line-undo');
    undo.disabled = !undoable;
    undo.title = undoable ? `Undo: ${undoable} (Ctrl+Z)` : 'Undo the last line edit (Ctrl+Z)';
  }

  /** Opens the menu of the move at the end of `line`, at (x, y) on screen, by `opener`. */
  open(line: string[], x: number, y: number, opener: HTMLElement | null): void {
    this.close(false);
    const main = this.hooks.isMain(line);
    const menu = el('div', 'line-menu');
    menu.setAttribute('role', 'menu');
    menu.setAttribute('aria-label', 'Edit the line');
    for (const { action, label, key } of ACTIONS) {
      const item = el('button', 'line-menu-item');
      item.type = 'button';
      item.setAttribute('role', 'menuitem');
      item.dataset.action = action;
      item.disabled = action !== 'delete' && main;
      item.append(el('span', undefined, label), el('kbd', undefined, key));
      item.addEventListener('click', () => {
        this.close(true);
        this.hooks.act(action, line);
      });
      menu.append(item);
    }
    menu.addEventListener('keydown', (event) => {
      // The page's own keys (←/→ along the line, ↑/↓ between variations) wait until it closes.
      event.stopPropagation();
      const items = [...menu.querySelectorAll<HTMLButtonElement>('.line-menu-item:not(:disabled)')];
      const at = items.indexOf(document.activeElement as HTMLButtonElement);
      if (event.key === 'Escape' || event.key === 'Tab') {
        event.preventDefault();
        this.close(true);
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        items[(at + step + items.length) % items.length]?.focus();
      }
    });
    document.body.append(menu);
    // Inside the window, wherever the click was.
    const box = menu.getBoundingClientRect();
    menu.style.left = `${Math.max(0, Math.min(x, window.innerWidth - box.width - 4))}px`;
    menu.style.top = `${Math.max(0, Math.min(y, window.innerHeight - box.height - 4))}px`;
    this.menu = menu;
    this.opener = opener;
    menu.querySelector<HTMLButtonElement>('.line-menu-item:not(:disabled)')?.focus();
  }

  /** Closes the menu; `refocus`: the focus goes back to the move it was opened on. */
  close(refocus: boolean): void {
    if (!this.menu) return;
    this.menu.remove();
    this.menu = null;
    if (refocus && this.opener?.isConnected) this.opener.focus({ preventScroll: true });
    this.opener = null;
  }
}
