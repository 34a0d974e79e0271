// The page's websocket, on the page's own origin, reconnecting by itself (as riichi-play's
// client_cli/play/connection.py does).  Frames are msgpack maps (@msgpack/msgpack).  When the
// connection drops it connects again with backoff and says `hello` with the resume token and
// `since`, the seq of the last `table`, `event` or `result` received (PROTOCOL.md
// "Reconnecting"); after a `bye` it stops, unless its code is `server_restarting`.  A server
// that goes silent (a paused node, a cut connection) is noticed by the heartbeat (PROTOCOL.md
// "Keepalive"): after HEARTBEAT_MS with nothing from it the page sends `ping`, and once the
// ping has had SILENT_MS - HEARTBEAT_MS with nothing at all the connection counts as dropped
// (as in protocol/client.py); a socket that has not opened within SILENT_MS too.

import { decode, encode } from "@msgpack/msgpack";
import { playerKey } from "./player";
import { ByeCode, ErrorCode, MessageType, VERSION } from "./protocol_names";

export type Msg = { type: string; [field: string]: any };

const COUNTED = new Set<string>([MessageType.TABLE, MessageType.EVENT, MessageType.RESULT]);
const BACKOFF_MS = [200, 500, 1000, 2000, 3000, 5000];
const GONE_AFTER_MS = 30_000; // failed reconnects for this long: the user is told the server seems gone
const HEARTBEAT_MS = 2_000;
const SILENT_MS = 4_000;
const HEARTBEAT_ID = "heartbeat"; // the heartbeat's ping id: its pong is not passed on
const WATCH_EVERY_MS = 500;

export type LinkState = "connecting" | "up" | "down" | "gone" | "ended";

export interface ConnectionHooks {
  message(message: Msg): void;
  link(state: LinkState, text: string): void;
}

export interface Resume { token: string; since: number | null }

export class Connection {
  token: string | null;
  since: number | null;
  ended = false; // a bye was received (or the page closed the connection): do not come back
  reconnects = 0;
  private ws: WebSocket | null = null;
  private welcomed = false;
  private attempt = 0;
  private lostAt: number | null = null;
  private toldGone = false;
  private intent: Msg[] = [];
  private heardAt = 0; // when the server (or the socket's opening) was last heard
  private askedAt: number | null = null; // when the heartbeat's ping went, unanswered so far
  private watchdog: number | null = null;
  readonly url: string;

  constructor(public name: string, readonly clientId: string, private hooks: ConnectionHooks,
    resume: Resume | null = null) {
    this.url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
    this.token = resume?.token ?? null;
    this.since = resume?.since ?? null;
  }

  /** Connect; `intent` (a create, join or watch) is sent after the first welcome. */
  open(intent: Msg[] = []): void {
    this.intent = intent;
    this.connect();
    this.watchdog ??= window.setInterval(() => this.watch(), WATCH_EVERY_MS);
  }

