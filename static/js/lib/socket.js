// socket.js — one room's WebSocket with automatic reconnect (exponential backoff with
// jitter), a keep-alive ping, and a status callback for the connection indicator. On every
// (re)connect the server sends the room and this seat's view again, so the table is
// restored without a reload. Answers to previews ("what would this action do?") go to the
// listeners added with onPreview, not to onMessage.

const PING_EVERY_MS = 20000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10000;

export class RoomSocket {
  /**
   * @param {string} roomId
   * @param {{onMessage: (msg: object) => void, onStatus: (status: string, detail?: object) => void}} handlers
   */
  constructor(roomId, { onMessage, onStatus }) {
    this.roomId = roomId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.closedForGood = false;
    this.status = "connecting";
    this.previewListeners = new Set();
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.status !== "open") this.reconnectNow();
    });
  }

  connect() {
    if (this.closedForGood) return;
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.roomId}`);
    this.ws = ws;
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.setStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), PING_EVERY_MS);
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "pong") return;
      if (message.type === "preview") {
        for (const listener of this.previewListeners) listener(message);
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      clearInterval(this.pingTimer);
      if (event.code === 4404) {
        // The room does not exist: retrying would not help.
        this.closedForGood = true;
        this.setStatus("gone");
        return;
      }
      this.scheduleRetry();
    });
    // "error" is always followed by "close", which schedules the retry.
  }

  scheduleRetry() {
    if (this.closedForGood) return;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    const delay = Math.round(base / 2 + (Math.random() * base) / 2);
    this.attempt += 1;
    this.setStatus("waiting", { delay, attempt: this.attempt });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.closedForGood || this.status === "open" || this.status === "connecting") return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  setStatus(status, detail = {}) {
    this.status = status;
    this.onStatus(status, detail);
  }

  sendRaw(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send an action acted on `version`; false when not connected. */
  act(version, action) {
    return this.sendRaw({ type: "act", version, action });
  }

  /** Ask what `action` would do at `version`, without playing it; false when not connected. */
  preview(version, action) {
    return this.sendRaw({ type: "preview", version, action });
  }

  /** Call `listener(message)` with every {"type": "preview", ...} answer; returns an unsubscribe. */
  onPreview(listener) {
    this.previewListeners.add(listener);
    return () => this.previewListeners.delete(listener);
  }

  close() {
    this.closedForGood = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ws?.close();
  }
}
