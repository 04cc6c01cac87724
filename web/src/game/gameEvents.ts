// The game events of the stream and the WebSocket, in both shapes a server may send:
// newer servers send {type: "gameFull", game} first and then a small {type: "gameState", …} per
// change; older ones send {type: "game", game} (the whole game) at every change. Either way the
// page keeps a whole Game: a gameState is merged into the game it follows, and anything it cannot
// be merged into (a version gap, a takeback of several plies before we saw them) asks for a read.
import type { Color, Game, GameState, Gone, Presence } from '../api/types';
import { inCheck } from '../chess/position';

/** Only who is connected changed (no new version of the game). */
export interface PresenceChange {
  gameId: string;
  presence?: Presence;
  gone?: Partial<Record<Color, Gone>>;
}

export type GameEvent =
  | { kind: 'full'; game: Game }
  | { kind: 'state'; state: GameState }
  | { kind: 'presence'; change: PresenceChange }
  | { kind: 'none' };

/** Recognises a game event among the messages of a WebSocket or a game stream. */
export function readGameEvent(message: { type?: unknown; [key: string]: unknown }): GameEvent {
  if ((message.type === 'game' || message.type === 'gameFull') && message.game && typeof message.game === 'object') {
    return { kind: 'full', game: message.game as Game };
  }
  if (message.type === 'gameState' && typeof message.gameId === 'string' && typeof message.version === 'number') {
    return { kind: 'state', state: message as unknown as GameState };
  }
  if (message.type === 'presence' && typeof message.gameId === 'string') {
    return { kind: 'presence', change: message as unknown as PresenceChange };
  }
  return { kind: 'none' };
}

/** The game with who is connected as `change` says (the same game when nothing changed). */
export function mergePresence(game: Game, change: PresenceChange): Game {
  if (change.gameId !== game.id || !change.presence) return game;
  return { ...game, presence: change.presence, gone: orUndefined(change.gone) };
}

/** A null in a gameState means "none": the page's Game leaves such fields out. */
function orUndefined<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}

/**
 * The game after `state`, or null when `state` does not follow `game` closely enough to be merged
 * (the caller reads the game then). A state at or below the game's version returns the game.
 */
export function mergeGameState(game: Game, state: GameState): Game | null {
  if (state.gameId !== game.id) return null;
  if (state.version <= game.version) return game;
  if (state.version !== game.version + 1) return null;
  let moves = game.moves;
  let san = game.san;
  if (state.moveCount === moves.length + 1) {
    if (!state.lastMove) return null;
    moves = [...moves, state.lastMove.uci];
    san = [...san, state.lastMove.san ?? state.lastMove.uci];
  } else if (state.moveCount < moves.length) {
    // A takeback: the remaining moves are the ones we had.
    moves = moves.slice(0, state.moveCount);
    san = san.slice(0, state.moveCount);
  } else if (state.moveCount !== moves.length) {
    return null;
  }
  const merged: Game = {
    ...game,
    version: state.version,
    fen: state.fen,
    moves,
    san,
    turn: state.turn,
    status: state.status,
    result: state.result,
    reason: orUndefined(state.reason),
    winner: orUndefined(state.winner),
    check: state.check ?? inCheck(state.fen),
    legalMoves: state.legalMoves ?? [],
    clock: 'clock' in state ? orUndefined(state.clock) : game.clock,
    firstMoveDeadlineMs: orUndefined(state.firstMoveDeadlineMs),
    drawOffer: orUndefined(state.drawOffer),
    takebackOffer: orUndefined(state.takebackOffer),
    presence: 'presence' in state ? orUndefined(state.presence) : game.presence,
    gone: 'gone' in state || 'presence' in state ? orUndefined(state.gone) : game.gone,
    engineThinking: state.engineThinking,
    opening: 'opening' in state ? orUndefined(state.opening) : game.opening,
    rematch: 'rematch' in state ? orUndefined(state.rematch) : game.rematch,
    spectators: 'spectators' in state ? orUndefined(state.spectators) : game.spectators,
    // The engine's last move details belong to the full game it came with.
    engineMove: undefined,
  };
  return merged;
}
