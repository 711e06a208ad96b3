/**
 * A node's new heads as they come: `eth_subscribe("newHeads")` over a WebSocket (Node's own
 * client), reconnecting and subscribing again with back-off whenever the socket closes, fails or
 * the node refuses the subscription. It only signals: whoever listens reads the head and the
 * state itself (over HTTP), so a notification lost while the socket was down costs nothing but
 * time, and the listener polls meanwhile (`onLive(false)`).
 */
export interface NewHeadsListener {
  /** A head the node announced (its number). */
  onHead(blockNumber: number): void;
  /** The subscription is up (true) or down (false, with why); called on each change. */
  onLive(live: boolean, reason?: string): void;
}

export interface NewHeadsOptions {
  /**
   * A live subscription that announces nothing for this long is taken for a socket that died
   * without closing (a NAT or proxy dropped it) and is opened again; undefined for chains that
   * may go without blocks for any time (blocks only for transactions).
   */
  readonly silenceMs?: number;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
/** A socket that opens but never confirms the subscription is given up after this long. */
const SUBSCRIBE_TIMEOUT_MS = 10_000;

export class NewHeadsSubscription {
  private socket: WebSocket | undefined;
  private live = false;
  private stopped = false;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  private confirm: NodeJS.Timeout | undefined;
  private silence: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly listener: NewHeadsListener,
    private readonly options: NewHeadsOptions = {},
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.confirm);
    clearTimeout(this.silence);
    const socket = this.socket;
    this.socket = undefined;
    try {
      socket?.close();
    } catch {
      // Already closing.
    }
    this.setLive(false, 'stopped');
  }

  private connect(): void {
    if (this.stopped) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch (e) {
      this.down(`cannot open the socket: ${(e as Error).message}`);
      return;
    }
    this.socket = socket;
    let subscription: string | undefined;
    socket.onopen = () => {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      this.confirm = setTimeout(
        () => this.drop(socket, 'the node did not confirm eth_subscribe'),
        SUBSCRIBE_TIMEOUT_MS,
      );
      this.confirm.unref();
    };
    socket.onmessage = (event: MessageEvent) => {
      const message = parse(event.data);
      if (!message) return;
      if (message.id === 1 && subscription === undefined) {
        clearTimeout(this.confirm);
        if (typeof message.result !== 'string') {
          this.drop(socket, `the node refused eth_subscribe(newHeads): ${errorText(message.error)}`);
          return;
        }
        subscription = message.result;
        this.retryMs = FIRST_RETRY_MS;
        this.setLive(true);
        this.watch(socket);
        return;
      }
      if (message.method !== 'eth_subscription') return;
      const params = message.params as { subscription?: unknown; result?: { number?: unknown } } | undefined;
      if (params?.subscription !== subscription) return;
      const n = params?.result?.number;
      if (typeof n !== 'string' || !/^0x[0-9a-f]+$/i.test(n)) return;
      this.watch(socket);
      this.listener.onHead(Number(BigInt(n)));
    };
    // A refused handshake is an error with no close event in Node's client; an open socket that
    // fails gets both: whichever comes first schedules the next try.
    socket.onerror = () => this.drop(socket, 'the socket failed (refused, or no WebSocket at this URL)');
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      clearTimeout(this.confirm);
      clearTimeout(this.silence);
      this.down(`the socket closed (code ${event.code}${event.reason ? `: ${event.reason}` : ''})`);
    };
  }

  /** (Re)starts the silence timer of a live socket. */
  private watch(socket: WebSocket): void {
    const { silenceMs } = this.options;
    if (silenceMs === undefined) return;
    clearTimeout(this.silence);
    this.silence = setTimeout(
      () => this.drop(socket, `no new head announced for ${Math.round(silenceMs / 1000)} s`),
      silenceMs,
    );
    this.silence.unref();
  }

  /** Closes a socket that cannot serve the subscription; its close schedules the next try. */
  private drop(socket: WebSocket, reason: string): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    clearTimeout(this.confirm);
    clearTimeout(this.silence);
    try {
      socket.close();
    } catch {
      // Already closing.
    }
    this.down(reason);
  }

  private down(reason: string): void {
    this.socket = undefined;
    this.setLive(false, reason);
    if (this.stopped) return;
    this.retry = setTimeout(() => this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }

  private setLive(live: boolean, reason?: string): void {
    if (this.live === live) return;
    this.live = live;
    this.listener.onLive(live, reason);
  }
}

interface Message {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

function parse(data: unknown): Message | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const value = JSON.parse(data) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : 'no subscription id in the answer';
}
