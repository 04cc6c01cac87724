// The server's time as seen from this browser. Every clock reading carries `at`, the server's
// time of the reading; it was made before it reached us, so `at - Date.now()` on arrival is a
// lower bound of (server time - local time), short of the true offset by the message's delay.
// The largest of the recent bounds is the estimate: the fastest message says most. Two browsers
// that both do this show the same clock within their smallest one-way delay, whatever their
// computer clocks say.

/** Bounds older than this many samples are forgotten (a computer clock may be set meanwhile). */
const SAMPLES_KEPT = 16;

export class ServerClock {
  private samples: number[] = [];
  private offsetMs: number | null = null;

  /** A server time (ms since the epoch) just received. */
  observe(serverMs: number, localMs = Date.now()): void {
    if (!Number.isFinite(serverMs)) return;
    this.samples.push(serverMs - localMs);
    if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
    this.offsetMs = Math.max(...this.samples);
  }

  /** Whether any server time has been seen. */
  known(): boolean {
    return this.offsetMs !== null;
  }

  /** Server time minus local time, as estimated (0 before any reading). */
  offset(): number {
    return this.offsetMs ?? 0;
  }

  /** The server's time now, by the estimate. */
  now(): number {
    return Date.now() + this.offset();
  }
}
