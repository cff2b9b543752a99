// chat.js — the room's table talk (templates/room.html, #talk): two channels, "table" (the
// players write, everyone reads) and "watchers" (everyone writes; a player reads it only
// after choosing to here — remembered per room in this browser — while the host allows,
// and never at a rated table), the lines of each with unread counts, the box to write in,
// the person menu on each name (hide their lines for yourself; the host mutes or unmutes
// them), and the host's switch for the watchers' channel. The server decides who reads and writes
// what; this panel shows what it was sent and says why a line was refused, beside the box.

import { post } from "../lib/api.js";
import { $, $$, h, showError } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { noticeText, onLive } from "../lib/live.js";
import { TalkAnnouncer } from "./live.js";
import { liveLine } from "./person.js";

const KEPT = 300; // lines kept per channel on the page
// Each channel's words, for the lines read aloud, the list's name and the box's.
const SAID_TO = {
  table: (name, text) => t("{name} to the table: {text}", { name, text }),
  watchers: (name, text) => t("{name} to the watchers: {text}", { name, text }),
};
const LIST_NAMES = { table: t("Messages to the table"), watchers: t("Messages to the watchers") };
const BOX_NAMES = { table: t("Message to the table"), watchers: t("Message to the watchers") };

/** The people hidden at this table, as [user id, name] pairs (none if unreadable). */
function storedPeople(key) {
  try {
    const stored = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(stored) ? stored.filter((pair) => Array.isArray(pair)) : [];
  } catch {
    return [];
  }
}

export class ChatPanel {
  /**
   * @param {HTMLElement} root the #talk panel
   * @param {{roomId: string, me: () => ({id: string} | null),
   *   send: (channel: string, text: string) => boolean,
   *   readWatchers: (on: boolean) => boolean}} options
   */
  constructor(root, { roomId, me, send, readWatchers }) {
    this.root = root;
    this.roomId = roomId;
    this.me = me;
    this.send = send;
    this.tellReading = readWatchers;
    this.readingKey = `parlour-read-watchers:${roomId}`;
    // Whether you chose to read the watchers' channel as a player (off unless you did).
    this.readsWatchers = localStorage.getItem(this.readingKey) === "1";
    this.list = $("#chat-list", root);
    this.input = $("#chat-input", root);
    this.error = $("#chat-error", root);
    this.voice = new TalkAnnouncer($("#chat-live", root));
    this.lines = { table: [], watchers: [] };
    this.unread = { table: 0, watchers: 0 };
    this.active = "table";
    this.chosen = false; // whether the person picked a channel themselves
    this.room = null;
    this.drawnFor = ""; // what the lines were last drawn for (settings, seat, host)
    this.lastSent = "";
    this.siteMuted = ""; // why and until when a moderator muted you, once the server said
    this.hiddenKey = `parlour-hidden:${roomId}`;
    this.hidden = new Map(storedPeople(this.hiddenKey));
    $("#chat-form", root).addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    for (const button of $$(".talk-channels [data-channel]", root)) {
      button.addEventListener("click", () => this.choose(button.dataset.channel));
    }
    $("#watchers-chat", root).addEventListener("change", (event) =>
      this.setWatchersChat(event.target),
    );
    $("#read-watchers", root).addEventListener("change", (event) =>
      this.setReadsWatchers(event.target.checked),
    );
    // A moderator's mute, in force when the page opened or said since: the box gives way to
    // why and until when, before anything is written; lifted, it comes back.
    onLive((message) => {
      if (message.type !== "notice" || !["mute", "unmute"].includes(message.kind)) return;
      this.siteMuted = message.kind === "mute" ? noticeText(message) : "";
      this.drawForm();
    });
  }

  /** Whether a player here may choose to read the watchers' channel at all. */
  mayReadWatchers() {
    return Boolean(this.room?.watchers_chat) && !this.room?.rated;
  }

  /** Tell the server your choice (on every new connection: the server forgets it). */
  sayReading() {
    if (this.readsWatchers) this.tellReading(true);
  }

  setReadsWatchers(on) {
    this.readsWatchers = on;
    if (on) localStorage.setItem(this.readingKey, "1");
    else localStorage.removeItem(this.readingKey);
    this.tellReading(on);
    if (!this.readable().includes(this.active)) this.active = "table";
    this.render();
  }

