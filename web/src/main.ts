import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './style.css';
import { App } from './app';

const app = new App();
void app.start();
// For end-to-end tests and curious people: the controller is reachable from the console.
(window as unknown as { outpost: App }).outpost = app;
