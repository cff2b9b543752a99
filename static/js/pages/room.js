// room.js — one room: the lobby while seats fill (lobby.js), then the live table over the
// room's WebSocket, with the table talk beside it (talk/chat.js, talk/reactions.js) and the
// your-turn signals (signals.js). This page owns the socket: the table acts and asks for
// previews, the chat says and reacts, through the functions given to them here. Watchers
// get the public view; a player's connection gets their seat's view. Reconnects restore
// the table without a reload; every refusal is shown in words next to what caused it. It
// also says when the host role moves on, lets a person take back the seat a computer plays
// for them, says when a table has closed (and why), and lets an account report another
// player at the table (talk/report-table.js). When a rematch everyone accepted starts, the
// page moves to its room over the socket (no reload): the new room's description, table and
// talk come with its socket.

import { get, onSessionStarted, post, startSession } from "../lib/api.js";
import { $, announce, boot, seatName, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { RoomSocket } from "../lib/socket.js";
import { noteServerTime } from "../table/clocks.js";
import { Table } from "../table/table.js";
import { ChatPanel } from "../talk/chat.js";
import { reactionButtons, reactionText, showBubble } from "../talk/reactions.js";
import { TableReport } from "../talk/report-table.js";
import { currentUser, initChrome, onRename, setConnection } from "./common.js";
import { initLobby, isHost, showLobby } from "./lobby.js";
import { TurnSignals } from "./signals.js";

initChrome();

const data = boot();
const watchOnly = Boolean(data.watch);
let room = null; // the room as the server last described it
let table = null; // the live table, once the match has started
let socket = null;
let lastStatus = null;

const tableWrap = $("#table-wrap");
initLobby({ watchOnly });
let talk = null; // the chat panel, once the room is known
const tableReport = new TableReport($("#report-person")); // "Report a player"
const signals = new TurnSignals(
  {
    panel: $("#turn-alerts"),
    notify: $("#turn-notify"),
    note: $("#turn-notify-note"),
  },
  () => (room ? [room.title, room.code].filter(Boolean).join(" · ") : "Parlour"),
);

function renderLobby() {
  tableWrap.hidden = true;
  showLobby(room);
}

/** A table closed before its match started: say so (and why) instead of the lobby. */
function renderClosed() {
  tableWrap.hidden = true;
  $("#lobby").hidden = true;
  $("#room-loading").hidden = true;
  showError(
    $("#room-error"),
    room.closed_by === "moderator"
      ? t("A moderator closed this table.")
      : t("This table closed: nobody was at it for a long while."),
  );
}

/** Tell everyone when the host role moved on (the host left, or was away too long). */
function noticeHost(before) {
  if (!before || before.host_id === room.host_id) return;
  const seatOf = (r, id) =>
    id ? r.seats.find((s) => s.user_id === id || s.stand_in_for?.user_id === id) : undefined;
  const old = seatOf(before, before.host_id);
  const now = seatOf(room, room.host_id);
  const you = room.host_id === currentUser()?.id;
  const params = { name: now?.name || t("Someone"), before: old?.name };
  let text;
  if (old && !old.connected) {
    text = you
      ? t("You are now the host: {before} was away.", params)
      : t("{name} is now the host: {before} was away.", params);
  } else {
    text = you ? t("You are now the host.") : t("{name} is now the host.", params);
  }
  const notice = $("#room-notice");
  notice.textContent = text;
  notice.hidden = false;
  announce(text);
}

async function reclaim() {
  try {
    const taken = await post(`/rooms/${room.id}/reclaim`);
    announce(t("You are back in your seat, {seat}.", { seat: seatName(taken.room, taken.seat) }));
  } catch (err) {
    table.showError(err.message, "reclaim");
    announce(err.message, true);
  }
}

$("#rules-drawer-close").addEventListener("click", () => $("#rules-drawer").close());

function ensureTable() {
  if (table) return table;
  $("#lobby").hidden = true;
  $("#room-loading").hidden = true;
  tableWrap.hidden = false;
  $("#talk").hidden = false;
  table = new Table(tableWrap, room.game, {
    mode: "live",
    onAct: (action, version) => socket.act(version, action),
    preview: (action, version) => socket.preview(version, action),
    isHost: () => isHost(room),
    userId: () => currentUser()?.id,
    onReclaim: reclaim,
    turnBased: () => room.pace === "turn_based",
    onClaim: async () => {
      try {
        await post(`/rooms/${room.id}/claim`);
        announce(t("You claimed the match: the time to move ran out."));
      } catch (err) {
        table.showError(err.message, "general");
      }
    },
    // The game's rules in short, in a drawer over the table (room.html).
    onRules: () => $("#rules-drawer").showModal(),
    onReplace: async (seat) => {
      try {
        await post(`/rooms/${room.id}/bots`, { seat });
        announce(t("A computer player now plays seat {number}.", { number: seat + 1 }));
      } catch (err) {
        table.showError(err.message, "general");
      }
    },
    // A rated match's rating changes are written when it finishes: ask once it is over.
    ratingChanges: async (matchId) =>
      room?.rated ? (await get(`/matches/${matchId}`)).ratings : [],
    // A player's word on a rematch, over the socket (table/rematch.js).
    onRematch: (accept) => {
      if (!socket.rematch(accept)) {
        table.showError(t("You are offline; nothing was sent. Reconnecting…"), "result");
      }
    },
  });
  return table;
}

/** The rematch everyone accepted has started in room `id`: follow it there, in this page.
 *  The table starts afresh; the socket, the talk and the address move to the new room. */
function moveTo(id) {
  announce(t("Everyone accepted: the rematch starts."));
  history.pushState(null, "", `/rooms/${id}${watchOnly ? "/watch" : ""}`);
  shownPath = location.pathname;
  room = null;
  table = null;
  tableWrap.replaceChildren();
  talk.moveTo(id);
  socket.moveTo(id);
}

// The room's address this page shows (a rematch moves it; a skip link only adds a #part).
let shownPath = location.pathname;

// Back (or forward) across a rematch the page moved to: show the room the address names.
// A skip link's #part pops state too, and changes no room.
window.addEventListener("popstate", () => {
  if (location.pathname !== shownPath) location.reload();
});

/** Your seat in the room as last described (null: watching). */
function mySeat() {
  const id = currentUser()?.id;
  return room?.seats.find((s) => s.user_id && s.user_id === id)?.seat ?? null;
}

/** The room changed: the talk panel and the signals follow who you are in it. */
function roomForTalk() {
  talk.updateRoom(room);
  tableReport.update(room, currentUser());
  $("#reaction-bar").hidden = mySeat() === null;
  signals.seated(mySeat() !== null);
}

function onTalk(message) {
  if (message.type === "chat") talk.add(message);
  else if (message.type === "chat_log") talk.log(message.messages);
  else if (message.type === "chat_deleted") talk.remove(message);
  else if (message.type === "reaction" && !talk.hides(message.user_id)) {
    showBubble(message);
    if (message.user_id !== currentUser()?.id) {
      talk.note(`${message.name}: ${reactionText(message.reaction)}`);
    }
  }
}

let banned = null; // the server's word on a ban, once told

function onMessage(message) {
  if (message.now) noteServerTime(message.now);
  if (["chat", "chat_log", "chat_deleted", "reaction"].includes(message.type)) {
    onTalk(message);
    return;
  }
  if (message.type === "banned") {
    // Why and until when, just before the socket closes with 4410 (onStatus "banned").
    banned = message;
    return;
  }
  if (message.type === "error" && message.about === "rematch") {
    table?.showError(message.message, "result");
    return;
  }
  if (message.type === "error" && message.about) {
    talk.refused(message);
    return;
  }
  if (message.type === "room") {
    const before = room;
    room = message.room;
    roomForTalk();
    $("#room").setAttribute("aria-busy", "false");
    // A match in play keeps the loading sign until its table is drawn (ensureTable), so
    // nothing on the page moves in between.
    if (table || room.status === "waiting" || room.status === "closed") {
      $("#room-loading").hidden = true;
    }
    if (room.status === "waiting") {
      renderLobby();
    } else if (room.status === "closed") {
      renderClosed();
    } else if (table) {
      table.updateRoom(room);
    }
    noticeHost(before);
    if (before && before.status === "waiting" && room.status === "playing") {
      announce(t("The match has started."));
    }
    if (before && !before.rematch_offer?.started && room.rematch_offer?.started) {
      moveTo(room.rematch_id);
    } else if (before && !before.rematch_id && room.rematch_id) {
      announce(t("A rematch table is open."));
    }
    return;
  }
  if (message.type === "state") {
    if (!room) return;
    signals.update(message.seat, message.view);
    $("#skip-hand").hidden = message.seat === null;
    ensureTable().push({
      room,
      view: message.view,
      version: message.version,
      seat: message.seat,
      event: message.event,
      clocks: message.clocks,
    });
    return;
  }
  if (message.type === "error") {
    if (table && room?.status !== "waiting") table.serverError(message.message);
    else {
      showError($("#lobby-error"), message.message);
      if (!room) showError($("#room-error"), message.message);
    }
  }
}

function onStatus(status, detail) {
  setConnection(status, detail);
  tableWrap.classList.toggle("offline", status !== "open");
  if (status === "gone") {
    $("#room-loading").hidden = true;
    showError($("#room-error"), t("There is no such room. Check the link or the code."));
  }
  if (status === "signed_out") {
    $("#room-loading").hidden = true;
    // #room-error is an alert: it is read out as it appears.
    showError(
      $("#room-error"),
      t("You were signed out (on this device or everywhere). Reload the page to carry on."),
    );
  }
  if (status === "banned") {
    $("#room-loading").hidden = true;
    showError(
      $("#room-error"),
      banned
        ? t("A moderator banned this account. {why}", { why: banned.message })
        : t("A moderator banned this account. Logging in again says why and until when."),
    );
  }
  if (status === "open") talk?.sayReading();
  if (status === "open" && lastStatus && lastStatus !== "open" && lastStatus !== "connecting") {
    announce(t("Reconnected."));
  } else if (status === "waiting" && lastStatus === "open") {
    announce(t("Connection lost. Reconnecting…"), true);
  }
  lastStatus = status;
}

onRename(() => {
  if (room?.status === "waiting") renderLobby();
  if (talk) roomForTalk();
});

async function init() {
  const wanted = data.room;
  try {
    // The page brings the room as the API describes it (app/routes/pages.py).
    const found = data.room_info ?? (await get(`/rooms/${encodeURIComponent(wanted)}`));
    if (found.id !== wanted) {
      history.replaceState(null, "", `/rooms/${found.id}${watchOnly ? "/watch" : ""}`);
    }
    room = found;
    document.title = `${[found.title, found.code, "Parlour"].filter(Boolean).join(" · ")}`;
  } catch (err) {
    $("#room-loading").hidden = true;
    showError(
      $("#room-error"),
      err.code === "room_not_found"
        ? t("There is no such room. Check the link or the code.")
        : err.message,
    );
    return;
  }
  if (room.status === "waiting") {
    $("#room-loading").hidden = true;
    renderLobby();
  } else if (room.status === "closed") {
    renderClosed();
  }
  talk = new ChatPanel($("#talk"), {
    roomId: room.id,
    me: currentUser,
    send: async (channel, text) => {
      // A visitor's first line makes their guest; the socket then reopens as them.
      if (!currentUser()?.id) {
        await startSession();
        await socket.opened();
      }
      return socket.chat(channel, text);
    },
    readWatchers: (on) => socket?.sendRaw({ type: "read_watchers", on }) ?? false,
  });
  const offline = { about: "react", message: t("You are offline; the reaction was not sent.") };
  $("#reaction-bar").replaceChildren(
    ...reactionButtons((reaction) => socket.react(reaction) || talk.refused(offline)),
  );
  roomForTalk();
  // At a match in play the talk appears with the table (ensureTable), not above it first.
  $("#talk").hidden = room.status !== "waiting" && room.status !== "closed";
  socket = new RoomSocket(room.id, { onMessage, onStatus, referee: data.referee });
  onSessionStarted(() => socket.restart());
  socket.connect();
}

init();