  /** The table moved to another room (a rematch): its talk is its own; the chat log comes
   *  with the new room's socket. */
  moveTo(roomId) {
    this.roomId = roomId;
    this.hiddenKey = `parlour-hidden:${roomId}`;
    this.hidden = new Map(storedPeople(this.hiddenKey));
    this.room = null;
    this.drawnFor = "";
  }

  /** Your seat in the room as last described (null: watching). */
  get seat() {
    const id = this.me()?.id;
    const held = this.room?.seats.find((s) => s.user_id && s.user_id === id);
    return held ? held.seat : null;
  }

  /** The channels you read now (as the server decides it). */
  readable() {
    return this.seat === null || (this.readsWatchers && this.mayReadWatchers())
      ? ["table", "watchers"]
      : ["table"];
  }

  isHost() {
    return Boolean(this.room) && this.room.host_id === this.me()?.id;
  }

  /** Whether lines and reactions from `userId` are hidden here. */
  hides(userId) {
    return this.hidden.has(userId);
  }

  /** The room changed (seats, host, settings): draw what follows from it. */
  updateRoom(room) {
    this.room = room;
    // A watcher starts on the channel they may write in; a player on the table's.
    if (!this.chosen) this.active = this.seat === null ? "watchers" : "table";
    if (!this.readable().includes(this.active)) this.active = "table";
    $("#watchers-chat-setting", this.root).hidden = !this.isHost();
    $("#watchers-chat", this.root).checked = Boolean(room.watchers_chat);
    $("#read-watchers-setting", this.root).hidden = this.seat === null || !this.mayReadWatchers();
    $("#read-watchers", this.root).checked = this.readsWatchers;
    // Comings and goings change the room often: the lines are drawn again only for what
    // they show of it, so a focused name or an open menu stays.
    const drawnFor = JSON.stringify([room.muted, room.host_id, this.seat, this.active]);
    if (drawnFor !== this.drawnFor) this.render();
    else this.drawForm();
  }

  /** The room's recent lines, sent on connect (and when the channels you read change). */
  log(messages) {
    this.lines = { table: [], watchers: [] };
    for (const message of messages) this.lines[message.channel]?.push(message);
    this.unread = { table: 0, watchers: 0 };
    this.render();
  }

  /** One new line. */
  add(message) {
    const lines = this.lines[message.channel];
    if (!lines) return;
    let at = lines.length;
    while (at > 0 && lines[at - 1].id > message.id) at -= 1;
    if (lines[at - 1]?.id === message.id) return;
    lines.splice(at, 0, message);
    const newest = at === lines.length - 1;
    if (lines.length > KEPT) lines.splice(0, lines.length - KEPT);
    const mine = message.user_id === this.me()?.id;
    if (mine && message.text === this.lastSent) this.lastSent = "";
    if (mine || this.hides(message.user_id)) {
      this.showAdded(message, newest);
      return;
    }
    if (message.channel !== this.active) this.unread[message.channel] += 1;
    this.showAdded(message, newest);
    this.voice.say(SAID_TO[message.channel](message.name, message.text));
  }

  /** A moderator deleted a line: it leaves the page. */
  remove(message) {
    const lines = this.lines[message.channel];
    const at = lines ? lines.findIndex((line) => line.id === message.id) : -1;
    if (at < 0) return;
    lines.splice(at, 1);
    this.drawLines();
  }

  /** Read a short note (a reaction) the way the lines are read. */
  note(text) {
    this.voice.say(text);
  }

  /** The server refused a line or a reaction: say why beside the box (and give a refused
   * line's text back). */
  refused(message) {
    showError(this.error, message.message);
    if (message.code === "site_muted") {
      // A moderator's mute: the box gives way to why and until when.
      this.siteMuted = message.message;
      this.drawForm();
    }
    if (message.about !== "chat") return;
    if (this.lastSent && !this.input.value) this.input.value = this.lastSent;
    this.lastSent = "";
  }

