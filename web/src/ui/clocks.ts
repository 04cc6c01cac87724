// Both clocks, as the server last reported them, with the side to move counting down locally
// between reports. A reading with `at` (the server's time of the reading) counts from that moment
// in the server's time (ServerClock), so every browser shows the same clock; a reading without it
// (an older server) counts from its arrival.
import type { Clock } from '../api/types';
import type { ServerClock } from '../game/serverClock';
import { formatClock } from './format';

const TICK_MS = 100;
const LOW_TIME_MS = 20000;
// After our clock shows zero, ask the server a moment later (its clock is the one that counts).
const FLAG_GRACE_MS = 1000;

type Side = 'white' | 'black';

export class Clocks {
  private base: { white: number; black: number } | null = null;
  /** The reading's time: the server's (`at`), or the local arrival time when there is none. */
  private readAt = 0;
  private serverTimed = false;
  private running: Side | null = null;
  private timer: number | undefined;
  private elements: { white: HTMLElement | null; black: HTMLElement | null } = { white: null, black: null };
  private flagReported = false;
  private lastObservedAt: number | undefined;
  private tickListener: (left: { white: number; black: number } | null, running: Side | null) => void = () => {};

  /** `onFlag` runs once when the running clock reaches zero (the server then decides). */
  constructor(
    private readonly server: ServerClock,
    private readonly onFlag: () => void = () => {},
  ) {}

  /** `running` is the side whose clock runs now, or null when none does. */
  update(clock: Clock | undefined, running: Side | null): void {
    this.base = clock ? { white: clock.white, black: clock.black } : null;
    this.serverTimed = typeof clock?.at === 'number';
    // A reading is news once: drawn again later (any re-render) it would only say less.
    if (this.serverTimed && clock!.at !== this.lastObservedAt) this.server.observe(clock!.at!);
    this.lastObservedAt = clock?.at;
    this.readAt = this.serverTimed ? clock!.at! : Date.now();
    this.running = clock ? running : null;
    this.flagReported = false;
    window.clearInterval(this.timer);
    if (this.running) this.timer = window.setInterval(() => this.render(), TICK_MS);
    this.render();
  }

  /** Told each time the clocks are drawn (every tick while one runs): the time left and who runs. */
  onTick(listener: (left: { white: number; black: number } | null, running: Side | null) => void): void {
    this.tickListener = listener;
  }

  attach(white: HTMLElement, black: HTMLElement): void {
    this.elements = { white, black };
    this.render();
  }

  /** Each side's time left now, in ms, as shown (null without a clock). */
  remaining(): { white: number; black: number } | null {
    if (!this.base) return null;
    const now = this.serverTimed ? this.server.now() : Date.now();
    const elapsed = Math.max(0, now - this.readAt);
    const left = { ...this.base };
    if (this.running) left[this.running] = Math.max(0, left[this.running] - elapsed);
    return left;
  }

  render(): void {
    const left = this.remaining();
    this.tickListener(left, this.running);
    for (const side of ['white', 'black'] as const) {
      const element = this.elements[side];
      if (!element) continue;
      if (!left) {
        element.hidden = true;
        continue;
      }
      element.hidden = false;
      const ms = left[side];
      element.textContent = formatClock(ms);
      element.dataset.ms = String(Math.round(ms));
      if (this.running === side && ms <= 0 && !this.flagReported) {
        this.flagReported = true;
        window.setTimeout(this.onFlag, FLAG_GRACE_MS);
      }
      element.classList.toggle('active', this.running === side);
      element.classList.toggle('low', ms < LOW_TIME_MS);
    }
  }
}
