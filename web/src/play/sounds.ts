// Sounds of play: a move, a capture, a check, low time and the game's end, made with Web Audio
// (no files). A mute switch in the top bar, kept in localStorage, survives a reload. Each sound
// played is also counted on <body data-sound-…> so a test (or a curious developer) can see it,
// including in a hidden tab, where a move is heard but not seen.
import type { Game } from '../api/types';
import { el } from '../ui/dom';

export type SoundName = 'move' | 'capture' | 'check' | 'lowTime' | 'end';

const MUTE_KEY = 'outpost.muted';
/** Low time: when the player's own clock first falls under this. */
export const LOW_TIME_MS = 10000;

/** Each sound's tones: [frequency Hz, start s, length s]. */
const TONES: Record<SoundName, ReadonlyArray<[number, number, number]>> = {
  move: [[520, 0, 0.07]],
  capture: [[380, 0, 0.06], [300, 0.06, 0.08]],
  check: [[880, 0, 0.08], [660, 0.09, 0.1]],
  lowTime: [[990, 0, 0.05], [990, 0.12, 0.05]],
  end: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.2]],
};
const VOLUME = 0.08;

function readMuted(): boolean {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

/** The sound of the last move of `after` (a move added since `before`), or null. */
export function moveSound(before: Game | null, after: Game): SoundName | null {
  if (!before || before.id !== after.id || after.moves.length <= before.moves.length) return null;
  const san = after.san[after.san.length - 1] ?? '';
  if (san.includes('+') || san.includes('#')) return 'check';
  if (san.includes('x')) return 'capture';
  return 'move';
}

export class Sounds {
  private muted = readMuted();
  private context: AudioContext | null = null;
  private readonly button: HTMLButtonElement;
  /** The game whose clock the low-time sound follows. */
  private lowTimeFor: string | null = null;
  /** The low-time sound may play: the player's clock has not fallen under it since it last did. */
  private lowTimeArmed = true;

  /** `place`: where the mute switch goes. */
  constructor(place: HTMLElement) {
    this.button = el('button', 'btn btn-small sound-toggle');
    this.button.type = 'button';
    this.button.id = 'btn-mute';
    this.button.addEventListener('click', () => this.setMuted(!this.muted));
    place.appendChild(this.button);
    this.renderButton();
    // Browsers start audio only after a gesture on the page.
    const unlock = () => void this.audio()?.resume();
    window.addEventListener('pointerdown', unlock, { once: true });
    window.addEventListener('keydown', unlock, { once: true });
  }

  isMuted(): boolean {
    return this.muted;
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    try {
      localStorage.setItem(MUTE_KEY, muted ? '1' : '0');
    } catch {
      // Private mode: the switch holds for this page only.
    }
    this.renderButton();
  }

  /** What a change of the game sounds like: its new move, its end. */
  onGame(before: Game | null, after: Game): void {
    const sound = moveSound(before, after);
    if (sound) this.play(sound);
    if (before && before.id === after.id && before.status === 'ongoing' && after.status !== 'ongoing') this.play('end');
  }

  /**
   * The player's own clock as shown at each tick (`left`, null: no clock or not a player's) and
   * whether it runs: low time sounds once when the running clock falls under LOW_TIME_MS, and
   * again only after the clock was back over it (an increment).
   */
  onClock(gameId: string | null, left: number | null, runs: boolean): void {
    if (gameId !== this.lowTimeFor) {
      this.lowTimeFor = gameId;
      this.lowTimeArmed = true;
    }
    if (left === null) return;
    if (left >= LOW_TIME_MS) this.lowTimeArmed = true;
    else if (runs && left > 0 && this.lowTimeArmed) {
      this.lowTimeArmed = false;
      this.play('lowTime');
    }
  }

  play(name: SoundName): void {
    const body = document.body.dataset;
    body.lastSound = name;
    const key = `sound${name[0].toUpperCase()}${name.slice(1)}` as const;
    body[key] = String(Number(body[key] ?? '0') + 1);
    if (this.muted) return;
    body.soundsPlayed = String(Number(body.soundsPlayed ?? '0') + 1);
    const audio = this.audio();
    if (!audio) return;
    const start = audio.currentTime;
    for (const [frequency, offset, length] of TONES[name]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(VOLUME, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + length);
    }
  }

  private audio(): AudioContext | null {
    if (this.context) return this.context;
    try {
      this.context = new AudioContext();
    } catch {
      return null;
    }
    return this.context;
  }

  private renderButton(): void {
    this.button.textContent = this.muted ? '🔇 Sound off' : '🔊 Sound on';
    this.button.setAttribute('aria-label', this.muted ? 'Sound off (click to turn on)' : 'Sound on (click to mute)');
    this.button.setAttribute('aria-pressed', String(this.muted));
    this.button.title = this.button.getAttribute('aria-label') ?? '';
  }
}
