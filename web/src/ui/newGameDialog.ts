// The new-game dialog: side, strength, clock and starting position, turned into an API request.
import type { LevelInfo, NewGameRequest } from '../api/types';
import { readStartText, type StartPosition } from '../chess/position';
import { byId } from './dom';

const MS_PER_MINUTE = 60000;
const MS_PER_SECOND = 1000;

export interface NewGameChoice {
  request: NewGameRequest;
  humanSide: 'white' | 'black';
  /** A game between people: the other side is played by whoever opens the invite link. */
  friend: boolean;
}

function readForm(form: HTMLFormElement): NewGameChoice {
  const data = new FormData(form);
  const sideChoice = String(data.get('side') ?? 'white');
  const humanSide: 'white' | 'black' =
    sideChoice === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : sideChoice === 'black' ? 'black' : 'white';
  const engineSide = humanSide === 'white' ? 'black' : 'white';
  const friend = data.get('opponent') === 'friend';

  const request: NewGameRequest = { engine: { side: friend ? 'none' : engineSide } };
  const level = String(data.get('level') ?? '3');
  if (friend) {
    // No engine: the strength does not apply.
  } else if (level === 'custom') {
    const limits: { depth?: number; movetime?: number; nodes?: number } = {};
    const depth = Number(data.get('depth'));
    const movetime = Number(data.get('movetime'));
    const nodes = Number(data.get('nodes'));
    if (depth > 0) limits.depth = Math.round(depth);
    if (movetime > 0) limits.movetime = Math.round(movetime);
    if (nodes > 0) limits.nodes = Math.round(nodes);
    if (!limits.depth && !limits.movetime && !limits.nodes) throw new Error('Give at least one custom limit');
    request.engine!.limits = limits;
  } else {
    request.engine!.level = Number(level);
  }

  if (data.get('useClock')) {
    const minutes = Number(data.get('minutes'));
    const increment = Number(data.get('increment'));
    if (!(minutes > 0)) throw new Error('The clock needs some minutes');
    request.clock = {
      initial: Math.round(minutes * MS_PER_MINUTE),
      increment: Math.round(Math.max(0, increment) * MS_PER_SECOND),
    };
  }

  const start = readStartText(String(data.get('start') ?? ''));
  if (start.fen) request.fen = start.fen;
  if (start.moves && start.moves.length) request.moves = start.moves;
  return { request, humanSide, friend };
}

/** "Level 3: about 1500 Elo, looks 3 plies ahead, 0.15 s a move without a clock." */
export function describeLevel(info: LevelInfo): string {
  const parts = [`Level ${info.level}: about ${info.elo} Elo`];
  parts.push(info.depth ? `looks ${info.depth} ${info.depth === 1 ? 'ply' : 'plies'} ahead` : 'full strength');
  parts.push(`${Number((info.movetimeMs / MS_PER_SECOND).toFixed(2))} s a move without a clock`);
  return `${parts.join(', ')}.`;
}

/**
 * Wires the dialog; `onStart` creates the game, `onAnalyse` an analysis board from the pasted
 * position; both resolve to an error message or null.
 */
export function setupNewGameDialog(
  onStart: (choice: NewGameChoice) => Promise<string | null>,
  onAnalyse: (start: StartPosition) => Promise<string | null>,
  levels: () => LevelInfo[] | null,
): () => void {
  const dialog = byId<HTMLDialogElement>('new-game');
  const form = byId<HTMLFormElement>('new-game-form');
  const error = byId('new-game-error');
  const custom = byId('custom-limits');
  const clockRow = byId('clock-row');
  const startButton = byId<HTMLButtonElement>('new-game-start');
  const levelHint = byId('level-hint');
  const strength = byId('strength');
  const friendHint = byId('friend-hint');
  const generalHint = levelHint.textContent; // the page's own words, for Custom or no server list

  const sync = () => {
    const data = new FormData(form);
    custom.hidden = data.get('level') !== 'custom';
    const level = levels()?.find((l) => String(l.level) === data.get('level'));
    levelHint.textContent = level ? describeLevel(level) : generalHint;
    clockRow.hidden = !data.get('useClock');
    const friend = data.get('opponent') === 'friend';
    strength.hidden = friend;
    friendHint.hidden = !friend;
    startButton.textContent = friend ? 'Create invite link' : 'Start game';
  };
  form.addEventListener('change', sync);
  byId('new-game-cancel').addEventListener('click', () => dialog.close());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    let choice: NewGameChoice;
    try {
      choice = readForm(form);
    } catch (err) {
      error.textContent = (err as Error).message;
      return;
    }
    startButton.disabled = true;
    const failure = await onStart(choice);
    startButton.disabled = false;
    if (failure) error.textContent = failure;
    else dialog.close();
  });

  byId('new-game-analyse').addEventListener('click', async () => {
    error.textContent = '';
    let start: StartPosition;
    try {
      start = readStartText(String(new FormData(form).get('start') ?? ''));
    } catch (err) {
      error.textContent = (err as Error).message;
      return;
    }
    const failure = await onAnalyse(start);
    if (failure) error.textContent = failure;
    else dialog.close();
  });

  return () => {
    error.textContent = '';
    sync();
    dialog.showModal();
  };
}
