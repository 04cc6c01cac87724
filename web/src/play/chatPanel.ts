// The players' chat (docs/play.md, "Chat"): the last lines, and a box to add one. Lines are shown
// as text (textContent), never as markup: a line holding tags shows the tags.
import { ApiError, request } from '../api/rest';
import type { Color } from '../api/types';
import { el, toast } from '../ui/dom';

export interface ChatLine {
  type: 'chatLine';
  gameId: string;
  side: Color;
  text: string;
  at: number;
}

/** The server's limit, in Unicode code points (docs/play.md): not the input's maxLength, which
 * counts UTF-16 units and so took only 70 emoji. */
const MAX_CHARS = 140;
/** The lines kept on screen (the server keeps 100). */
const SHOWN_LINES = 100;

/**
 * The line as sent: a tab, a line break or another whitespace control (\t \n \r \f \v, U+0085,
 * U+2028, U+2029, which a paste brings) becomes a space, and the characters the server refuses in
 * a line and that show nothing (the other C0 and C1 control characters; the bidirectional
 * embeddings, overrides and isolates that some apps put around names) are left out, so the line is kept rather than refused whole
 * (docs/play.md, "Chat"). Trimmed.
 */
export function chatTextToSend(typed: string): string {
  return typed
    .replace(/[\t\n\r\f\v\u0085\u2028\u2029]/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
}

export class ChatPanel {
  private readonly card: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly input: HTMLInputElement;
  private gameId: string | null = null;
  private token: string | null = null;

  constructor() {
    this.card = el('section', 'card chat-card');
    this.card.id = 'chat-card';
    this.card.setAttribute('aria-label', 'Chat');
    this.card.hidden = true;
    this.list = el('ol', 'chat-lines');
    this.list.id = 'chat-lines';
    this.list.setAttribute('aria-live', 'polite');
    const form = el('form', 'chat-form');
    form.autocomplete = 'off';
    this.input = el('input', 'chat-input');
    this.input.id = 'chat-input';
    this.input.addEventListener('input', () => this.keepToLimit());
    this.input.placeholder = 'Say something';
    this.input.dir = 'auto';
    this.input.setAttribute('aria-label', 'Chat message');
    const send = el('button', 'btn btn-small', 'Send');
    send.type = 'submit';
    form.append(this.input, send);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send();
    });
    this.card.append(el('h3', 'card-title', 'Chat'), this.list, form);
    document.querySelector('.side-panel')?.appendChild(this.card);
  }

  /** Shows the chat of game `id` between people (null: none); `token`: this browser's side's. */
  show(id: string | null, token: string | null): void {
    this.card.hidden = !id;
    this.input.disabled = !token;
    this.token = token;
    if (id === this.gameId) return;
    this.gameId = id;
    this.list.replaceChildren();
    if (id) void this.load(id);
  }

  /** A chatLine from the WebSocket; true when it was one. */
  handle(message: { type?: unknown; gameId?: unknown }): boolean {
    if (message.type !== 'chatLine') return false;
    const line = message as unknown as ChatLine;
    if (line.gameId === this.gameId) this.add(line);
    return true;
  }

  /**
   * The live connection is back: the lines said while it was down (which no WebSocket brought)
   * are read again and merged in.
   */
  catchUp(): void {
    if (this.gameId) void this.load(this.gameId);
  }

  /** Reads the game's last lines and merges them with those on screen (a line is shown once). */
  private async load(id: string): Promise<void> {
    try {
      const { lines } = await request<{ lines: ChatLine[] }>('GET', `games/${encodeURIComponent(id)}/chat`);
      if (id !== this.gameId) return;
      for (const line of lines) this.add(line);
    } catch {
      // No chat to show (an older server): the card stays empty.
    }
  }

  private add(line: ChatLine): void {
    // The same line twice (the answer to our post and the WebSocket): once.
    const key = `${line.at}:${line.side}:${line.text}`;
    for (const existing of this.list.children) if ((existing as HTMLElement).dataset.key === key) return;
    const item = el('li', 'chat-line');
    item.dataset.key = key;
    item.dataset.at = String(line.at);
    item.dataset.side = line.side;
    // Each line takes its direction from its own first letter (dir=auto, which also isolates it):
    // a line in Hebrew or Arabic reads right to left with its closing "?" or "!" at its end, not
    // pushed to the wrong side by the page's left-to-right text around it. A space between the
    // side and the text, so a screen reader does not run them into one word.
    const text = el('span', 'chat-text', line.text);
    text.dir = 'auto';
    item.append(el('span', 'chat-side', line.side === 'white' ? 'White' : 'Black'), ' ', text);
    // In the order they were said: a line read after a reconnect goes before the ones said since.
    const later = [...this.list.children].find((existing) => Number((existing as HTMLElement).dataset.at) > line.at);
    this.list.insertBefore(item, later ?? null);
    while (this.list.children.length > SHOWN_LINES) this.list.firstElementChild?.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Cuts what is typed or pasted to MAX_CHARS code points (a surrogate pair is one). */
  private keepToLimit(): void {
    const points = Array.from(this.input.value);
    if (points.length <= MAX_CHARS) return;
    this.input.value = points.slice(0, MAX_CHARS).join('');
  }

  private async send(): Promise<void> {
    const typed = this.input.value;
    const text = chatTextToSend(typed);
    if (!text || !this.gameId || !this.token) return;
    // The box is emptied as the line goes, not when its answer comes: what is typed meanwhile
    // (the next line) was wiped by that answer. A line the server refuses comes back to an
    // empty box, so it is not lost either.
    this.input.value = '';
    try {
      const line = await request<ChatLine>('POST', `games/${encodeURIComponent(this.gameId)}/chat`, { text }, this.token);
      this.add(line);
    } catch (err) {
      if (!this.input.value) this.input.value = typed;
      toast(err instanceof ApiError ? err.message : String(err), 'error');
    }
  }
}
