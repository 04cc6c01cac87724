// What the page adds to play like a chess site (issue 35), kept apart from the page controller:
// the lobby, the chat, sounds with a mute switch, rematch on the game-over card, the
// move-confirmation option and the spectator count. The controller tells it of each game change
// and hands it the WebSocket messages it does not know.
import type { Color, Game } from '../api/types';
import { LobbyPanel } from '../lobby/lobbyPanel';
import { ChatPanel } from './chatPanel';
import { MoveConfirm } from './moveConfirm';
import { RematchButton } from './rematchButton';
import { Sounds } from './sounds';
import './play.css';

/** Who this browser is in the game on screen. */
export interface Seat {
  /** The token that moves this browser's side (null: watching). */
  token: string | null;
  /** The side it plays (null: watching, or both on an analysis board). */
  side: Color | null;
  /** A game between two people (chat and rematch offers belong there). */
  people: boolean;
  /** An analysis board: no sounds, no chat, no rematch. */
  analysis: boolean;
}

export class PlayExtras {
  readonly lobby = new LobbyPanel();
  readonly chat = new ChatPanel();
  readonly sounds: Sounds;
  readonly confirm: MoveConfirm;
  readonly rematch = new RematchButton();
  private last: Game | null = null;
  private readonly spectators: HTMLElement;

  constructor() {
    // The play options under the move box: move confirmation and the mute switch.
    const options = document.createElement('div');
    options.className = 'play-options';
    options.id = 'play-options';
    document.getElementById('move-form')?.after(options);
    this.confirm = new MoveConfirm(options);
    this.sounds = new Sounds(options);
    this.spectators = document.createElement('p');
    this.spectators.id = 'spectator-count';
    this.spectators.className = 'note spectator-count';
    this.spectators.hidden = true;
    document.getElementById('game-status')?.after(this.spectators);
  }

  /** The game on screen changed (or another game is shown: `game` of another id, or null). */
  onGame(game: Game | null, seat: Seat): void {
    const before = this.last;
    this.last = game;
    this.lobby.onGameShown(game?.id ?? null);
    if (game && !seat.analysis) this.sounds.onGame(before, game);
    this.chat.show(game && seat.people && !seat.analysis ? game.id : null, seat.token);
    this.rematch.update(seat.analysis ? null : game, seat.token, seat.side);
    const spectators = game?.spectators;
    this.spectators.hidden = spectators === undefined;
    this.spectators.textContent = spectators === undefined ? '' : `${spectators} watching`;
  }

  /** The live connection came back after a break: what it may have missed is read again. */
  onReconnect(): void {
    this.chat.catchUp();
  }

  /** A WebSocket message the page does not handle; true when it was one of these. */
  handle(message: { type?: unknown; gameId?: unknown }): boolean {
    return this.chat.handle(message);
  }
}
