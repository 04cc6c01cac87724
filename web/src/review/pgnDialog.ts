// "Review a PGN": a pasted game is read on the page (for the board), then reviewed by the server.
import { readStartText, type StartPosition } from '../chess/position';
import { byId } from '../ui/dom';

/** Wires the dialog; `onReview` resolves to an error message or null. Returns its opener. */
export function setupReviewPgnDialog(onReview: (pgn: string, start: StartPosition) => Promise<string | null>): () => void {
  const dialog = byId<HTMLDialogElement>('review-pgn');
  const form = byId<HTMLFormElement>('review-pgn-form');
  const text = byId<HTMLTextAreaElement>('review-pgn-text');
  const error = byId('review-pgn-error');
  const start = byId<HTMLButtonElement>('review-pgn-start');
  byId('review-pgn-cancel').addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const pgn = text.value.trim();
    let position: StartPosition;
    try {
      position = readStartText(pgn);
      if (!position.moves?.length) throw new Error('Paste a game in PGN: there are no moves to review');
    } catch (err) {
      error.textContent = (err as Error).message;
      return;
    }
    start.disabled = true;
    const failure = await onReview(pgn, position);
    start.disabled = false;
    if (failure) error.textContent = failure;
    else dialog.close();
  });
  return () => {
    error.textContent = '';
    dialog.showModal();
    text.focus();
  };
}
