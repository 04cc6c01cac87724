// Formatting of scores, counts, clocks and results for people.
import type { Game, MoveClass, Score } from '../api/types';

/** A reviewed move's mark after its SAN: ?! inaccuracy, ? mistake, ?? blunder; best and good (not judged) none. */
export const CLASS_MARK: Partial<Record<MoveClass, string>> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// The usual logistic mapping of centipawns to an expected result (as Lichess shows it), used when
// the server sends no winChance of its own.
const WIN_CHANCE_SCALE = 0.00368208;

/** "+0.34", "−1.20", "#3", "#−2" (White's point of view), with ≥/≤ for bounds. */
export function formatScore(score: Score | undefined): string {
  if (!score) return '–';
  const bound = score.bound === 'lower' ? '≥' : score.bound === 'upper' ? '≤' : '';
  if (score.mate !== undefined) {
    return `${bound}#${score.mate < 0 ? '−' : ''}${Math.abs(score.mate)}`;
  }
  const cp = score.cp ?? 0;
  const sign = cp > 0 ? '+' : cp < 0 ? '−' : '';
  return `${bound}${sign}${(Math.abs(cp) / 100).toFixed(2)}`;
}

/**
 * White's expected result in [0, 1]. `turn`: the side to move in the position, which a score of
 * mate 0 needs (that side is mated; the score's sign cannot say which side it is).
 */
export function whiteWinChance(score: Score | undefined, turn?: 'white' | 'black'): number {
  if (!score) return 0.5;
  if (typeof score.winChance === 'number') return score.winChance;
  if (score.mate === 0 && turn) return turn === 'white' ? 0 : 1;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : score.mate < 0 ? 0 : 0.5;
  const cp = score.cp ?? 0;
  return 1 / (1 + Math.exp(-WIN_CHANCE_SCALE * cp));
}

/** "1 move", "2 moves": a count with its noun, singular for one. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

export function formatCount(n: number | undefined): string {
  if (n === undefined) return '–';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

/** Clock text: "4:59", "0:09.4" under ten seconds. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  const totalSeconds = Math.floor(clamped / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  const hours = Math.floor(minutes / 60);
  if (hours > 0) return `${hours}:${String(minutes % 60).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  if (clamped < 10000) return `${minutes}:${String(seconds).padStart(2, '0')}.${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

const REASONS: Record<string, string> = {
  threefold_repetition: 'threefold repetition',
  fifty_moves: 'the fifty-move rule',
  insufficient_material: 'insufficient material',
  stalemate: 'stalemate',
  agreement: 'agreement',
  abandoned: 'claim (the other side left)',
};

function colorName(color: string | undefined): string {
  return color === 'black' ? 'Black' : 'White';
}

/** The game-over message, or '' while the game goes on. */
export function gameOverText(
  game: Pick<Game, 'status' | 'result' | 'winner' | 'reason'> & { turn?: Game['turn'] },
): string {
  const winner = game.winner ?? (game.result === '1-0' ? 'white' : game.result === '0-1' ? 'black' : undefined);
  const loser = winner === 'white' ? 'black' : 'white';
  switch (game.status) {
    case 'ongoing':
      return '';
    case 'checkmate':
      return `Checkmate — ${colorName(winner)} wins`;
    case 'stalemate':
      return 'Stalemate — draw';
    case 'draw':
      return `Draw by ${REASONS[game.reason ?? ''] ?? game.reason ?? 'agreement'}`;
    case 'resigned':
      return `${colorName(loser)} resigned — ${colorName(winner)} wins`;
    case 'timeout':
      return winner
        ? `${colorName(loser)} ran out of time — ${colorName(winner)} wins`
        : 'Time out — draw (the other side cannot mate)';
    case 'aborted':
      // Nobody loses a game that never began: the side to move missed its first move.
      return game.reason === 'first_move_missed'
        ? `Game aborted — ${colorName(game.turn)} did not make a first move in time`
        : 'Game aborted';
    case 'abandoned':
      return `${colorName(loser)} left the game — ${colorName(winner)} wins`;
    default:
      return `Game over (${game.result})`;
  }
}
