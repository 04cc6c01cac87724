// Both clocks, as the server last reported them, with the side to move counting down locally
// between reports.
import type { Clock } from '../api/types';
import { formatClock } from './format';

const TICK_MS = 100;
const LOW_TIME_MS = 20000;
// After our clock shows zero, ask the server a moment later (its clock is the one that counts).
const FLAG_GRACE_MS = 1000;

export class Clocks {
  private base: { white: number; black: number } | null = null;
  private receivedAt = 0;
  private running: 'white' | 'black' | null = null;
  private timer: number | undefined;
  private elements: { white: HTMLElement | null; black: HTMLElement | null } = { white: null, black: null };
  private flagReported = false;

  /** `onFlag` runs once when the running clock reaches zero (the server then decides). */
  constructor(private readonly onFlag: () => void = () => {}) {}

  /** `running` is the side whose clock runs now, or null when none does. */
  update(clock: Clock | undefined, running: 'white' | 'black' | null): void {
    this.base = clock ? { white: clock.white, black: clock.black } : null;
    this.receivedAt = performance.now();
    this.running = clock ? running : null;
    this.flagReported = false;
    window.clearInterval(this.timer);
    if (this.running) this.timer = window.setInterval(() => this.render(), TICK_MS);
    this.render();
  }

  attach(white: HTMLElement, black: HTMLElement): void {
    this.elements = { white, black };
    this.render();
  }

  render(): void {
    for (const side of ['white', 'black'] as const) {
      const element = this.elements[side];
      if (!element) continue;
      if (!this.base) {
        element.hidden = true;
        continue;
      }
      element.hidden = false;
      let ms = this.base[side];
      if (this.running === side) ms -= performance.now() - this.receivedAt;
      element.textContent = formatClock(ms);
      if (this.running === side && ms <= 0 && !this.flagReported) {
        this.flagReported = true;
        window.setTimeout(this.onFlag, FLAG_GRACE_MS);
      }
      element.classList.toggle('active', this.running === side);
      element.classList.toggle('low', ms < LOW_TIME_MS);
    }
  }
}