  choose(channel) {
    this.chosen = true;
    this.active = channel;
    this.unread[channel] = 0;
    this.render();
    this.input.focus();
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text) return;
    showError(this.error, null);
    let sent;
    try {
      sent = await this.send(this.active, text);
    } catch (err) {
      showError(this.error, err.message);
      return;
    }
    if (!sent) {
      showError(this.error, t("You are offline; the message was not sent. Reconnecting…"));
      return;
    }
    this.lastSent = text;
    this.input.value = "";
  }

  async setWatchersChat(box) {
    showError(this.error, null);
    try {
      await post(`/rooms/${this.roomId}/settings`, { watchers_chat: box.checked });
    } catch (err) {
      box.checked = !box.checked;
      showError(this.error, err.message);
    }
  }

  async mute(person, muted) {
    showError(this.error, null);
    try {
      await post(`/rooms/${this.roomId}/mute`, { user_id: person.user_id, muted });
      this.note(
        muted
          ? t("{name} is muted at this table.", { name: person.name })
          : t("{name} is no longer muted at this table.", { name: person.name }),
      );
    } catch (err) {
      showError(this.error, err.message);
    }
  }

  hide(person, hidden) {
    if (hidden) this.hidden.set(person.user_id, person.name);
    else this.hidden.delete(person.user_id);
    localStorage.setItem(this.hiddenKey, JSON.stringify([...this.hidden]));
    this.render();
    this.input.focus();
  }

  // --- drawing ----------------------------------------------------------------------------

  render() {
    this.drawChannels();
    this.drawLines();
    this.drawForm();
    this.drawHidden();
  }

  /** A line was added: appended in place when it is the newest of the channel shown. */
  showAdded(message, newest) {
    this.drawChannels();
    if (message.channel !== this.active || this.hides(message.user_id)) return;
    const list = this.list;
    if (!newest || !list.querySelector(".chat-line")) {
      this.drawLines();
      return;
    }
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    list.append(this.lineEl(message));
    while (list.children.length > KEPT) list.firstElementChild.remove();
    if (atEnd || message.user_id === this.me()?.id) list.scrollTop = list.scrollHeight;
  }

  drawChannels() {
    const readable = this.readable();
    for (const button of $$(".talk-channels [data-channel]", this.root)) {
      const channel = button.dataset.channel;
      button.hidden = !readable.includes(channel);
      button.setAttribute("aria-pressed", String(channel === this.active));
      const badge = $(".unread", button);
      badge.hidden = !this.unread[channel];
      badge.textContent = this.unread[channel]
        ? tn("{n} new", "{n} new", this.unread[channel])
        : "";
    }
  }

  drawLines() {
    const list = this.list;
    this.drawnFor = JSON.stringify([this.room?.muted, this.room?.host_id, this.seat, this.active]);
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    const shown = this.lines[this.active].filter((m) => !this.hides(m.user_id));
    list.setAttribute("aria-label", LIST_NAMES[this.active]);
    list.replaceChildren(
      ...(shown.length
        ? shown.map((m) => this.lineEl(m))
        : [h("li.chat-empty", {}, t("No messages yet."))]),
    );
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  lineEl(message) {
    return liveLine(message, {
      mine: message.user_id === this.me()?.id,
      muted: Boolean(this.room?.muted?.includes(message.user_id)),
      host: this.isHost(),
      hide: (person) => this.hide(person, true),
      mute: (person, muted) => this.mute(person, muted),
    });
  }

  drawForm() {
    const form = $("#chat-form", this.root);
    const note = $("#chat-note", this.root);
    const muted = this.room?.muted?.includes(this.me()?.id);
    let why = "";
    if (muted) why = t("The host has muted you at this table.");
    else if (this.siteMuted) why = this.siteMuted;
    else if (this.active === "table" && this.seat === null) {
      why = t("Only the players write to the table; you can talk with the watchers.");
    }
    note.textContent = why;
    note.hidden = !why;
    form.hidden = Boolean(why);
    this.input.setAttribute("aria-label", BOX_NAMES[this.active]);
  }

  drawHidden() {
    const el = $("#hidden-people", this.root);
    el.hidden = !this.hidden.size;
    el.replaceChildren(
      t("Hidden: "),
      ...[...this.hidden].map(([userId, name]) =>
        h(
          "button.btn.small.ghost",
          { type: "button", onclick: () => this.hide({ user_id: userId, name }, false) },
          t("Show {name}", { name }),
        ),
      ),
    );
  }
}
