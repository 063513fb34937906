// A table's websocket: a snapshot, then every event; reconnects with back-off until closed.

import { token } from "./api.js";

/** Follow a table; onMessage gets every message, onState "connecting" | "open" | "closed". */
export class TableSocket {
  constructor(tableId, { onMessage, onState = () => {} }) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onState = onState;
    this.delay = 500;
    this.closed = false;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.onState("connecting");
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
      this.onMessage(message);
    });
    ws.addEventListener("close", () => {
      if (this.closed) return;
      this.onState("closed");
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
    ws.addEventListener("error", () => {});
  }

  /** Send the session token (again, e.g. after logging in). */
  authenticate() {
    const auth = token();
    if (auth) this.send({ type: "auth", token: auth });
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
