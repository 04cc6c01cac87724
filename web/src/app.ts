// The page controller: one game (played against the engine, between people, or an analysis
// board where the person moves both sides), kept in step with the server over REST and the
// WebSocket.
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { ApiError, api, newIdempotencyKey } from './api/rest';
import { Socket, type ConnectionState, type SocketMessage } from './api/socket';
import type { EngineInfo, Game, NewGameRequest, SearchInfo } from './api/types';
import { EngineLines } from './game/engineLines';
import { mergeGameState, mergePresence, readGameEvent } from './game/gameEvents';
import { kept } from './game/keptTokens';
import { isNetworkFailure, playedNext, sendWithRetry } from './game/moveRetry';
import { pendingIn, pendingMove, pendingText, pendingView, type PendingMove } from './game/pendingMove';
import { ServerClock } from './game/serverClock';
import { Analysis } from './analysis';
import { type LineAction, LineTools } from './analysis/lineTools';
import { LineUndo } from './analysis/lineUndo';
import { isLocalGame, LocalBoard } from './analysis/localBoard';
import { VariationTree } from './analysis/variationTree';
import { Board, type BoardState } from './board/board';
import { fenTurn, INITIAL_FEN, legalMovesAt, lineToSan, numberedLine, readTypedMove, viewAt, type StartPosition } from './chess/position';
import { EvalGraph } from './review/evalGraph';
import { setupReviewPgnDialog } from './review/pgnDialog';
import { CLASS_NAME, ReviewPanel } from './review/reviewPanel';
import { ReviewSession } from './review/reviewSession';
import { Clocks } from './ui/clocks';
import { byId, copyText, download, el, toast } from './ui/dom';
import { renderEngineInfo, renderEvalBar } from './ui/enginePanel';
import { CLASS_MARK, countOf, formatCount, formatScore, gameOverText } from './ui/format';
import { firstMoveLeftMs, firstMoveText } from './ui/firstMove';
import { GameOverFocus } from './ui/gameOverFocus';
import { MoveList } from './ui/moveList';
import { setupNewGameDialog, type NewGameChoice } from './ui/newGameDialog';
import { PeoplePanel } from './ui/peoplePanel';
import { rememberGame, renderRecentGames, updateRecentGame } from './ui/recentGames';
import { adoptServerTechniques } from './ui/techniques';
import { PlayExtras } from './play/playExtras';

type Side = 'white' | 'black';
/** Against the engine; between people (one side each, or watching); an analysis board. */
type Mode = 'engine' | 'people' | 'analysis';

const RESIGN_CONFIRM_MS = 3000;
/** The invite link's fragment (never sent to a server): `#invite=<token>&side=<white|black>`. */
const INVITE_PARAM = 'invite';
const INVITE_SIDE_PARAM = 'side';
/** The analysis board kept in this tab that the address names (`?board=<id>`, analysis/keptBoards.ts). */
const BOARD_PARAM = 'board';
/** How often the game is read while the engine's reply is owed and the WebSocket is down. */
const ENGINE_REPLY_POLL_MS = 1000;
/** A step through an analysis board's moves is kept in the tab once the steps pause this long. */
const KEEP_STEPS_AFTER_MS = 400;
/** How often the claim countdown is redrawn. */
const CLAIM_TICK_MS = 1000;

const opposite = (side: Side): Side => (side === 'white' ? 'black' : 'white');

/** Why the engine declined a draw, in words (the server's reason; docs/play.md). */
function drawDeclinedText(answer: NonNullable<Game['drawOfferAnswer']>): string {
  switch (answer.reason) {
    case 'too_early': {
      // Plies played in this game (a game from a FEN counts from there, whatever its move number).
      const when = answer.minPlies ? ` (it weighs one once ${Math.ceil(answer.minPlies / 2)} moves each are played)` : '';
      return `Outpost declines the draw: too early${when}`;
    }
    case 'evaluation':
      return 'Outpost declines the draw: it thinks it stands better';
    case 'moved_on':
      return 'Outpost declines the draw: the game moved on meanwhile';
    default:
      return 'Outpost declines the draw';
  }
}
/** The draws the position makes (the server takes them back against the engine). */
const POSITION_DRAWS = new Set(['stalemate', 'threefold_repetition', 'fifty_moves', 'insufficient_material']);

export class App {
  private readonly board: Board;
  private readonly socket = Socket.forPage();
  private readonly serverClock = new ServerClock();
  private readonly clocks = new Clocks(this.serverClock, () => void this.refresh());
  private readonly lines = new EngineLines();
  private game: Game | null = null;
  private token: string | null = null;
  private inviteToken: string | null = null;
  /** A game between people: the side this browser plays (null: watching, or another mode). */
  private peopleSide: Side | null = null;
  /** A spectator's view of a game without engine, decided when it loads (see mode()). */
  private watchedMode: Mode = 'people';
  private readonly peoplePanel: PeoplePanel;
  private claimTimer: number | undefined;
  /** Redraws the status line while a first-move countdown runs. */
  private firstMoveTimer: number | undefined;
  private viewPly = 0;
  private engineInfo: SearchInfo | null = null;
  /** GET /api/v1/engine, once it has arrived. */
  private engineDescription: EngineInfo | null = null;
  /** The position the engine info belongs to (its PV starts there). */
  private engineInfoFen = INITIAL_FEN;
  private engineThinking = false;
  // The move in flight, shown as pending until its answer (game/pendingMove.ts; null: none). A
  // state newer than the one it was sent from on the stream means the server has dealt with it.
  private pending: PendingMove | null = null;
  // The request of that move until it is settled (answered, refused, or given up and the game
  // read again): a resignation, an abort, a draw offer or a claim made meanwhile waits for it
  // (afterPendingMove), so it is sent against the game the move made, never raced with it.
  private moveInFlight: Promise<boolean> | null = null;
  // The move made on the board that waits for Confirm (the "Confirm moves" option; null: none):
  // the board shows it, and takes no other, until Confirm or Cancel.
  private held: PendingMove | null = null;
  private subscribedTo: string | null = null;
  private readonly analysis: Analysis;
  /** Lobby, chat, sounds, rematch, move confirmation, spectators (play/playExtras.ts). */
  private readonly extras = new PlayExtras();
  /** The analysis board: kept in the page, its lines a tree (analysis/localBoard.ts). */
  private readonly localBoard = new LocalBoard();
  /** The board kept in the page that the tab could not keep (said once), or null. */
  private unkeptBoard: string | null = null;
  /** Its lines edited: made the main line, moved up, deleted (analysis/lineTools.ts). */
  private readonly lineTools: LineTools;
  /** Its line edits, for Undo (analysis/lineUndo.ts). */
  private readonly lineUndo = new LineUndo();
  /** The move list: a step through the game only moves its current-move mark (ui/moveList.ts). */
  private readonly moveList = new MoveList(byId('move-list'));
  private resignArmedUntil = 0;
  /** The analysis board's steps not kept in the tab yet, and when they will be (keepLocalBoard). */
  private keepLater: { id: string; keep: () => void } | null = null;
  private keepTimer: number | undefined;
  /** The next board update jumps instead of animating (a new game was loaded). */
  private jumpBoard = false;
  /** The ply count right after the engine's last move seen live (for "Outpost played …"). */
  private engineMovedAtPly = -1;
  /** The game-over card was closed for this game (it stays closed until the next game). */
  private gameOverDismissed: string | null = null;
  /** The keyboard's focus and the game-over card (ui/gameOverFocus.ts). */
  private readonly gameOverFocus = new GameOverFocus(byId('game-over'), () => this.closeGameOver());
  private openNewGame: () => void;
  /** The game review shown with the game (docs/review.md), its card and its graph. */
  private readonly review: ReviewSession;
  private readonly reviewPanel: ReviewPanel;
  private readonly evalGraph: EvalGraph;
  private openReviewPgn: () => void;
  private loading: Promise<void> | null = null;

  constructor() {
    this.board = new Board(byId('board'));
    this.board.setMoveHandler((uci) => void this.onBoardMove(uci));
    this.analysis = new Analysis(
      this.socket,
      () => this.onAnalysisChanged(),
      (uci) => void this.onBoardMove(uci),
    );
    this.openNewGame = setupNewGameDialog(
      (choice) => this.startGame(choice),
      (start) => this.startAnalysisFrom(start.fen ?? INITIAL_FEN, start.moves ?? [], true, start.variations),
      () => this.engineDescription?.levels ?? null,
    );
    this.lineTools = new LineTools({
      // A stored board (a pasted PGN's) has one line, its main line.
      isMain: (line) => !isLocalGame(this.game?.id) || this.localBoard.tree.isMain(line),
      act: (action, line) => this.editLine(action, line),
      undoable: () => (isLocalGame(this.game?.id) ? this.lineUndo.undoable(this.localBoard.tree) : null),
      undo: () => void this.undoLineEdit(),
    });
    this.review = new ReviewSession(() => this.onReviewChanged());
    this.reviewPanel = new ReviewPanel({
      select: (ply) => this.view(ply),
      again: () => void this.reviewAgain(),
      stop: () => void this.review.stop(),
    });
    this.evalGraph = new EvalGraph(byId('eval-graph'), (ply) => {
      if (ply <= this.reviewCovered()) this.view(ply);
    });
    this.openReviewPgn = setupReviewPgnDialog((pgn, start) => this.reviewPgn(pgn, start));
    this.peoplePanel = new PeoplePanel({
      offer: (kind, yes) => void this.answerOffer(kind, yes),
      claim: (what) => void this.claim(what),
      copyInvite: () => void this.copyInvite(),
    });
    // The low-time sound follows the player's own clock as it runs down, tick by tick.
    this.clocks.onTick((left, running) => {
      const side = this.humanSide();
      const mine = left && (side === 'white' || side === 'black') ? left[side] : null;
      this.extras.sounds.onClock(this.game?.id ?? null, mine, !!running && running === side);
    });
    this.socket.onMessage((message) => this.onSocketMessage(message));
    this.socket.onState((state, reconnected) => this.onConnection(state, reconnected));
    this.bindControls();
    this.bindKeyboard();
    this.render();
  }

