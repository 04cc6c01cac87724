// The WebSocket half of the API: game subscriptions and live analysis. The socket reconnects by
// itself with growing pauses; whoever listens re-subscribes from the `open` event.

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface SocketMessage {
  type: string;
  id?: string;
  [key: string]: unknown;
}

type Listener = (message: SocketMessage) => void;
type StateListener = (state: ConnectionState, reconnected: boolean) => void;

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;
// Our own heartbeat: a half-open connection (laptop lid closed, Wi-Fi change) is noticed and
// replaced instead of silently missing updates.
const PING_EVERY_MS = 15000;
const PONG_TIMEOUT_MS = 10000;

export class Socket {
  private ws: WebSocket | null = null;
  private listeners: Listener[] = [];
  private stateListeners: StateListener[] = [];
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private pongDeadline: number | undefined;
  private everOpened = false;
  private nextId = 1;
  state: ConnectionState = 'closed';

  constructor(private readonly url: string) {}

  static forPage(): Socket {
    const url = new URL('api/v1/ws', document.baseURI);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return new Socket(url.toString());
  }

  onMessage(listener: Listener): void {
    this.listeners.push(listener);
  }

  onState(listener: StateListener): void {
    this.stateListeners.push(listener);
  }

  newId(prefix: string): string {
    return `${prefix}${this.nextId++}`;
  }

  connect(): void {
    window.clearTimeout(this.retryTimer);
    this.setState('connecting', false);
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.retryMs = FIRST_RETRY_MS;
      this.setState('open', reconnected);
      this.startHeartbeat();
    };
    ws.onmessage = (event) => {
      window.clearTimeout(this.pongDeadline);
      if (typeof event.data !== 'string' || event.data.length === 0) return;
      let message: SocketMessage;
      try {
        message = JSON.parse(event.data) as SocketMessage;
      } catch {
        return;
      }
      for (const listener of this.listeners) listener(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopHeartbeat();
      this.setState('closed', false);
      this.scheduleRetry();
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry.
    };
  }

  /** Sends when open; returns false when the message could not be sent (it is not queued). */
  send(message: SocketMessage): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Drops the connection as a network failure would (used by the reconnect tests and "retry"). */
  dropForTest(): void {
    this.ws?.close();
  }

  private setState(state: ConnectionState, reconnected: boolean): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state, reconnected);
  }

  private scheduleRetry(): void {
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    this.pingTimer = window.setInterval(() => {
      if (!this.send({ type: 'ping' })) return;
      window.clearTimeout(this.pongDeadline);
      this.pongDeadline = window.setTimeout(() => this.ws?.close(), PONG_TIMEOUT_MS);
    }, PING_EVERY_MS);
  }

  private stopHeartbeat(): void {
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.pongDeadline);
  }
}