  get connected(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  send(message: Msg): boolean {
    if (!this.connected) return false;
    (this.ws as WebSocket).send(encode(message));
    return true;
  }

  /** After `seat_in_use`: say hello again on the same socket (the server keeps it open for
   * that), with another resume token, or as a new player (`resume` null) sending `intent`. */
  helloAgain(resume: Resume | null, intent: Msg[]): void {
    this.token = resume?.token ?? null;
    this.since = resume?.since ?? null;
    this.intent = intent;
    if (this.ws !== null && this.ws.readyState === WebSocket.OPEN) this.hello(this.ws);
  }

  close(): void {
    this.ended = true;
    this.stopWatching();
    this.ws?.close(1000, "closed by the page");
  }

  /** The heartbeat.  Silence is judged from the ping's own wait, not only from the last
   * message, so a tab whose timers the browser slowed down is not dropped for its own lateness. */
  private watch(): void {
    const ws = this.ws;
    if (ws === null) return;
    const now = Date.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.heardAt >= SILENT_MS) this.silent(ws);
    } else if (ws.readyState === WebSocket.OPEN && now - this.heardAt >= HEARTBEAT_MS) {
      if (this.askedAt === null) {
        this.askedAt = now;
        ws.send(encode({ type: MessageType.PING, id: HEARTBEAT_ID }));
      } else if (now - this.askedAt >= SILENT_MS - HEARTBEAT_MS && now - this.heardAt >= SILENT_MS) {
        this.silent(ws);
      }
    }
  }

  /** The server has said nothing: this socket is given up (its close comes whenever it
   * does, and is ignored) and the page connects again at once. */
  private silent(ws: WebSocket): void {
    try {
      ws.close(4000, "the server is silent");
    } catch {
      // closing is best effort: the socket is let go either way
    }
    this.closed(ws);
  }

  private stopWatching(): void {
    if (this.watchdog !== null) window.clearInterval(this.watchdog);
    this.watchdog = null;
  }

  private connect(): void {
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.heardAt = Date.now();
    this.askedAt = null;
    ws.addEventListener("open", () => this.hello(ws));
    ws.addEventListener("message", (event) => this.received(ws, event.data));
    ws.addEventListener("close", () => this.closed(ws));
  }

  private hello(ws: WebSocket): void {
    const hello: Msg = { type: MessageType.HELLO, name: this.name, version: VERSION, client: this.clientId,
      player: playerKey() };
    if (this.token !== null) {
      hello.resume = this.token;
      if (this.since !== null) hello.since = this.since;
    }
    ws.send(encode(hello));
  }

  private received(ws: WebSocket, data: unknown): void {
    if (ws !== this.ws || !(data instanceof ArrayBuffer)) return;
    let message: Msg;
    try {
      message = decode(new Uint8Array(data)) as Msg;
    } catch {
      return; // the server sends only msgpack maps
    }
    if (typeof message !== "object" || message === null || typeof message.type !== "string") return;
    this.heardAt = Date.now();
    this.askedAt = null;
    if (message.type === MessageType.PONG && message.id === HEARTBEAT_ID) return;
    if (message.type === MessageType.ERROR && message.code === ErrorCode.UNAVAILABLE && !this.welcomed) {
      return; // the server closes this connection (1013) and is tried again with the backoff
    }
    if (message.type === MessageType.WELCOME) {
      this.welcomed = true;
      this.token = message.resume;
      this.attempt = 0;
      this.lostAt = null;
      this.toldGone = false;
      this.hooks.link("up", message.resumed ? "back at the table" : "connected");
      const intent = this.intent;
      this.intent = [];
      if (!message.resumed) intent.forEach((m) => this.send(m));
    }
    if (COUNTED.has(message.type) || (message.type === MessageType.SNAPSHOT && typeof message.seq === "number")) {
      this.since = message.seq;
    }
    if (message.type === MessageType.BYE && message.code !== ByeCode.SERVER_RESTARTING) this.ended = true;
    if (message.type === MessageType.TABLE) this.ended = false; // at a table again after a game's end (a rematch)
    this.hooks.message(message);
  }

  private closed(ws: WebSocket): void {
    if (ws !== this.ws) return;
    this.ws = null;
    this.welcomed = false;
    if (this.ended) {
      this.stopWatching();
      this.hooks.link("ended", "disconnected");
      return;
    }
    this.retry();
  }

  private retry(): void {
    const now = Date.now();
    if (this.lostAt === null) this.lostAt = now;
    if (!this.toldGone && now - this.lostAt >= GONE_AFTER_MS) {
      this.toldGone = true;
      this.hooks.link("gone", `the server seems gone (no answer for ${Math.round((now - this.lostAt) / 1000)} s):`
        + " still trying");
    } else if (!this.toldGone) {
      this.hooks.link("down", this.attempt === 0 ? "connection lost: reconnecting…"
        : `cannot reach the server: trying again (attempt ${this.attempt})…`);
    }
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.reconnects += 1;
    window.setTimeout(() => this.connect(), delay);
  }
}
