// socket.js — one room's WebSocket with automatic reconnect (exponential backoff with
// jitter; at once when the server says it is restarting), a keep-alive ping, and a status callback for the connection indicator. On every
// (re)connect the server sends the room and this seat's view again, so the table is
// restored without a reload. A preview ("what would this action do?") is a Promise of the
// server's answer; the answers come back in the order the questions were sent. Chat lines
// and reactions are sent as they are; what the server says back comes as messages. It
// stops for good when the room does not exist ("gone"), its session ended ("signed_out") or a
// moderator banned the account ("banned").

const PING_EVERY_MS = 20000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10000;
// A preview with no answer by then is given up (a refused message gets an error instead).
const PREVIEW_TIMEOUT_MS = 5000;
// Close codes after which reconnecting would not help (docs/protocol.md, "Closing").
const ROOM_NOT_FOUND = 4404;
const SIGNED_OUT = 4401;
const BANNED = 4410;
// The server process is stopping (a deploy) and another one serves the room already:
// reconnect at once, without the backoff.
const SERVICE_RESTART = 1012;

/** Why a preview got no answer: "offline" (it could not be sent) or "unanswered". */
function noAnswer(reason) {
  return Object.assign(new Error(`The preview was not answered (${reason}).`), { reason });
}

export class RoomSocket {
  /**
   * @param {string} roomId
   * @param {{onMessage: (msg: object) => void, onStatus: (status: string, detail?: object) => void, referee?: string | null}} handlers
   *   `referee`: the name of the server process that referees the room, as the page was
   *   given it; the proxy sends the socket there (docs/architecture.md, "Sockets go to
   *   the referee"). The server itself does not read it.
   */
  constructor(roomId, { onMessage, onStatus, referee = null }) {
    this.roomId = roomId;
    this.referee = referee;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.closedForGood = false;
    this.status = "connecting";
    this.previews = []; // the questions sent and not answered yet, oldest first
    this.waiting = []; // resolve functions of opened() promises
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.status !== "open") this.reconnectNow();
    });
  }

  connect() {
    if (this.closedForGood) return;
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const via = this.referee ? `?referee=${encodeURIComponent(this.referee)}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.roomId}${via}`);
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
        this.answerPreview(message);
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      clearInterval(this.pingTimer);
      // Answers never come on another connection.
      for (const asked of this.previews.splice(0)) this.dropPreview(asked);
      if (event.code === ROOM_NOT_FOUND) {
        // The room does not exist: retrying would not help.
        this.closedForGood = true;
        this.setStatus("gone");
        return;
      }
      if (event.code === BANNED) {
        // A moderator banned the account: every session of it ended.
        this.closedForGood = true;
        this.setStatus("banned");
        return;
      }
      if (event.code === SIGNED_OUT) {
        // The session this socket was opened with ended (a logout, here or on another
        // device): a new socket would not be who the page shows. The page says so.
        this.closedForGood = true;
        this.setStatus("signed_out");
        return;
      }
      if (event.code === SERVICE_RESTART && this.attempt === 0) {
        // Only from a socket that opened (the attempts count again from 0 when one
        // does): a reconnect that fails goes on with the backoff.
        this.attempt = 1;
        this.connect();
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
    if (status === "open") for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Resolves once the socket is open. */
  opened() {
    if (this.status === "open") return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Connect again at once: the visitor's session changed, and the server learns who this
   * is only when a socket opens. */
  restart() {
    if (this.closedForGood) return;
    const old = this.ws;
    this.ws = null; // the old socket's events are ignored from now on
    clearInterval(this.pingTimer);
    for (const asked of this.previews.splice(0)) this.dropPreview(asked);
    old?.close(1000);
    this.attempt = 0;
    this.connect();
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

  /** Say `text` on `channel` ("table" or "watchers"); false when not connected. */
  chat(channel, text) {
    return this.sendRaw({ type: "chat", channel, text });
  }

  /** Propose or accept a rematch (`accept`), or decline the one proposed; false when not
   *  connected. */
  rematch(accept) {
    return this.sendRaw({ type: "rematch", accept });
  }

  /** The table moved to another room (a rematch): connect there instead. */
  moveTo(roomId) {
    this.roomId = roomId;
    this.restart();
  }

  /** Send a reaction (one of the server's fixed set); false when not connected. */
  react(reaction) {
    return this.sendRaw({ type: "react", reaction });
  }

  /**
   * Ask what `action` would do at `version`, without playing it. Resolves with the server's
   * answer ({ok: true, result} or {ok: false, code, message}); rejects with an Error whose
   * `reason` is "offline" (not connected) or "unanswered" (the connection closed, or no
   * answer in PREVIEW_TIMEOUT_MS).
   */
  preview(version, action) {
    if (!this.sendRaw({ type: "preview", version, action })) {
      return Promise.reject(noAnswer("offline"));
    }
    return new Promise((resolve, reject) => {
      const asked = { version, resolve, reject, timer: null };
      asked.timer = setTimeout(() => {
        this.previews = this.previews.filter((other) => other !== asked);
        this.dropPreview(asked);
      }, PREVIEW_TIMEOUT_MS);
      this.previews.push(asked);
    });
  }

  answerPreview(message) {
    const asked = this.previews.shift();
    if (!asked) return; // a late answer to a question already given up
    clearTimeout(asked.timer);
    if (message.version === asked.version) asked.resolve(message);
    else asked.reject(noAnswer("unanswered"));
  }

  dropPreview(asked) {
    clearTimeout(asked.timer);
    asked.reject(noAnswer("unanswered"));
  }

  close() {
    this.closedForGood = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ws?.close();
  }
}