  async start(): Promise<void> {
    this.socket.connect();
    void this.loadEngineInfo();
    // The steps not kept yet are kept before the page goes (a reload, another address, the tab
    // closed or put in the background, where it may be discarded).
    window.addEventListener('pagehide', () => this.keepStepsNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.keepStepsNow();
    });
    window.addEventListener('popstate', () => {
      // Back or Forward goes to another page of the history: a new-game or PGN dialog opened on
      // the one left (the new-game dialog a bare address opens, one the person opened) closes,
      // else it would stay over the game now shown. A bare address opens the new-game one again.
      for (const id of ['new-game', 'review-pgn']) byId<HTMLDialogElement>(id).close();
      this.keepStepsNow();
      void this.loadFromUrl();
    });
    await this.loadFromUrl();
  }

  /** The server's switches and levels; the page's own copy serves until (unless) they arrive. */
  private async loadEngineInfo(): Promise<void> {
    try {
      this.engineDescription = await api.engineInfo();
    } catch {
      return;
    }
    adoptServerTechniques(this.engineDescription.techniques);
    this.analysis.renderTechniques();
    // The new-game dialog (open at once on a first visit) describes the chosen level now.
    byId('new-game-form').dispatchEvent(new Event('change'));
  }

  /** For tests and the console: what the board shows, and the game as last received. */
  snapshot(): { placement: string; game: Game | null; viewPly: number } {
    return { placement: this.board.placement(), game: this.game, viewPly: this.viewPly };
  }

  /**
   * For tests: each side's time left as shown now, and the real time of the reading (the
   * browser's own clock may be set wrong; performance.timeOrigin + now() is not affected).
   */
  clockReading(): { white: number; black: number; at: number } | null {
    const left = this.clocks.remaining();
    return left ? { ...left, at: performance.timeOrigin + performance.now() } : null;
  }

  /** Drops the live connection as a network failure would; it reconnects by itself. */
  dropConnection(): void {
    this.socket.dropForTest();
  }

  // ---- Loading and creating games -------------------------------------------------------------

  private loadFromUrl(): Promise<void> {
    this.loading ??= this.loadGameInUrl().finally(() => (this.loading = null));
    return this.loading;
  }

  private async loadGameInUrl(): Promise<void> {
    const params = new URLSearchParams(location.search);
    const board = params.get(BOARD_PARAM);
    if (board && !params.has('game')) {
      this.restoreAnalysisBoard(board);
      return;
    }
    const id = params.get('game');
    if (id) this.adoptInviteFragment(id);
    if (!id) {
      this.setGame(null);
      this.openNewGame();
      return;
    }
    try {
      const game = await api.getGame(id);
      rememberGame(id);
      this.token = kept.token(id);
      this.inviteToken = kept.inviteToken(id);
      this.peopleSide = kept.peopleSide(id);
      this.setGame(game, kept.orientation(id) ?? this.defaultOrientation(game), 'loaded');
    } catch (err) {
      if (this.game?.id === id) return; // loaded meanwhile by another path
      this.setGame(null);
      toast(err instanceof ApiError && err.code === 'not_found' ? 'That game does not exist' : String((err as Error).message), 'error');
    }
  }

  /**
   * An invite link's fragment carries the token of a side of a game between people: it is kept
   * like the creator's, and taken out of the address (so the address bar shows a link to watch).
   * A browser that already plays a side of that game keeps it: the creator opening the link it
   * sends must not give its own side away (both tabs share this browser's kept tokens).
   */
  private adoptInviteFragment(id: string): void {
    const fragment = new URLSearchParams(location.hash.slice(1));
    const token = fragment.get(INVITE_PARAM);
    if (!token) return;
    history.replaceState(null, '', `${location.pathname}${location.search}`);
    const mine = kept.token(id);
    if (mine) {
      if (token === kept.inviteToken(id)) toast('This is your own invite link: send it to your friend', 'info');
      else if (token !== mine) toast('You already play this game in this browser', 'info');
      return;
    }
    const side: Side = fragment.get(INVITE_SIDE_PARAM) === 'white' ? 'white' : 'black';
    kept.setToken(id, token);
    kept.setPeopleSide(id, side);
    kept.setOrientation(id, side);
  }

  /**
   * Creates a game, sent again (as a move is: moveRetry.ts) while the request fails on the
   * network or the store did not settle it, always with the one Idempotency-Key: the server makes
   * the game once and answers a retry with it, so a lost answer never makes two games.
   */
  private createGameOnce(request: NewGameRequest): Promise<Game> {
    const key = newIdempotencyKey();
    return sendWithRetry(
      () => api.createGame(request, key),
      () => true,
      () => {},
    );
  }

  private async startGame(choice: NewGameChoice): Promise<string | null> {
    try {
      const game = await this.createGameOnce(choice.request);
      if (choice.friend) {
        // The server gives the creator White's token and the invited player Black's: a creator who
        // plays Black keeps the second and sends the first.
        const mine = choice.humanSide === 'white' ? game.playerToken : game.inviteToken;
        const theirs = choice.humanSide === 'white' ? game.inviteToken : game.playerToken;
        this.adoptNewGame(game, choice.humanSide, false, { mine, theirs, side: choice.humanSide });
      } else {
        this.adoptNewGame(game, choice.humanSide);
      }
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** An analysis board from the position on screen (or the initial position). */
  private async startAnalysis(): Promise<void> {
    const failure = this.game
      ? await this.startAnalysisFrom(this.game.initialFen, this.game.moves.slice(0, this.viewPly))
      : await this.startAnalysisFrom(INITIAL_FEN, []);
    if (failure) toast(failure, 'error');
  }

  /** An analysis board (a game without engine) from a position; resolves to an error or null. */
  private async startAnalysisFrom(fen: string, moves: string[], analyse = true, variations?: string[][]): Promise<string | null> {
    // Kept in the page: no stored game, however many lines are tried (analysis/localBoard.ts).
    const game = this.localBoard.start(fen, moves, variations);
    if (typeof game === 'string') return game;
    if (analyse) this.analysis.want();
    else this.analysis.pause();
    this.adoptLocalBoard(game.id);
    this.setGame(game, this.board.orientation(), 'created');
    return null;
  }

  /**
   * The analysis board `id` as this tab kept it (a reload, Back or Forward): its lines and the
   * position on screen. One the tab no longer keeps leaves the page as on a first visit.
   */
  private restoreAnalysisBoard(id: string): void {
    const restored = this.localBoard.restore(id);
    if (!restored) {
      toast('That analysis board is no longer kept in this tab', 'error');
      history.replaceState(null, '', location.pathname);
      this.setGame(null);
      this.openNewGame();
      return;
    }
    this.adoptLocalBoard(null);
    this.setGame(restored.game, restored.orientation, 'created', restored.ply);
  }

  /**
   * The page moves both sides of a board kept in the page: both its "tokens" are the page's own
   * (mode() "analysis"). `pushId`: a new board, named in a new address (Back leaves it).
   */
  private adoptLocalBoard(pushId: string | null): void {
    this.token = 'local';
    this.inviteToken = 'local';
    this.peopleSide = null;
    if (pushId) history.pushState(null, '', `?${BOARD_PARAM}=${encodeURIComponent(pushId)}`);
  }

  /**
   * Keeps the analysis board on screen in this tab, as it is now (so a reload brings it back).
   * `later`: a step through its moves (← →), which only changes the position on screen: kept
   * once the steps pause (KEEP_STEPS_AFTER_MS), or as the page is hidden or left (a reload), so
   * that holding → does not write the whole board to the tab's storage at each step. Any other
   * change is kept at once, and takes the place of a step not kept yet.
   */
  private keepLocalBoard(later = false): void {
    const game = this.game;
    if (!game || !isLocalGame(game.id)) return;
    const write = this.localBoard.keeper(game.moves, this.viewPly, this.board.orientation());
    const keep = () => {
      const kept = write();
      // Not silently: a reload would bring back the board as last kept (or not at all). Said once
      // a board, until it is kept again (a line deleted).
      if (kept) this.unkeptBoard = null;
      else if (this.unkeptBoard !== game.id) {
        this.unkeptBoard = game.id;
        toast('This analysis board is too large to keep in this tab: a reload would lose its latest lines (Download PGN keeps them)', 'error');
      }
    };
    // A step of another board not kept yet is kept first; one of this board is outdated by this.
    if (this.keepLater?.id !== game.id) this.keepStepsNow();
    this.keepLater = null;
    window.clearTimeout(this.keepTimer);
    if (!later) {
      keep();
      return;
    }
    this.keepLater = { id: game.id, keep };
    this.keepTimer = window.setTimeout(() => this.keepStepsNow(), KEEP_STEPS_AFTER_MS);
  }

  /** Keeps the steps not kept yet (keepLocalBoard's `later`), now. */
  private keepStepsNow(): void {
    const pending = this.keepLater;
    this.keepLater = null;
    window.clearTimeout(this.keepTimer);
    pending?.keep();
  }

  /**
   * A stored analysis board (a game without engine): a pasted PGN's, so its review is named in
   * the URL and found again after a reload. A line tried from an earlier position of it turns it
   * into a board kept in the page (branchAnalysis): never a stored game per branch.
   */
  private async storedAnalysisFrom(fen: string, moves: string[], analyse = true): Promise<string | null> {
    try {
      const game = await this.createGameOnce({ fen, moves, engine: { side: 'none' } });
      if (analyse) this.analysis.want();
      else this.analysis.pause();
      this.adoptNewGame(game, this.board.orientation());
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /**
   * A move (UCI or SAN) from an earlier position of an analysis board: a variation in the page's
   * tree. False when it is illegal there.
   */
  private branchAnalysis(move: string): boolean {
    const game = this.game;
    if (!game) return false;
    if (!isLocalGame(game.id) && !this.boardInPage(game)) return false;
    // A variation in the page's tree: no stored game.
    const branched = this.localBoard.play(game.moves.slice(0, this.viewPly), move);
    if (!branched) {
      toast(this.illegalMoveText(move, viewAt(game.initialFen, game.moves, this.viewPly).fen), 'error');
      this.renderBoard();
      return false;
    }
    // The move played is on screen (a move tried before brings back the line that followed it).
    this.setGame(branched, undefined, 'branch', this.viewPly + 1);
    return true;
  }

  /**
   * A stored board (a pasted PGN's) becomes a board kept in the page, its line the main line: as
   * a line is tried from it, or one of its lines edited. The review on screen stays. The Game of
   * it, or null (said) when it cannot be set up.
   */
  private boardInPage(game: Game): Game | null {
    const local = this.localBoard.start(game.initialFen, game.moves);
    if (typeof local === 'string') {
      toast(local, 'error');
      return null;
    }
    this.adoptLocalBoard(local.id);
    return local;
  }

  /** Why a move typed (or dropped) on the analysis board is refused, as the server would say. */
  private illegalMoveText(move: string, fen: string): string {
    const typed = move.trim();
    const example = /^[a-h][1-8][a-h][1-8]$/i.test(typed) ? `${typed}q` : `${typed}=Q`;
    return typed.length <= 8 && readTypedMove(fen, example) !== null
      ? `Move refused: ${typed} needs a promotion piece (like ${example})`
      : `Move refused: ${typed} is not legal here`;
  }

  /** Shows the position after the last move of `line`, a line tried on the analysis board. */
  private viewVariation(line: string[]): void {
    const game = this.game;
    if (!game || !isLocalGame(game.id)) return;
    const shown = this.localBoard.show(this.localBoard.tree.continuation(line));
    if (shown) this.setGame(shown, undefined, 'branch', line.length);
  }

  /**
   * The line to the move on screen of an analysis board whose lines this page edits: a board kept
   * in the page, or a pasted PGN's stored board that this browser made (its first edit makes it a
   * board in the page, as a line tried from it does); null for another game, or someone else's board.
   */
  private localLineOnScreen(): string[] | null {
    const game = this.game;
    return game && this.isAnalysisBoard() && this.token ? game.moves.slice(0, this.viewPly) : null;
  }

  /**
   * The line to the move before (`step` -1) or after (+1) the move on screen in the order they
   * were tried at its position (↑/↓): that line is shown, from the same point.
   */
  private switchVariation(step: -1 | 1): void {
    const line = isLocalGame(this.game?.id) ? this.localLineOnScreen() : null;
    const other = line && line.length > 0 ? this.localBoard.tree.sibling(line, step) : null;
    if (other) this.viewVariation(other);
  }

  /**
   * Edits the board's tree at the move at the end of `line`: makes that line the main line, moves
   * its variation up one, or deletes that move and every line through it. The PGN and the kept
   * board follow; a deleted line on screen gives way to the line of the position before it.
   */
  private editLine(action: LineAction, line: string[]): void {
    const game = this.game;
    if (!game || line.length === 0) return;
    if (!isLocalGame(game.id)) {
      // A pasted PGN's stored board: its first edit makes it a board in the page, then is done there.
      const local = this.localLineOnScreen() && this.boardInPage(game);
      if (!local) return;
      this.setGame(local, undefined, 'branch', this.viewPly);
      this.editLine(action, line);
      return;
    }
    const tree = this.localBoard.tree;
    const undoTo = LineUndo.before(tree, game.moves, this.viewPly);
    const san = lineToSan(game.initialFen, line).at(-1) ?? line[line.length - 1];
    const move = numberedLine(viewAt(game.initialFen, line, line.length - 1).fen, [san]);
    if (action === 'main' || action === 'up') {
      if (!(action === 'main' ? tree.makeMain(line) : tree.moveUp(line))) return;
      this.lineUndo.record(action === 'main' ? `make ${move} the main line` : `move ${move} up`, tree, undoTo);
      this.keepLocalBoard();
      this.renderMoves();
      return;
    }
    const removed = tree.remove(line);
    if (removed === 0) return;
    this.lineUndo.record(`delete ${move}`, tree, undoTo);
    toast(`Deleted ${move}${removed > 1 ? ` and ${countOf(removed - 1, 'move')} after it` : ''} (Ctrl+Z or ↶ Undo brings it back)`, 'info');
    const onScreen = line.every((uci, i) => game.moves[i] === uci);
    if (!onScreen) {
      // Another line than the one on screen: it stays as it is.
      this.keepLocalBoard();
      this.renderMoves();
      return;
    }
    const before = line.slice(0, -1);
    const shown = this.localBoard.show(tree.continuation(before));
    // The position on screen stays when it came before the move deleted.
    if (shown) this.setGame(shown, undefined, 'branch', Math.min(this.viewPly, before.length));
  }

  /**
   * Undoes the latest line edit of the board on screen: its lines, and the line and position on
   * screen, as they were before it; the PGN and the kept board follow. False when there was none.
   */
  private undoLineEdit(): boolean {
    const game = this.game;
    if (!game || !isLocalGame(game.id) || !this.isAnalysisBoard()) return false;
    let shown: Game | null = null;
    const undone = this.lineUndo.undo(this.localBoard.tree, (state) => (shown = this.localBoard.replace(state.lines, state.shown)));
    if (!undone) return false;
    toast(`Undone: ${undone.what}`, 'info');
    if (shown) this.setGame(shown, undefined, 'branch', undone.state.ply);
    return true;
  }

  /**
   * `keepReview`: the review on screen stays (a branch of the reviewed game). `people`: a game
   * between people, this browser's side and token, and the friend's (for the invite link).
   */
  private adoptNewGame(
    game: Game,
    orientation: Side,
    keepReview = false,
    people?: { mine?: string; theirs?: string; side: Side },
  ): void {
    const mine = people ? people.mine : game.playerToken;
    const theirs = people ? people.theirs : game.inviteToken;
    if (mine) kept.setToken(game.id, mine);
    if (theirs) kept.setInviteToken(game.id, theirs);
    if (people) kept.setPeopleSide(game.id, people.side);
    kept.setOrientation(game.id, orientation);
    rememberGame(game.id);
    this.token = mine ?? null;
    this.inviteToken = theirs ?? null;
    this.peopleSide = people?.side ?? null;
    history.pushState(null, '', this.gameUrl(game.id, keepReview ? this.review.review : null));
    this.setGame(game, orientation, keepReview ? 'branch' : 'created');
  }

  /** `?game=<id>`, plus `&review=<id>` for a review that is not the game's own (a pasted PGN's). */
  private gameUrl(gameId: string, review: { id: string; gameId?: string } | null): string {
    const reviewPart = review && review.gameId !== gameId ? `&review=${encodeURIComponent(review.id)}` : '';
    return `?game=${encodeURIComponent(gameId)}${reviewPart}`;
  }

  private defaultOrientation(game: Game): Side {
    // Players see their own side at the bottom; the engine's opponent is the person.
    if (this.peopleSide) return this.peopleSide;
    return game.engine.side === 'white' ? 'black' : 'white';
  }

  /**
   * Which kind of game is on screen. A game without engine is an analysis board where this
   * browser holds both sides' tokens (it made the board); one where it plays a side, or has no
   * token at all (a spectator's), is a game between people.
   */
  private mode(): Mode {
    const game = this.game;
    if (!game || game.engine.side !== 'none') return 'engine';
    if (this.peopleSide) return 'people';
    if (this.token && this.inviteToken) return 'analysis';
    return this.token ? 'people' : this.watchedMode;
  }

  /**
   * Watching a game without engine: a game between people (with a clock, or a player connected
   * or offering something when it loads), else an analysis board someone made (the spectator
   * gets the live analysis and the review).
   */
  private static watchedModeOf(game: Game): Mode {
    const played = !!game.clock || !!game.presence?.white || !!game.presence?.black || !!game.drawOffer || !!game.takebackOffer;
    return played ? 'people' : 'analysis';
  }

  /**
   * `origin`: "loaded" (a link or a reload: the game may have a kept review), "created" (a new
   * game: no review yet), "branch" (a branch of the game on screen: its review stays).
   * `viewPly`: the position shown (the last by default).
   */
  private setGame(
    game: Game | null,
    orientation?: Side,
    origin: 'loaded' | 'created' | 'branch' = 'created',
    viewPly?: number,
  ): void {
    this.game = game;
    if (game) this.watchedMode = App.watchedModeOf(game);
    if (origin !== 'branch' || !game) {
      this.review.reset();
      // A reload (or a link) shows the review named in the URL, or the game's kept review. Only
      // games the page offers to review are asked about (the others would answer 404), and of
      // those the ones the game says have a review (Game.review), or, from a server that does
      // not say, the ones this browser has seen reviewed (review/knownReviews.ts).
      const named = new URLSearchParams(location.search).get('review');
      const reviewable = !!game && game.moves.length > 0 && (game.status !== 'ongoing' || this.isAnalysisBoard());
      if (game && origin === 'loaded' && (named || reviewable)) void this.review.load(reviewable ? game.id : null, named, game.review);
    }
    void renderRecentGames(game?.id ?? null);
    this.engineInfo = null;
    this.lines.reset();
    this.engineThinking = game ? this.engineThinks(game) : false;
    this.viewPly = game ? Math.min(viewPly ?? game.moves.length, game.moves.length) : 0;
    if (orientation) this.board.setOrientation(orientation);
    this.keepLocalBoard();
    this.subscribe();
    this.jumpBoard = true;
    this.render();
    this.followAnalysis();
  }

  // ---- Game updates ---------------------------------------------------------------------------

  /** Applies a newer state of the current game (from a REST reply or the stream). */
  private applyGame(game: Game): void {
    const current = this.game;
    if (!current || current.id !== game.id) return;
    if (game.version < current.version) return;
    const changed = game.version > current.version;
    // The stream can bring the move (and the engine's reply) before the move's own answer: the
    // buttons held back for it (Takeback) come back with the state that shows it.
    if (this.pending && (this.pending.gameId !== game.id || game.version > this.pending.from)) this.pending = null;
    const wasLive = this.viewPly === current.moves.length;
    // A move waiting for Confirm was made in the position that just changed: its bar goes (an
    // offer or presence that leaves the position as it was keeps it).
    if (game.fen !== current.fen || game.status !== current.status) this.extras.confirm.cancel();
    this.game = game;
    if (wasLive || this.viewPly > game.moves.length) this.viewPly = game.moves.length;
    this.keepLocalBoard();
    if (changed) {
      // New moves arrived and the last of them was the engine's.
      const engineJustMoved = game.moves.length > current.moves.length && opposite(game.turn) === game.engine.side;
      this.engineThinking = this.engineThinks(game);
      if (engineJustMoved) {
        this.engineMovedAtPly = game.moves.length;
        // The panel shows the line of the move played, from the position it was played in.
        const before = viewAt(game.initialFen, game.moves, game.moves.length - 1).fen;
        this.engineInfo = this.lines.playedLine(before, game.moves[game.moves.length - 1], game.engineMove);
        this.engineInfoFen = before;
      }
      updateRecentGame(game);
    }
    this.render();
    if (changed && this.isLive() && this.myTurn()) this.board.playPremove();
    if (changed) this.followAnalysis();
  }

  /** The token that moves `side`: White's is `token` on an analysis board, Black's `inviteToken`. */
  private tokenFor(side: Side): string | null {
    if (this.mode() !== 'analysis') return this.token;
    return side === 'black' && this.inviteToken ? this.inviteToken : this.token;
  }

  private engineToMove(game: Game): boolean {
    return game.status === 'ongoing' && game.engine.side === game.turn;
  }

  /** The engine owes a reply: as the server says (newer servers), else from whose turn it is. */
  private engineThinks(game: Game): boolean {
    return this.engineToMove(game) && (game.engineThinking ?? true);
  }

  private humanSide(): Side | 'both' | null {
    const game = this.game;
    if (!game || !this.token) return null;
    const mode = this.mode();
    if (mode === 'analysis') return 'both';
    if (mode === 'people') return this.peopleSide;
    return game.engine.side === 'none' ? null : opposite(game.engine.side);
  }

  private myTurn(): boolean {
    const side = this.humanSide();
    return !!this.game && this.game.status === 'ongoing' && (side === 'both' || side === this.game.turn);
  }

  private isLive(): boolean {
    return !!this.game && this.viewPly === this.game.moves.length;
  }

  private isAnalysisBoard(): boolean {
    return !!this.game && this.mode() === 'analysis';
  }

  private async onBoardMove(uci: string): Promise<void> {
    const game = this.game;
    if (!uci || !game || !this.token) {
      this.renderBoard();
      return;
    }
    if (!this.isLive()) {
      if (this.isAnalysisBoard()) this.branchAnalysis(uci);
      else this.renderBoard();
      return;
    }
    const held = pendingMove(game, uci, uci);
    this.held = held;
    const confirmed = await this.extras.confirm.confirm(held.san);
    if (this.held === held) this.held = null;
    // The position changed while the move waited for Confirm (another tab moved, a takeback, the
    // game ended): it was made in a position that is gone, so it is dropped, never sent into the new one.
    const current = this.game;
    if (!confirmed || !current || current.id !== game.id || current.fen !== game.fen || current.status !== 'ongoing') {
      this.renderBoard();
      return;
    }
    await this.sendMove(uci);
  }

  private async sendMove(move: string): Promise<boolean> {
    const game = this.game;
    if (!game || !this.token) return false;
    if (isLocalGame(game.id)) {
      const next = this.localBoard.play(game.moves, move);
      if (!next) {
        toast(this.illegalMoveText(move, game.fen), 'error');
        this.renderBoard();
        return false;
      }
      this.applyGame(next);
      // A move tried before brings back the line that followed it: the move played is on screen.
      this.view(game.moves.length + 1);
      return true;
    }
    // One move at a time: another waits for the answer to this one (a premove is kept on the
    // board and played once the answer lets it).
    if (pendingIn(this.pending, game)) {
      toast(`Your move ${this.pending.san} is still being sent: wait for the server’s answer`, 'error');
      return false;
    }
    const sending = this.sendToServer(game, move);
    this.moveInFlight = sending;
    try {
      return await sending;
    } finally {
      if (this.moveInFlight === sending) this.moveInFlight = null;
    }
  }

  /**
   * Waits until the move in flight (if any) is settled, so that `what` (a resignation, an abort,
   * an offer, a claim) goes to the game as the move left it: sent at once, it would race the move,
   * and a move that lands second answers (clears) a draw offer made meanwhile, or is refused after
   * a resignation the player made after it. The player is told it waits.
   */
  private async afterPendingMove(what: string): Promise<void> {
    const game = this.game;
    if (!this.moveInFlight || !pendingIn(this.pending, game)) return;
    toast(`${what} once your move ${this.pending.san} is answered…`);
    while (this.moveInFlight) await this.moveInFlight;
  }

  private async sendToServer(game: Game, move: string): Promise<boolean> {
    if (!this.token) return false;
    const token = this.tokenFor(game.turn) ?? this.token;
    // The move in the server's UCI (a typed one is SAN): to find it in the game when its answer is lost.
    const uci = readTypedMove(game.fen, move);
    // Shown at once as pending, whatever redraws the page before the answer.
    const pending = pendingMove(game, move, uci);
    this.pending = pending;
    const settle = () => {
      if (this.pending === pending) this.pending = null;
    };
    // The last engine info stays on screen until the engine's next search reports.
    if (game.engine.side !== 'none') this.engineThinking = true;
    this.render();
    try {
      // A request that fails on the network (the connection dropped) is sent again, while the
      // game on screen is still the one the move was made in (game/moveRetry.ts).
      const updated = await sendWithRetry(
        () => api.move(game.id, token, move, game.version),
        () => this.game?.id === game.id && this.game.version === game.version,
        (_attempt, err) => {
          pending.retrying = true;
          if (this.pending === pending) this.renderStatus();
          toast(
            isNetworkFailure(err)
              ? 'The connection dropped: sending your move again…'
              : 'The server did not confirm your move: sending it again…',
          );
        },
      );
      settle();
      this.applyGame(updated);
      // The stream may have brought newer states before this answer (then applyGame drew
      // nothing): the buttons held back while the move was in flight come back now.
      this.renderActions();
      // The answer comes at once; the engine's reply comes on the WebSocket. Without one (it is
      // reconnecting), the page asks for the game until the reply is there.
      if (updated.engineThinking && this.socket.state !== 'open') void this.awaitEngineReply(updated.id, updated.version);
      return true;
    } catch (err) {
      // The board and the list show the server's game again.
      settle();
      await this.refresh();
      this.engineThinking = this.game ? this.engineThinks(this.game) : false;
      // An answer lost on the network, then the game moved on by this very move (an earlier try
      // was stored; the next one was refused as a version conflict): it was played.
      if (playedNext(game, this.game, uci)) {
        this.render();
        return true;
      }
      // A takeback or resignation while the engine thought makes its reply moot, not an error.
      const overtaken = err instanceof ApiError && err.code === 'version_conflict' && (this.game?.version ?? 0) > game.version + 1;
      if (isNetworkFailure(err)) {
        const san = lineToSan(game.fen, [uci ?? move])[0] ?? move;
        toast(`Your move ${san} was not sent: the server cannot be reached. Play it again once the connection is back.`, 'error');
      } else if (!overtaken) toast(err instanceof ApiError ? `Move refused: ${err.message}` : String(err), 'error');
      this.render();
      return false;
    }
  }

  /** Reads the game until it has moved on from `version` (or another game is on screen). */
  private async awaitEngineReply(id: string, version: number): Promise<void> {
    while (this.game?.id === id && this.game.version <= version && this.socket.state !== 'open') {
      await new Promise((resolve) => window.setTimeout(resolve, ENGINE_REPLY_POLL_MS));
      await this.refresh();
    }
  }

  private async refresh(): Promise<void> {
    if (!this.game || isLocalGame(this.game.id)) return;
    try {
      this.applyGame(await api.getGame(this.game.id));
    } catch {
      // The stream brings the state back when the server is reachable again.
    }
  }

  // ---- Socket ---------------------------------------------------------------------------------

  private subscribe(): void {
    const local = isLocalGame(this.game?.id);
    const id = local ? null : (this.game?.id ?? null);
    if (id && this.subscribedTo === id) return;
    if (this.subscribedTo && this.subscribedTo !== id) {
      this.socket.send({ type: 'unsubscribe', gameId: this.subscribedTo });
    }
    this.subscribedTo = null;
    // A player subscribes with its token: the server counts its side as present, not as a
    // spectator (against the engine too). An analysis board's two tokens are the page's own: a
    // spectator would take a board with a "present" side for a game between people.
    const token = this.mode() !== 'analysis' ? this.token : null;
    const message = token ? { type: 'subscribe', gameId: id ?? '', token } : { type: 'subscribe', gameId: id ?? '' };
    if (id && this.socket.send(message)) this.subscribedTo = id;
  }

  private onConnection(state: ConnectionState, reconnected: boolean): void {
    const box = byId('connection');
    box.dataset.state = state;
    const label = box.querySelector('.label');
    if (label) label.textContent = state === 'open' ? 'Live' : state === 'connecting' ? 'Connecting…' : 'Offline — reconnecting';
    box.title = state === 'open' ? 'Connected to the server' : 'The live connection is down; it comes back by itself';
    if (state === 'open') {
      // The page may have opened while the server was away: load the game named in the URL now.
      if (!this.game && new URLSearchParams(location.search).has('game')) void this.loadFromUrl();
      this.subscribedTo = null;
      this.subscribe();
      if (reconnected) {
        void this.refresh();
        // The chat lines said while it was down.
        this.extras.onReconnect();
      }
      if (this.isAnalysisBoard()) this.analysis.restart();
    } else {
      this.subscribedTo = null;
      this.analysis.connectionLost();
    }
  }

  private onSocketMessage(message: SocketMessage): void {
    // A stop that raced with the end of its search: nothing to tell.
    if (message.type === 'error' && message.code === 'not_found' && message.id) return;
    if (this.analysis.handle(message)) return;
    if (this.extras.handle(message)) return;
    const event = readGameEvent(message);
    if (event.kind === 'full') {
      this.applyGame(event.game);
      return;
    }
    if (event.kind === 'presence') {
      if (this.game) this.applyGame(mergePresence(this.game, event.change));
      return;
    }
    if (event.kind === 'state') {
      const current = this.game;
      if (!current || event.state.gameId !== current.id) return;
      const merged = mergeGameState(current, event.state);
      // A gap (a state we missed): read the whole game.
      if (merged) this.applyGame(merged);
      else void this.refresh();
      return;
    }
    switch (message.type) {
      case 'info':
        if (message.gameId !== undefined) this.onGameInfo(message as unknown as SearchInfo);
        break;
      case 'error':
        if (!message.id) toast(String(message.message ?? message.code ?? 'Server error'), 'error');
        break;
      default:
        break;
    }
  }

  private onGameInfo(info: SearchInfo): void {
    const game = this.game;
    if (!game || info.gameId !== game.id || !this.engineToMove(game)) return;
    // A report that cannot belong to this position (one that overtook the move it answers).
    if (info.pv?.[0] && game.legalMoves.length && !game.legalMoves.includes(info.pv[0])) return;
    this.lines.add(game.fen, info);
    if (info.multipv && info.multipv > 1) return;
    this.engineInfo = info;
    this.engineInfoFen = game.fen;
    this.engineThinking = true;
    this.renderEngine();
  }

  // ---- Analysis -------------------------------------------------------------------------------

  /** The analysis follows the position on screen of an analysis board. */
  private followAnalysis(): void {
    const game = this.game;
    if (!game || !this.isAnalysisBoard()) {
      this.analysis.follow(null);
      return;
    }
    this.analysis.follow({ initialFen: game.initialFen, moves: game.moves.slice(0, this.viewPly), fen: this.currentFen() });
  }

  private onAnalysisChanged(): void {
    if (!this.isAnalysisBoard()) return;
    renderEvalBar(this.analysis.sortedLines()[0]?.score ?? this.reviewScore(), this.board.orientation(), this.turnOnScreen());
    this.renderArrows();
  }

  // ---- Review ---------------------------------------------------------------------------------

  /** Reviews the game on screen (its current version) on the server. */
  private async startReview(): Promise<void> {
    const game = this.game;
    if (!game || game.moves.length === 0) return;
    // The game's own review from now on: no other review named in the URL.
    if (new URLSearchParams(location.search).has('review')) history.replaceState(null, '', this.gameUrl(game.id, null));
    this.gameOverDismissed = game.id;
    this.renderStatus();
    if (isLocalGame(game.id)) {
      // The line on screen, as PGN: the analysis board is not stored.
      const line = new VariationTree(game.initialFen);
      line.add(game.moves);
      await this.review.start({ pgn: line.pgn() });
      return;
    }
    await this.review.start({ gameId: game.id });
  }

  /** "Review again" / "Try again": the same pasted PGN while the board still shows it, else the game. */
  private async reviewAgain(): Promise<void> {
    const game = this.game;
    const source = this.review.lastSource;
    const review = this.review.review;
    const samePgnGame = !!game && !!review && review.moves.length === game.moves.length && this.reviewCovered() === game.moves.length;
    if (source && 'pgn' in source && (samePgnGame || !review)) {
      await this.reviewPgnText(source.pgn);
      return;
    }
    await this.startReview();
  }

  /** A pasted PGN: an analysis board with its moves (no live analysis), reviewed as PGN. */
  private async reviewPgn(pgn: string, start: StartPosition): Promise<string | null> {
    const failure = await this.storedAnalysisFrom(start.fen ?? INITIAL_FEN, start.moves ?? [], false);
    if (failure) return failure;
    await this.reviewPgnText(pgn);
    return null;
  }

  private async reviewPgnText(pgn: string): Promise<void> {
    const gameId = this.game?.id;
    const review = await this.review.start({ pgn });
    // The review is named in the URL, so a reload finds it again.
    if (review && gameId && !isLocalGame(gameId) && this.game?.id === gameId) history.replaceState(null, '', this.gameUrl(gameId, review));
  }

  /** How many leading moves of the game on screen the review covers. */
  private reviewCovered(): number {
    const game = this.game;
    return game ? this.review.coveredPlies(game.initialFen, game.moves) : 0;
  }

  /** The review's evaluation of the position on screen, when it has one. */
  private reviewScore() {
    return this.viewPly <= this.reviewCovered() ? this.review.scoreAt(this.viewPly) : undefined;
  }

  private onReviewChanged(): void {
    this.renderMoves();
    this.renderReview();
    this.renderArrows();
    if (this.isAnalysisBoard()) this.onAnalysisChanged();
    else this.renderEngine();
    this.renderActions();
  }

  private renderReview(): void {
    const game = this.game;
    const session = this.review;
    const review = session.review;
    const covered = this.reviewCovered();
    this.reviewPanel.render({ session, viewPly: this.viewPly, covered, gameMoves: game?.moves.length ?? 0 });
    const graph = byId('eval-graph');
    // Shown while positions come in, and whenever some are known (not for a review that failed at once).
    const shown = !!game && !!review && covered > 0 && (session.phase === 'running' || session.hasPositions());
    const wasShown = !graph.hidden;
    graph.hidden = !shown;
    document.body.dataset.review = shown ? 'on' : 'off';
    if (!shown || !review) {
      if (wasShown) this.board.redraw();
      return;
    }
    const describe = (ply: number): string => {
      const win = session.winAt(ply);
      const chance = win === undefined ? 'not reviewed yet' : `White ${Math.round(win * 100)}%`;
      if (ply === 0) return `Start position, ${chance}`;
      const before = viewAt(review.initialFen, review.moves, ply - 1).fen;
      const move = session.moveAt(ply);
      const mark = move ? CLASS_MARK[move.class] ?? '' : '';
      const cls = move && mark ? `, ${CLASS_NAME[move.class].toLowerCase()}` : '';
      const score = move ? ` (${move.after.mate === 0 ? 'mate' : formatScore(move.after)})` : '';
      return `${numberedLine(before, [review.san[ply - 1] ?? review.moves[ply - 1]])}${mark}${cls}: ${chance}${score}`;
    };
    this.evalGraph.render({
      plies: covered,
      winAt: (ply) => session.winAt(ply),
      classAt: (ply) => session.moveAt(ply)?.class,
      describe,
      current: this.viewPly <= covered ? this.viewPly : -1,
    });
    // The board shrank to make room for the graph: chessground measures itself again.
    if (!wasShown) this.board.redraw();
  }

  // ---- Controls -------------------------------------------------------------------------------

  private bindControls(): void {
    byId('btn-new').addEventListener('click', () => this.openNewGame());
    byId('game-over-new').addEventListener('click', () => this.openNewGame());
    byId('game-over-analyse').addEventListener('click', () => void this.startAnalysis());
    byId('game-over-close').addEventListener('click', () => this.closeGameOver());
    byId('btn-analysis').addEventListener('click', () => void this.startAnalysis());
    byId('btn-review-pgn').addEventListener('click', () => this.openReviewPgn());
    byId('btn-review').addEventListener('click', () => void this.startReview());
    byId('game-over-review').addEventListener('click', () => void this.startReview());
    byId('btn-flip').addEventListener('click', () => this.flip());
    byId('btn-takeback').addEventListener('click', () => void this.takeback());
    byId('btn-resign').addEventListener('click', () => void this.resign());
    byId('btn-draw').addEventListener('click', () => void this.answerOffer('draw', true));
    byId('btn-abort').addEventListener('click', () => void this.abort());
    byId('btn-copy-fen').addEventListener('click', () => void this.copyFen());
    byId('btn-copy-pgn').addEventListener('click', () => void this.copyPgn());
    byId('btn-download-pgn').addEventListener('click', () => void this.downloadPgn());
    // A move of the analysis board's list, right-clicked (or its context-menu key): its menu.
    byId('move-list').addEventListener('contextmenu', (event) => {
      const game = this.game;
      const button = (event.target as HTMLElement).closest<HTMLElement>('.move[data-ply], .variation-move[data-line]');
      if (!game || !button || !this.localLineOnScreen()) return;
      const line = button.dataset.line !== undefined ? button.dataset.line.split(' ') : game.moves.slice(0, Number(button.dataset.ply));
      event.preventDefault();
      // From the keyboard the event has no pointer position: the menu opens by the move.
      const box = button.getBoundingClientRect();
      const byPointer = event.clientX !== 0 || event.clientY !== 0;
      this.lineTools.open(line, byPointer ? event.clientX : box.left, byPointer ? event.clientY : box.bottom, button);
    });
    byId('nav-first').addEventListener('click', () => this.view(0));
    byId('nav-prev').addEventListener('click', () => this.view(this.viewPly - 1));
    byId('nav-next').addEventListener('click', () => this.view(this.viewPly + 1));
    byId('nav-last').addEventListener('click', () => this.view(this.game?.moves.length ?? 0));
    byId<HTMLFormElement>('move-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.typedMove();
    });
  }

  private closeGameOver(): void {
    this.gameOverDismissed = this.game?.id ?? null;
    this.renderStatus();
    this.gameOverFocus.closed();
  }

  private bindKeyboard(): void {
    document.addEventListener('keydown', (event) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.closest('input, textarea, select, dialog') || target.isContentEditable)) return;
      // Ctrl+Z (Cmd+Z): the latest line edit of the analysis board undone (in a text box, its text's).
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'z' && !event.defaultPrevented) {
        if (this.undoLineEdit()) event.preventDefault();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      const handled = (() => {
        switch (event.key) {
          // The board kept in the page: ↑/↓ the other moves tried in place of the move on screen;
          // Shift+↑ moves its variation up, Shift+M makes its line the main line, Delete deletes it.
          case 'ArrowUp':
          case 'ArrowDown': {
            const line = this.localLineOnScreen();
            if (!line) return false;
            if (!event.shiftKey) this.switchVariation(event.key === 'ArrowUp' ? -1 : 1);
            else if (event.key === 'ArrowUp') this.editLine('up', line);
            return true;
          }
          case 'M': {
            const line = this.localLineOnScreen();
            if (line) this.editLine('main', line);
            return !!line;
          }
          case 'Delete': {
            const line = this.localLineOnScreen();
            if (line) this.editLine('delete', line);
            return !!line;
          }
          case 'ArrowLeft':
            this.view(this.viewPly - 1);
            return true;
          case 'ArrowRight':
            this.view(this.viewPly + 1);
            return true;
          case 'Home':
            this.view(0);
            return true;
          case 'End':
            this.view(this.game?.moves.length ?? 0);
            return true;
          case 'f':
            this.flip();
            return true;
          case 't':
            void this.takeback();
            return true;
          case 'n':
            this.reviewPanel.jump(1);
            return true;
          case 'p':
            this.reviewPanel.jump(-1);
            return true;
          case '/':
          case 'm':
            byId('move-input').focus();
            return true;
          default:
            return false;
        }
      })();
      if (handled) event.preventDefault();
    });
  }

  private async typedMove(): Promise<void> {
    const input = byId<HTMLInputElement>('move-input');
    const move = input.value.trim();
    if (!move) return;
    if (!this.game || !this.token) {
      toast('Start a game first — or you are watching someone else’s game', 'error');
      return;
    }
    // On an analysis board a move from an earlier position is a variation from there, as on the
    // board; in a game it is played at the end.
    if (!this.isLive() && this.isAnalysisBoard()) {
      if (this.branchAnalysis(move)) input.value = '';
      return;
    }
    if (!this.isLive()) this.view(this.game.moves.length);
    if (await this.sendMove(move)) input.value = '';
  }

  private view(ply: number): void {
    if (!this.game) return;
    const clamped = Math.max(0, Math.min(this.game.moves.length, ply));
    if (clamped === this.viewPly) return;
    this.viewPly = clamped;
    this.keepLocalBoard(true);
    this.render();
    this.followAnalysis();
  }

  private flip(): void {
    this.board.flip();
    // A board kept in the page keeps its orientation with it (not one localStorage key per board).
    if (this.game && isLocalGame(this.game.id)) this.keepLocalBoard();
    else if (this.game) kept.setOrientation(this.game.id, this.board.orientation());
    this.render();
  }

  /**
   * Whether Takeback may be asked for: an ongoing game, or one against the engine that the
   * position ended (mate, stalemate, a draw by the rules), which the server opens again, as a
   * takeback after a blunder into mate should (docs/play.md). An end someone chose or the clock
   * gave (a resignation, an agreed draw, a flag fall, an abort) stands.
   */
  private canTakeBack(game: Game): boolean {
    if (game.moves.length === 0) return false;
    if (game.status === 'ongoing') return true;
    if (this.mode() !== 'engine' || isLocalGame(game.id)) return false;
    if (game.status === 'checkmate' || game.status === 'stalemate') return true;
    return game.status === 'draw' && POSITION_DRAWS.has(game.reason ?? '');
  }

  private async takeback(): Promise<void> {
    const game = this.game;
    if (!game || !this.token || !this.canTakeBack(game)) return;
    // As the button, held back while a move is sent: T sent at once raced the move (a takeback
    // stored first undid the moves before it, and the move was then refused as out of date).
    if (pendingIn(this.pending, game)) {
      toast(`Your move ${this.pending.san} is still being sent: take it back once it is answered`, 'error');
      return;
    }
    if (this.mode() === 'people') {
      // Between people a takeback is asked for; the other side accepts or declines.
      await this.answerOffer('takeback', true);
      return;
    }
    if (isLocalGame(game.id)) {
      const back = this.localBoard.show(game.moves.slice(0, -1));
      if (back) this.applyGame(back);
      return;
    }
    try {
      // A takeback is the side that moved last's.
      const updated = await api.takeback(game.id, this.tokenFor(opposite(game.turn)) ?? this.token);
      this.board.cancelPremove();
      this.engineInfo = null;
      this.applyGame(updated);
    } catch (err) {
      toast(`Takeback refused: ${(err as Error).message}`, 'error');
    }
  }

  /** Offers, accepts (`yes`), declines or withdraws (`no`) a draw or a takeback. */
  private async answerOffer(kind: 'draw' | 'takeback', yes: boolean): Promise<void> {
    const before = this.game;
    if (!before || !this.token) return;
    const offer = kind === 'draw' ? before.drawOffer : before.takebackOffer;
    // An offer made, or its withdrawal, waits for the move in flight (a move answers every offer,
    // so sent first it would be cleared by the move). The other side's offer is not shown while
    // the move waits (renderPeople): the move answers it.
    await this.afterPendingMove(kind === 'draw' ? (offer ? 'The draw offer is answered' : 'Your draw offer is sent') : 'The takeback is answered');
    const game = this.game;
    if (!game || game.id !== before.id || game.status !== 'ongoing') return;
    // The move answered the offer (cleared it): nothing is left to answer.
    if (offer && (kind === 'draw' ? game.drawOffer : game.takebackOffer) !== offer) return;
    // Already offered (a second click while the move was sent).
    if (!offer && yes && (kind === 'draw' ? game.drawOffer : game.takebackOffer)) return;
    try {
      const updated = kind === 'draw' ? await api.draw(game.id, this.token, yes) : await api.takebackOffer(game.id, this.token, yes);
      if (kind === 'takeback') this.board.cancelPremove();
      this.applyGame(updated);
      // Against the engine the answer comes at once, by the server's rule from its evaluation.
      const answer = updated.drawOfferAnswer;
      if (answer && !answer.accepted) toast(drawDeclinedText(answer), 'info');
    } catch (err) {
      toast(`${kind === 'draw' ? 'Draw' : 'Takeback'}: ${(err as Error).message}`, 'error');
    }
  }

  private async abort(): Promise<void> {
    if (!this.game || !this.token) return;
    await this.afterPendingMove('The game is aborted');
    const game = this.game;
    if (!game || game.status !== 'ongoing') return;
    try {
      this.applyGame(await api.abort(game.id, this.token));
    } catch (err) {
      toast(`Abort refused: ${(err as Error).message}`, 'error');
    }
  }

  private async claim(what: 'victory' | 'draw'): Promise<void> {
    if (!this.game || !this.token) return;
    await this.afterPendingMove(what === 'victory' ? 'The victory is claimed' : 'The draw is claimed');
    const game = this.game;
    if (!game || game.status !== 'ongoing') return;
    try {
      this.applyGame(await api.claim(game.id, this.token, what));
    } catch (err) {
      toast(`Claim refused: ${(err as Error).message}`, 'error');
    }
  }

  /** The link that lets the friend play: the game's address with their token in the fragment. */
  private inviteLink(): string | null {
    const game = this.game;
    if (!game || !this.inviteToken || !this.peopleSide) return null;
    const fragment = new URLSearchParams({ [INVITE_PARAM]: this.inviteToken, [INVITE_SIDE_PARAM]: opposite(this.peopleSide) });
    return `${this.watchLink()}#${fragment.toString()}`;
  }

  private watchLink(): string {
    const url = new URL(document.baseURI);
    url.search = `?game=${encodeURIComponent(this.game?.id ?? '')}`;
    url.hash = '';
    return url.toString();
  }

  private async copyInvite(): Promise<void> {
    const link = this.inviteLink();
    if (!link) return;
    const ok = await copyText(link);
    toast(ok ? 'Invite link copied: send it to your friend' : 'Copying is not allowed here: select the link and copy it', ok ? 'info' : 'error');
  }

  private async resign(): Promise<void> {
    const game = this.game;
    if (!game || !this.token || game.status !== 'ongoing') return;
    const button = byId('btn-resign');
    // A second click within a few seconds confirms (no blocking confirm() box).
    if (Date.now() > this.resignArmedUntil) {
      this.resignArmedUntil = Date.now() + RESIGN_CONFIRM_MS;
      button.textContent = 'Confirm resign?';
      button.classList.add('armed');
      window.setTimeout(() => {
        button.textContent = '⚑ Resign';
        button.classList.remove('armed');
      }, RESIGN_CONFIRM_MS);
      return;
    }
    this.resignArmedUntil = 0;
    button.textContent = '⚑ Resign';
    button.classList.remove('armed');
    // Confirmed while a move is sent: the resignation follows the move's answer, in the game it
    // made (a mate by that move leaves nothing to resign). On an analysis board, which holds both
    // sides, the side that resigns is the one to move when it was pressed, not after the move.
    const resigning = this.tokenFor(game.turn) ?? this.token;
    await this.afterPendingMove('You resign');
    const now = this.game;
    if (!now || now.id !== game.id || now.status !== 'ongoing') return;
    try {
      this.applyGame(await api.resign(now.id, resigning));
    } catch (err) {
      toast(`Resign refused: ${(err as Error).message}`, 'error');
    }
  }

  private currentFen(): string {
    if (!this.game) return INITIAL_FEN;
    return this.isLive() ? this.game.fen : viewAt(this.game.initialFen, this.game.moves, this.viewPly).fen;
  }

  /** The side to move in the position on screen. */
  private turnOnScreen(): Side {
    return fenTurn(this.currentFen());
  }

  private async copyFen(): Promise<void> {
    const ok = await copyText(this.currentFen());
    toast(ok ? 'FEN copied' : 'Copying is not allowed here', ok ? 'info' : 'error');
  }

  private async fetchPgn(): Promise<string | null> {
    if (!this.game) return null;
    // The analysis board's PGN holds every line tried, as variations.
    if (isLocalGame(this.game.id)) return this.localBoard.pgn();
    try {
      // A game with its own finished review: the PGN carries it ([%eval], NAGs, better moves).
      const review = this.review.review;
      const reviewed = review?.gameId === this.game.id && (this.review.phase === 'done' || this.review.phase === 'stopped');
      return await api.pgn(this.game.id, reviewed);
    } catch (err) {
      toast(`No PGN: ${(err as Error).message}`, 'error');
      return null;
    }
  }

  private async copyPgn(): Promise<void> {
    const pgn = await this.fetchPgn();
    if (pgn === null) return;
    const ok = await copyText(pgn);
    toast(ok ? 'PGN copied' : 'Copying is not allowed here', ok ? 'info' : 'error');
  }

  private async downloadPgn(): Promise<void> {
    const pgn = await this.fetchPgn();
    if (pgn !== null && this.game) download(`outpost-${this.game.id}.pgn`, pgn, 'application/x-chess-pgn');
  }

  // ---- Rendering ------------------------------------------------------------------------------

  private render(): void {
    document.body.dataset.mode = this.isAnalysisBoard() ? 'analysis' : this.game && this.mode() === 'people' ? 'people' : 'play';
    document.body.dataset.role = !this.game ? 'none' : this.token ? 'player' : 'spectator';
    this.renderBoard();
    this.renderPlayers();
    this.renderStatus();
    this.renderMoves();
    this.renderOpening();
    this.renderPeople();
    this.renderReview();
    this.renderEngine();
    // The engine's panel is for games against it (an analysis board has its own card).
    byId('engine-card').hidden = !!this.game && this.mode() !== 'engine';
    this.analysis.render();
    this.analysis.renderTechniques();
    this.renderActions();
    const side = this.humanSide();
    this.extras.onGame(this.game, {
      token: this.token,
      side: side === 'both' ? null : side,
      people: this.mode() === 'people',
      analysis: this.isAnalysisBoard(),
    });
    this.gameOverFocus.update(this.game);
  }

  private boardState(): BoardState {
    const game = this.game;
    if (!game) {
      return { fen: INITIAL_FEN, turn: 'white', check: false, legalMoves: [], movable: 'none', premove: false };
    }
    const live = this.isLive();
    const side = this.humanSide();
    // A move in flight: the position after it, the person's pieces held to premoves till the answer.
    const pending = live && pendingIn(this.pending, game) ? pendingView(game, this.pending) : null;
    if (pending) {
      const premove = game.status === 'ongoing' && side !== null && side !== 'both';
      return { ...pending, legalMoves: [], movable: premove && side ? side : 'none', premove };
    }
    // A move waiting for Confirm: on the board, which takes no other move until Confirm or Cancel.
    const held = live && pendingIn(this.held, game) ? pendingView(game, this.held) : null;
    if (held) return { ...held, legalMoves: [], movable: 'none', premove: false };
    const view = live
      ? {
          fen: game.fen,
          turn: game.turn,
          check: game.check,
          lastMove: game.moves.length
            ? ([game.moves[game.moves.length - 1].slice(0, 2), game.moves[game.moves.length - 1].slice(2, 4)] as [string, string])
            : undefined,
        }
      : viewAt(game.initialFen, game.moves, this.viewPly);
    if (!live && side === 'both') {
      // Exploring from an earlier position of an analysis board starts a new board from there.
      return { ...view, legalMoves: legalMovesAt(game.initialFen, game.moves, this.viewPly), movable: 'both', premove: false };
    }
    const canMove = live && game.status === 'ongoing' && side !== null;
    return {
      ...view,
      legalMoves: canMove && (side === 'both' || side === game.turn) ? game.legalMoves : [],
      movable: canMove && side ? side : 'none',
      premove: canMove && side !== 'both',
    };
  }

  private renderBoard(): void {
    this.board.set(this.boardState(), !this.jumpBoard);
    this.jumpBoard = false;
    this.renderArrows();
    byId('fen').textContent = this.currentFen();
  }

  private renderArrows(): void {
    const shapes: DrawShape[] = [];
    const arrow = (uci: string | undefined, brush: string) => {
      if (uci && uci.length >= 4) shapes.push({ orig: uci.slice(0, 2) as Key, dest: uci.slice(2, 4) as Key, brush });
    };
    // The reviewed move on screen: the better move, from the position before it.
    const reviewed = this.viewPly > 0 && this.viewPly <= this.reviewCovered() ? this.review.moveAt(this.viewPly) : undefined;
    if (reviewed?.best && reviewed.best.move !== reviewed.move) arrow(reviewed.best.move, 'green');
    if (this.isAnalysisBoard()) {
      this.analysis.sortedLines().forEach((line, i) => arrow(line.pv?.[0], i === 0 ? 'blue' : 'paleBlue'));
    } else if (this.isLive() && this.engineThinking && this.engineInfo && this.engineInfoFen === this.game?.fen) {
      arrow(this.engineInfo.pv?.[0], 'paleGreen');
    }
    this.board.setArrows(shapes);
  }

  private playerName(side: Side): string {
    const game = this.game;
    if (game && this.mode() === 'people' && this.peopleSide) return side === this.peopleSide ? 'You' : 'Your friend';
    if (!game || game.engine.side === 'none') return side === 'white' ? 'White' : 'Black';
    if (game.engine.side === side) {
      if (game.engine.level) return `Outpost · level ${game.engine.level}`;
      const l = game.engine.limits ?? {};
      const parts = [l.depth ? `depth ${l.depth}` : '', l.movetime ? `${l.movetime} ms` : '', l.nodes ? `${formatCount(l.nodes)} nodes` : ''];
      return `Outpost · ${parts.filter(Boolean).join(', ') || 'custom'}`;
    }
    return this.token ? 'You' : 'Player';
  }

  private renderPlayers(): void {
    const bottom = this.board.orientation();
    const top = opposite(bottom);
    const bars = { [top]: byId('bar-top'), [bottom]: byId('bar-bottom') } as Record<Side, HTMLElement>;
    for (const side of ['white', 'black'] as const) {
      const bar = bars[side];
      bar.dataset.side = side;
      const name = bar.querySelector<HTMLElement>('.player-name');
      if (name) name.textContent = this.playerName(side);
      bar.classList.toggle('to-move', !!this.game && this.game.status === 'ongoing' && this.game.turn === side);
      // Presence is tracked while the game goes on (docs/play.md): after its end the server
      // answers false for both sides, who are most likely both still here (a rematch).
      const online = this.mode() === 'people' && this.game?.status === 'ongoing' ? this.game.presence?.[side] : undefined;
      if (online === undefined) delete bar.dataset.online;
      else bar.dataset.online = String(online);
      // A screen reader says whose clock it reads, wherever the board's orientation put it.
      bar.querySelector<HTMLElement>('.clock')?.setAttribute('aria-label', `${side === 'white' ? 'White' : 'Black'}'s clock`);
    }
    this.clocks.attach(
      bars.white.querySelector<HTMLElement>('.clock')!,
      bars.black.querySelector<HTMLElement>('.clock')!,
    );
    const game = this.game;
    const clockRuns =
      !!game?.clock && game.status === 'ongoing' && (game.clock.running ?? game.moves.length > 0);
    this.clocks.update(game?.clock, clockRuns && game ? game.turn : null);
  }

  private renderStatus(): void {
    const status = byId('game-status');
    const game = this.game;
    window.clearTimeout(this.firstMoveTimer);
    status.className = 'game-status';
    if (!game) {
      status.textContent = 'Start a new game or open the analysis board.';
      byId('game-over').hidden = true;
      return;
    }
    const over = gameOverText(game);
    const card = byId('game-over');
    card.hidden = !over || this.gameOverDismissed === game.id || !this.isLive();
    if (over) {
      status.classList.add('over');
      // An aborted game has no result: say so rather than show "*".
      const result = game.status === 'aborted' ? 'no result' : game.result;
      status.classList.toggle('aborted', game.status === 'aborted');
      status.replaceChildren(el('strong', undefined, over), el('span', 'result', result));
      byId('game-over-title').textContent = over;
      byId('game-over-result').textContent = result;
      document.title = `${over} · Outpost`;
      return;
    }
    const turnName = game.turn === 'white' ? 'White' : 'Black';
    let text: string;
    if (pendingIn(this.pending, game)) {
      text = pendingText(this.pending);
      status.classList.add('pending');
    } else if (this.isAnalysisBoard()) text = `${turnName} to move`;
    else if (this.mode() === 'people') {
      if (!this.peopleSide) text = `${turnName} to move`;
      else if (game.turn === this.peopleSide) text = game.check ? 'Check! Your move' : 'Your move';
      else text = 'Your friend’s move';
    } else if (game.engine.side === game.turn) text = 'Outpost is thinking…';
    else if (this.token) {
      text = game.check ? 'Check! Your move' : 'Your move';
      // Say what the engine just played (also read out by screen readers: the status is live).
      const last = game.san[game.san.length - 1];
      if (last && this.engineMovedAtPly === game.moves.length) {
        text += ` — Outpost played ${last}`;
      }
    }
    else text = `${turnName} to move`;
    if (!this.isLive()) text += ` — viewing move ${this.viewPly} of ${game.moves.length}`;
    const firstMoveLeft = firstMoveLeftMs(game, this.serverClock.now());
    if (firstMoveLeft !== null) {
      text += ` — ${firstMoveText(game, firstMoveLeft, this.token ? this.peopleSide : null)}`;
      status.classList.add('first-move');
      status.classList.toggle('first-move-urgent', firstMoveLeft <= 10_000);
      if (firstMoveLeft > 0) this.firstMoveTimer = window.setTimeout(() => this.renderStatus(), CLAIM_TICK_MS);
    }
    status.classList.toggle('engine-turn', game.engine.side === game.turn);
    status.textContent = text;
    document.title = `${text} · Outpost`;
    byId('spectator-note').hidden = !!this.token;
  }

  private renderMoves(): void {
    const game = this.game;
    const covered = this.reviewCovered();
    this.moveList.render(
      {
        initialFen: game?.initialFen ?? INITIAL_FEN,
        san: game?.san ?? [],
        pending: game && pendingIn(this.pending, game) && this.pending.uci ? this.pending.san : undefined,
        result: game?.result ?? '*',
        classOf: (ply) => (ply <= covered ? this.review.moveAt(ply)?.class : undefined),
        // The analysis board's other lines, in parentheses after the move they replace.
        variations:
          game && isLocalGame(game.id)
            ? { at: (ply) => this.localBoard.tree.variationsAt(game.moves, ply), select: (line) => this.viewVariation(line) }
            : undefined,
      },
      this.viewPly,
      (ply) => this.view(ply),
    );
    const onScreen = this.localLineOnScreen();
    this.lineTools.render(!!onScreen, onScreen);
    const total = game?.moves.length ?? 0;
    (byId('nav-first') as HTMLButtonElement).disabled = this.viewPly === 0;
    (byId('nav-prev') as HTMLButtonElement).disabled = this.viewPly === 0;
    (byId('nav-next') as HTMLButtonElement).disabled = this.viewPly >= total;
    (byId('nav-last') as HTMLButtonElement).disabled = this.viewPly >= total;
  }

  /** The named opening reached, over the move list. */
  private renderOpening(): void {
    const opening = this.game?.opening;
    byId('opening').hidden = !opening;
    byId('opening-eco').textContent = opening?.eco ?? '';
    byId('opening-name').textContent = opening?.name ?? '';
  }

  private renderPeople(): void {
    const game = this.game;
    window.clearTimeout(this.claimTimer);
    if (!game || this.mode() !== 'people') {
      this.peoplePanel.hide();
      return;
    }
    const inviteLink = this.inviteLink();
    const other = this.peopleSide ? opposite(this.peopleSide) : null;
    // The invite stays up until the friend has come (connected or moved).
    const friendCame = !!other && (game.presence?.[other] === true || game.moves.length >= 2);
    const claimableInMs = other && game.status === 'ongoing' ? this.claimableIn(game, other) : null;
    this.peoplePanel.render({
      // A move in flight answers every offer (docs/play.md): the offers go with it, as it is shown.
      game: pendingIn(this.pending, game) ? { ...game, drawOffer: undefined, takebackOffer: undefined } : game,
      mySide: this.token ? this.peopleSide : null,
      inviteLink: friendCame ? null : inviteLink,
      watchLink: this.watchLink(),
      claimableInMs,
    });
    if (claimableInMs !== null && claimableInMs > 0) {
      this.claimTimer = window.setTimeout(() => this.renderPeople(), Math.min(claimableInMs, CLAIM_TICK_MS));
    }
  }

  /**
   * Milliseconds until `side`'s absence may be claimed (0: now) by the server's time, or null
   * while it is there or may not be claimed against (before both sides have moved).
   */
  private claimableIn(game: Game, side: Side): number | null {
    const gone = game.presence?.[side] === false ? game.gone?.[side] : undefined;
    if (gone?.claimableAtMs === undefined) return null;
    return Math.max(0, gone.claimableAtMs - this.serverClock.now());
  }

  private renderEngine(): void {
    if (this.isAnalysisBoard()) return;
    const game = this.game;
    const info = this.engineInfo;
    renderEngineInfo(info, this.engineInfoFen, this.engineThinking && !!game && game.status === 'ongoing');
    // A reviewed game shows the review's evaluation of the position on screen.
    const live = this.isLive() && !!game && game.status === 'ongoing';
    renderEvalBar((live ? undefined : this.reviewScore()) ?? info?.score, this.board.orientation(), this.turnOnScreen());
    byId('engine-title').textContent = game?.engine.side !== 'none' && game ? this.playerName(game.engine.side as Side) : 'Engine';
    this.renderArrows();
  }

  private renderActions(): void {
    const game = this.game;
    const player = !!game && !!this.token;
    const ongoing = game?.status === 'ongoing';
    const people = !!game && this.mode() === 'people';
    // A game that is over is over: nothing to take back after a resignation, a flag fall or an
    // agreed draw; against the engine a mate or a draw by the rules is taken back (canTakeBack).
    byId<HTMLButtonElement>('btn-takeback').disabled =
      !player || !game || !this.canTakeBack(game) || pendingIn(this.pending, game) || (people && !!game.takebackOffer);
    byId('btn-takeback').textContent = people ? '↶ Ask takeback' : '↶ Takeback';
    byId<HTMLButtonElement>('btn-resign').disabled = !player || !ongoing || this.isAnalysisBoard();
    // A draw offer (the engine answers at once), and between people abort while both sides have
    // not moved yet.
    const draw = byId<HTMLButtonElement>('btn-draw');
    draw.hidden = !player || this.isAnalysisBoard();
    draw.disabled = !ongoing || !!game?.drawOffer;
    const abort = byId<HTMLButtonElement>('btn-abort');
    abort.hidden = !people || !player || !ongoing || (game?.moves.length ?? 0) >= 2;
    byId<HTMLButtonElement>('btn-copy-pgn').disabled = !game;
    byId<HTMLButtonElement>('btn-download-pgn').disabled = !game;
    byId<HTMLInputElement>('move-input').disabled = !player || !ongoing;
    // Review: a finished game, or an analysis board, with no review on screen (once there is one,
    // its card offers "Review again" / "Try again" where that makes sense).
    const reviewable = !!game && game.moves.length > 0 && (!ongoing || this.isAnalysisBoard()) && this.review.phase === 'idle';
    byId('btn-review').hidden = !reviewable;
    byId('game-over-review').hidden = !reviewable;
  }
}
