// @ts-check
// A table's websocket: a snapshot, then the table's public messages and, once authenticated, this
// user's own (`my_…`, on every tab of the user); replies carry the `ref` of what they answer.
// Reconnects with back-off until closed. The messages are listed in docs/api.md.

import { ApiError, token } from "./api.js";

const REQUEST_MS = 10000;

/** The close code of a table the server does not have: no reconnecting to it. */
export const CLOSE_NO_TABLE = 4404;
/** The longest wait between two tries (ms). */
export const MAX_DELAY_MS = 8000;

/**
 * Follow a table; onMessage gets every message but the replies awaited by request(), onState
 * "connecting" | "open" | "closed" (with the time of the next try, Date.now() ms) | "missing"
 * (the server has no such table: no more tries).
 */
export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{onMessage: (message: any) => void, onState?: (state: string, retryAt?: number) => void}} handlers
   */
  constructor(tableId, { onMessage, onState = () => {} }) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onState = onState;
    this.delay = 500;
    this.closed = false;
    this.seq = 0;
    this.waiting = new Map(); // ref → {resolve, reject, timer}
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.onState("connecting", 0);
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      this.onState("open");
      this.authenticate();
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      const waiter = message && message.ref !== undefined && message.ref !== null ? this.waiting.get(message.ref) : undefined;
      if (waiter) {
        this.waiting.delete(message.ref);
        clearTimeout(waiter.timer);
        if (message.type === "error") waiter.reject(new ApiError(message.status, message.detail, message));
        else waiter.resolve(message);
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.closed) return;
      if (event.code === CLOSE_NO_TABLE) {
        this.closed = true;
        this.onState("missing", 0);
        return;
      }
      this.onState("closed", Date.now() + this.delay);
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    });
    ws.addEventListener("error", () => {});
  }

  /** Send the session token (again, e.g. after logging in). */
  authenticate() {
    const auth = token();
    if (auth) this.send({ type: "auth", token: auth });
  }

  /** Whether messages can be sent now. */
  get open() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /**
   * Send a table action ({type: "sit", seat: 3}…) and resolve to its answer (`<type>_ok`, or `bet_ack`
   * for a bet); an `error` rejects with an ApiError that keeps its code, rule and params.
   */
  request(message) {
    if (!this.open) return Promise.reject(new ApiError(0, "not connected"));
    this.seq += 1;
    const ref = `r${this.seq}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(ref);
        reject(new ApiError(0, "no answer from the table"));
      }, REQUEST_MS);
      this.waiting.set(ref, { resolve, reject, timer });
      this.send({ ...message, ref });
    });
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Drop the connection and open a new one (it sends the session token again, if there is one). */
  restart() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
