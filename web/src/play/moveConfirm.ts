// The move-confirmation option (as Lichess has for phones and correspondence): when it is on, a
// move made on the board waits for Confirm (or Cancel) before it is sent. Kept in localStorage.
import { el } from '../ui/dom';

const CONFIRM_KEY = 'outpost.confirmMoves';

export class MoveConfirm {
  private enabled: boolean;
  private readonly bar: HTMLDivElement;
  private readonly text: HTMLSpanElement;
  private pending: { resolve: (ok: boolean) => void } | null = null;

  /** `place`: where the option goes; the confirmation bar goes after it. */
  constructor(place: HTMLElement) {
    this.enabled = (() => {
      try {
        return localStorage.getItem(CONFIRM_KEY) === '1';
      } catch {
        return false;
      }
    })();
    const label = el('label', 'confirm-option');
    const box = el('input');
    box.type = 'checkbox';
    box.id = 'confirm-moves';
    box.checked = this.enabled;
    box.addEventListener('change', () => {
      this.enabled = box.checked;
      try {
        localStorage.setItem(CONFIRM_KEY, box.checked ? '1' : '0');
      } catch {
        // Private mode: for this page only.
      }
    });
    label.append(box, document.createTextNode(' Confirm moves'));
    this.bar = el('div', 'confirm-bar');
    this.bar.id = 'confirm-bar';
    this.bar.setAttribute('role', 'alert');
    this.bar.hidden = true;
    this.text = el('span');
    const ok = el('button', 'btn btn-small btn-primary', 'Confirm');
    ok.type = 'button';
    ok.id = 'confirm-move';
    const cancel = el('button', 'btn btn-small', 'Cancel');
    cancel.type = 'button';
    cancel.id = 'cancel-move';
    ok.addEventListener('click', () => this.settle(true));
    cancel.addEventListener('click', () => this.settle(false));
    this.bar.append(this.text, ok, cancel);
    place.appendChild(label);
    place.after(this.bar);
  }

  /** Resolves true when the move (`move`: its SAN, as shown) may be sent: at once when the option is off. */
  confirm(move: string): Promise<boolean> {
    if (!this.enabled) return Promise.resolve(true);
    this.settle(false);
    this.text.textContent = `Play ${move}? `;
    this.bar.hidden = false;
    return new Promise((resolve) => (this.pending = { resolve }));
  }

  /** Drops the move waiting for Confirm, if any (the position it was made in changed). */
  cancel(): void {
    if (this.pending) this.settle(false);
  }

  private settle(ok: boolean): void {
    const pending = this.pending;
    this.pending = null;
    this.bar.hidden = true;
    pending?.resolve(ok);
  }
}
