// room.js — one room: the lobby while seats fill (invite link and code, seats, computer
// players, start), then the live table over the room's WebSocket. Watchers get the
// public view; a player's connection gets their seat's view. Reconnects restore the table
// without a reload; every refusal is shown in words next to what caused it.

import { get, post, del } from "../lib/api.js";
import { $, announce, boot, h, plural, showError } from "../lib/dom.js";
import { RoomSocket } from "../lib/socket.js";
import { gameModule } from "../table/registry.js";
import { Table } from "../table/table.js";
import { currentUser, initChrome, onRename, saveName, setConnection } from "./common.js";

initChrome();

const data = boot();
const watchOnly = Boolean(data.watch);
let room = null;
let table = null;
let socket = null;
let lastStatus = null;
let busy = false;

const lobby = $("#lobby");
const tableWrap = $("#table-wrap");

function me() {
  return currentUser();
}

function mySeat() {
  if (!room) return null;
  const seat = room.seats.find((s) => s.user_id && s.user_id === me()?.id);
  return seat ? seat.seat : null;
}

function isHost() {
  return room && room.host_id === me()?.id;
}

function inviteUrl() {
  return `${location.origin}/rooms/${room.id}`;
}

// --- the lobby ----------------------------------------------------------------------------

async function lobbyCall(fn, errorEl = $("#lobby-error")) {
  if (busy) return;
  busy = true;
  showError(errorEl, null);
  document.body.classList.add("busy");
  try {
    await fn();
  } catch (err) {
    showError(errorEl, err.message);
    announce(err.message, true);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

function seatRow(seat) {
  const mine = seat.user_id && seat.user_id === me()?.id;
  const host = seat.user_id && seat.user_id === room.host_id;
  const occupied = Boolean(seat.name);
  const controls = [];
  const errorEl = h("p.error.small", { role: "alert", hidden: true });
  if (!occupied) {
    if (mySeat() === null && !watchOnly) {
      controls.push(
        h(
          "button.btn.primary.small",
          {
            type: "button",
            dataset: { action: "sit", seat: String(seat.seat) },
            onclick: () =>
              lobbyCall(async () => {
                const nameInput = $("#sit-name");
                if (nameInput && nameInput.value.trim() && nameInput.value.trim() !== me()?.name) {
                  await saveName(nameInput.value.trim());
                }
                await post(`/rooms/${room.id}/join`, { seat: seat.seat });
                announce(`You sit in seat ${seat.seat + 1}.`);
              }, errorEl),
          },
          "Sit here",
        ),
      );
    }
    if (isHost()) {
      controls.push(
        h(
          "button.btn.small",
          {
            type: "button",
            dataset: { action: "bot", seat: String(seat.seat) },
            onclick: () =>
              lobbyCall(() => post(`/rooms/${room.id}/bots`, { seat: seat.seat }), errorEl),
          },
          "Add computer player",
        ),
      );
    }
  } else if (isHost() && !mine) {
    controls.push(
      h(
        "button.btn.ghost.small",
        {
          type: "button",
          dataset: { action: "free", seat: String(seat.seat) },
          "aria-label": `Remove ${seat.name} from seat ${seat.seat + 1}`,
          onclick: () => lobbyCall(() => del(`/rooms/${room.id}/seats/${seat.seat}`), errorEl),
        },
        "Remove",
      ),
    );
  }
  return h(
    "li.seat",
    { class: `${occupied ? "taken" : "free"}${mine ? " mine" : ""}`, dataset: { seat: String(seat.seat) } },
    h("span.seat-number", { "aria-hidden": "true" }, String(seat.seat + 1)),
    h(
      "div.seat-who",
      {},
      occupied
        ? h(
            "span.seat-name",
            {},
                        seat.name,
            mine ? h("span.badge", {}, "you") : null,
            host ? h("span.badge", {}, "host") : null,
            seat.bot ? h("span.badge", {}, "computer") : null,
            !seat.bot ? h("span.presence", { class: seat.connected ? "on" : "off", title: seat.connected ? "Here" : "Not connected" }) : null,
          )
        : h("span.muted", {}, `Seat ${seat.seat + 1} is free`),
      errorEl,
    ),
    h("div.seat-controls", {}, controls),
  );
}

function renderLobby() {
  lobby.hidden = false;
  tableWrap.hidden = true;
  $("#lobby-game").textContent = room.title;
  $("#lobby-rules").href = `/rules/${room.game}`;
  $("#lobby-rules").textContent = `How to play ${room.title}`;
  $("#room-code").textContent = room.code;
  $("#invite-url").value = inviteUrl();
  const opts = Object.entries(room.options || {})
    .map(([k, v]) => `${k.replaceAll("_", " ")}: ${v === true ? "yes" : v === false ? "no" : v}`)
    .join(" · ");
  $("#lobby-options").textContent = `${room.visibility === "public" ? "Public table" : "Private table (link only)"}${opts ? ` · ${opts}` : ""}`;
  const seated = mySeat();
  const list = $("#seat-list");
  const focusKey = document.activeElement?.dataset?.action
    ? `${document.activeElement.dataset.action}:${document.activeElement.dataset.seat}`
    : null;
  list.replaceChildren(...room.seats.map(seatRow));
  if (focusKey) {
    const [action, seat] = focusKey.split(":");
    const again = list.querySelector(`[data-action="${action}"][data-seat="${seat}"]`);
    (again || $("#start-btn:not([hidden])") || list).focus?.();
  }
  // A visitor who has not sat down may set their name before taking a seat.
  let nameRow = $("#sit-name-row");
  if (seated === null && !watchOnly && room.seats.some((s) => !s.name)) {
    if (!nameRow) {
      nameRow = h(
        "div.field.row.wrap",
        { id: "sit-name-row" },
        h("label", { for: "sit-name" }, "Your name at this table"),
        h("input", { id: "sit-name", maxlength: 20, value: me()?.name || "", autocomplete: "nickname" }),
      );
      list.before(nameRow);
    }
  } else if (nameRow) {
    nameRow.remove();
  }
  const free = room.seats.filter((s) => !s.name).length;
  const start = $("#start-btn");
  start.hidden = !isHost();
  $("#leave-btn").hidden = seated === null;
  let hint;
  if (watchOnly) hint = "You are watching. The table appears here when the match starts.";
  else if (seated === null) hint = free ? "Pick a free seat to join, or stay to watch." : "Every seat is taken — you can watch.";
  else if (isHost()) hint = free ? `Waiting for ${plural(free, "more player")}. Send the link, or add computer players.` : "Everyone is here.";
  else hint = free ? `Waiting for ${plural(free, "more player")}.` : "Waiting for the host to start.";
  $("#lobby-hint").textContent = hint;
}

$("#copy-link").addEventListener("click", async () => {
  const status = $("#copy-status");
  const url = $("#invite-url");
  try {
    await navigator.clipboard.writeText(url.value);
    status.textContent = "Link copied — send it to a friend.";
  } catch {
    url.select();
    status.textContent = "Select the link and copy it (Ctrl+C or long-press).";
  }
  announce(status.textContent);
});

$("#invite-url").addEventListener("focus", (event) => event.target.select());

$("#start-btn").addEventListener("click", () => lobbyCall(() => post(`/rooms/${room.id}/start`)));
$("#leave-btn").addEventListener("click", () =>
  lobbyCall(async () => {
    await post(`/rooms/${room.id}/leave`);
    announce("You left the seat.");
  }),
);

// --- the table ------------------------------------------------------------------------------

function ensureTable() {
  if (table) return table;
  lobby.hidden = true;
  tableWrap.hidden = false;
  table = new Table(tableWrap, gameModule(room.game, room.title), {
    mode: "live",
    onAct: (action, version) => socket.act(version, action),
    isHost,
    onReplace: async (seat) => {
      try {
        await post(`/rooms/${room.id}/bots`, { seat });
        announce(`A computer player now plays seat ${seat + 1}.`);
      } catch (err) {
        table.showError(err.message, "general");
      }
    },
    onRematch: async () => {
      try {
        const next = await post(`/rooms/${room.id}/rematch`);
        location.assign(`/rooms/${next.id}`);
      } catch (err) {
        table.showError(err.message, "result");
      }
    },
  });
  // Tests and curious people can reach the live table from the console.
  window.parlourTable = table;
  return table;
}

function onMessage(message) {
  if (message.type === "room") {
    const before = room;
    room = message.room;
    $("#room").setAttribute("aria-busy", "false");
    $("#room-loading").hidden = true;
    if (room.status === "waiting") {
      renderLobby();
    } else if (table) {
      table.updateRoom(room);
    }
    if (before && before.status === "waiting" && room.status === "playing") {
      announce("The match has started.");
    }
    if (before && !before.rematch_id && room.rematch_id) announce("A rematch table is open.");
    return;
  }
  if (message.type === "state") {
    if (!room) return;
    ensureTable().push({
      room,
      view: message.view,
      version: message.version,
      seat: message.seat,
      event: message.event,
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
    showError($("#room-error"), "There is no such room. Check the link or the code.");
  }
  if (status === "open" && lastStatus && lastStatus !== "open" && lastStatus !== "connecting") {
    announce("Reconnected.");
  } else if (status === "waiting" && lastStatus === "open") {
    announce("Connection lost. Reconnecting…", true);
  }
  lastStatus = status;
}

onRename(() => {
  if (room?.status === "waiting") renderLobby();
});

async function init() {
  const wanted = data.room;
  try {
    const found = await get(`/rooms/${encodeURIComponent(wanted)}`);
    if (found.id !== wanted) {
      history.replaceState(null, "", `/rooms/${found.id}${watchOnly ? "/watch" : ""}`);
    }
    room = found;
    document.title = `${found.title} · ${found.code} · Parlour`;
  } catch (err) {
    $("#room-loading").hidden = true;
    showError($("#room-error"), err.code === "room_not_found" ? "There is no such room. Check the link or the code." : err.message);
    return;
  }
  if (room.status === "waiting") {
    $("#room-loading").hidden = true;
    renderLobby();
  }
  socket = new RoomSocket(room.id, { onMessage, onStatus });
  socket.connect();
  // Tests and curious people can look at the live socket's state.
  window.parlourSocket = socket;
}

init();
