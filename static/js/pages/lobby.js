// lobby.js — the room's lobby while seats fill: the game and its rules, the invite link
// and code (with a copy button), inviting a player by username (the host), the table's options, the seats (sit here, add a computer
// player of a chosen level, remove someone, for the host), your name before you sit, start and leave, and a
// hint saying what the table waits for (or that the host is away, and what happens then). Every refusal is shown next to the seat or button
// that caused it.

import { del, post } from "../lib/api.js";
import { $, announce, h, listWords, showError } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { currentUser, saveName } from "./common.js";

// The computer players a host may seat, weakest first: [kind sent to the server, label].
const COMPUTER_LEVELS = [
  ["heuristic", t("Easy")],
  ["normal", t("Normal")],
  ["strong", t("Strong")],
];

const state = {
  room: null, // the room as the server last described it
  watchOnly: false, // the watch link: never offered a seat
  // Lobby requests on their way, by what they do ("bot:2", "start"), and the chain they
  // run in, one after another.
  pending: new Set(),
  queue: Promise.resolve(),
  // The computer level chosen per seat, kept while the lobby is drawn again (someone
  // comes or goes) between choosing it and clicking "Add computer player".
  levels: new Map(),
};

function me() {
  return currentUser();
}

/** Your seat at this table, or null. */
function mySeat() {
  const seat = state.room?.seats.find((s) => s.user_id && s.user_id === me()?.id);
  return seat ? seat.seat : null;
}

/** Whether you are the host of `room` (who may add computers, remove players, start). */
export function isHost(room) {
  return Boolean(room) && room.host_id === me()?.id;
}

function inviteUrl() {
  return `${location.origin}/rooms/${state.room.id}`;
}

/**
 * Send a lobby request once those already on their way are answered. A second click made
 * before the first is answered (a computer for seat 3 right after one for seat 2: the
 * table shows seat 2 taken as soon as the server says so, before the answer to the click
 * arrives) is sent after it, never dropped; the same request clicked again while it is on
 * its way (a double click) is sent once. `key` names what the request does.
 */
function lobbyCall(key, fn, errorEl = $("#lobby-error")) {
  if (state.pending.has(key)) return state.queue;
  state.pending.add(key);
  document.body.classList.add("busy");
  state.queue = state.queue.then(async () => {
    showError(errorEl, null);
    try {
      await fn();
    } catch (err) {
      showError(errorEl, err.message);
      announce(err.message, true);
    } finally {
      state.pending.delete(key);
      if (!state.pending.size) document.body.classList.remove("busy");
    }
  });
  return state.queue;
}

function seatRow(seat) {
  const mine = seat.user_id && seat.user_id === me()?.id;
  const host = seat.user_id && seat.user_id === state.room.host_id;
  const occupied = Boolean(seat.name);
  const controls = [];
  const errorEl = h("p.error.small", { role: "alert", hidden: true });
  if (!occupied) {
    if (mySeat() === null && !state.watchOnly) {
      controls.push(
        h(
          "button.btn.primary.small",
          {
            type: "button",
            dataset: { action: "sit", seat: String(seat.seat) },
            // The refusal is shown above the seats (this row is drawn again when your name
            // changes), and a name the table refused is not kept.
            onclick: () =>
              lobbyCall(`sit:${seat.seat}`, async () => {
                const wanted = $("#sit-name")?.value.trim();
                const before = me()?.name;
                const renamed = Boolean(wanted) && wanted !== before;
                if (renamed) await saveName(wanted);
                try {
                  await post(`/rooms/${state.room.id}/join`, { seat: seat.seat });
                } catch (err) {
                  if (renamed && before) await saveName(before).catch(() => {});
                  const field = $("#sit-name");
                  if (field && wanted) field.value = wanted;
                  throw err;
                }
                announce(t("You sit in seat {number}.", { number: seat.seat + 1 }));
              }),
          },
          t("Sit here"),
        ),
      );
    }
    if (isHost(state.room) && !state.room.rated) {
      const level = h(
        "select.small",
        {
          dataset: { action: "bot-level", seat: String(seat.seat) },
          "aria-label": t("Computer player level for seat {number}", { number: seat.seat + 1 }),
        },
        COMPUTER_LEVELS.map(([kind, label]) => h("option", { value: kind }, label)),
      );
      const chosen = state.levels.get(seat.seat);
      if (chosen) level.value = chosen;
      level.addEventListener("change", () => state.levels.set(seat.seat, level.value));
      controls.push(
        level,
        h(
          "button.btn.small",
          {
            type: "button",
            dataset: { action: "bot", seat: String(seat.seat) },
            onclick: () =>
              lobbyCall(
                `bot:${seat.seat}`,
                () => post(`/rooms/${state.room.id}/bots`, { seat: seat.seat, kind: level.value }),
                errorEl,
              ),
          },
          t("Add computer player"),
        ),
      );
    }
  } else if (isHost(state.room) && !mine) {
    controls.push(
      h(
        "button.btn.ghost.small",
        {
          type: "button",
          dataset: { action: "free", seat: String(seat.seat) },
          "aria-label": t("Remove {name} from seat {number}", {
            name: seat.name,
            number: seat.seat + 1,
          }),
          onclick: () =>
            lobbyCall(
              `free:${seat.seat}`,
              () => del(`/rooms/${state.room.id}/seats/${seat.seat}`),
              errorEl,
            ),
        },
        t("Remove"),
      ),
    );
  }
  return h(
    "li.seat",
    {
      class: `${occupied ? "taken" : "free"}${mine ? " mine" : ""}`,
      dataset: { seat: String(seat.seat) },
    },
    h("span.seat-number", { "aria-hidden": "true" }, String(seat.seat + 1)),
    h(
      "div.seat-who",
      {},
      occupied
        ? h(
            "span.seat-name",
            {},
            seat.name,
            mine ? h("span.badge", {}, t("you")) : null,
            host ? h("span.badge", {}, t("host")) : null,
            seat.bot ? h("span.badge", {}, t("computer")) : null,
            !seat.bot
              ? h("span.presence", {
                  class: seat.connected ? "on" : "off",
                  title: seat.connected ? t("Here") : t("Not connected"),
                })
              : null,
          )
        : h("span.muted", {}, t("Seat {number} is free", { number: seat.seat + 1 })),
      errorEl,
    ),
    h("div.seat-controls", {}, controls),
  );
}

/** What the table waits for, as the visitor sees it. */
function hint(seated, free) {
  if (state.watchOnly) return t("You are watching. The table appears here when the match starts.");
  if (seated === null) {
    return free
      ? t("Pick a free seat to join, or stay to watch.")
      : t("Every seat is taken — you can watch.");
  }
  // A seated person without a connection is away: the table is not all here.
  const away = state.room.seats
    .filter((s) => s.name && !s.bot && !s.connected && s.user_id !== me()?.id)
    .map((s) => s.name);
  const awayWords = tn("{names} is away.", "{names} are away.", away.length, {
    names: listWords(away),
  });
  const awayText = away.length ? ` ${awayWords}` : "";
  const more = tn("Waiting for {n} more player.", "Waiting for {n} more players.", free);
  if (isHost(state.room)) {
    const send = t("Send the link, or add computer players.");
    if (free) return `${more} ${send}${awayText}`;
    const taken = t("Every seat is taken.");
    return away.length ? `${taken}${awayText}` : t("Everyone is here.");
  }
  const host = state.room.seats.find((s) => s.user_id === state.room.host_id);
  if (host && !host.connected) {
    const grace = Math.round(state.room.absence_grace ?? 60);
    return t(
      "The host, {name}, is away. If they are away for {seconds} s, the next person here becomes the host.",
      { name: host.name, seconds: grace },
    );
  }
  const waiting = free ? more : t("Waiting for the host to start.");
  return `${waiting}${awayText}`;
}

/**
 * Put `rows` in `list`, replacing only the rows that changed: a row replaced between the
 * press and the release of its button loses the click, and the room is described again
 * whenever anyone comes, goes or sits down — most often about another seat.
 */
function redrawRows(list, rows) {
  const old = [...list.children];
  if (old.length !== rows.length) {
    list.replaceChildren(...rows);
    return;
  }
  rows.forEach((row, i) => {
    if (old[i].outerHTML !== row.outerHTML) old[i].replaceWith(row);
  });
}

function render() {
  $("#lobby").hidden = false;
  $("#lobby-game").textContent = state.room.title;
  $("#lobby-rules").href = `/rules/${state.room.game}`;
  $("#lobby-rules").textContent = t("How to play {game}", { game: state.room.title });
  // A private table has no code: only its link (which nobody can guess) leads to it.
  $("#room-code").textContent = state.room.code || "";
  $("#room-code").closest(".invite-code").hidden = !state.room.code;
  $("#invite-url").value = inviteUrl();
  // The server words the options ("Points to win: 100"), as the table and review show them.
  const opts = (state.room.options_text || []).join(" · ");
  const visibility =
    state.room.visibility === "public" ? t("Public table") : t("Private table (link only)");
  const rated = t("Rated");
  $("#lobby-options").textContent =
    `${visibility}${state.room.rated ? ` · ${rated}` : ""}${opts ? ` · ${opts}` : ""}`;
  const seated = mySeat();
  const list = $("#seat-list");
  const focusKey = document.activeElement?.dataset?.action
    ? `${document.activeElement.dataset.action}:${document.activeElement.dataset.seat}`
    : null;
  redrawRows(list, state.room.seats.map(seatRow));
  if (focusKey) {
    const [action, seat] = focusKey.split(":");
    const again = list.querySelector(`[data-action="${action}"][data-seat="${seat}"]`);
    (again || $("#start-btn:not([hidden])") || list).focus?.();
  }
  // A visitor who has not sat down may set their name before taking a seat.
  let nameRow = $("#sit-name-row");
  if (seated === null && !state.watchOnly && state.room.seats.some((s) => !s.name)) {
    if (!nameRow) {
      nameRow = h(
        "div.field.row.wrap",
        { id: "sit-name-row" },
        h("label", { for: "sit-name" }, t("Your name at this table")),
        h("input", {
          id: "sit-name",
          maxlength: 20,
          value: me()?.name || "",
          autocomplete: "nickname",
          // An account plays under its username.
          readonly: Boolean(me()?.username),
        }),
      );
      list.before(nameRow);
    }
  } else if (nameRow) {
    nameRow.remove();
  }
  const free = state.room.seats.filter((s) => !s.name).length;
  const start = $("#start-btn");
  start.hidden = !isHost(state.room);
  // The host may invite a player by name while a seat is free.
  $("#invite-person").hidden = !isHost(state.room) || free === 0;
  $("#leave-btn").hidden = seated === null;
  $("#lobby-hint").textContent = hint(seated, free);
}

/** Show the lobby of `room` (again, after any change of the room or of your name). */
export function showLobby(room) {
  state.room = room;
  render();
}

/** Wire the lobby's fixed controls once; `watchOnly` for the watch link. */
export function initLobby({ watchOnly }) {
  state.watchOnly = watchOnly;
  $("#copy-link").addEventListener("click", async () => {
    const status = $("#copy-status");
    const url = $("#invite-url");
    try {
      await navigator.clipboard.writeText(url.value);
      status.textContent = t("Link copied — send it to a friend.");
    } catch {
      url.select();
      status.textContent = t("Select the link and copy it (Ctrl+C or long-press).");
    }
    announce(status.textContent);
  });
  $("#invite-url").addEventListener("focus", (event) => event.target.select());
  $("#invite-person").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("#invite-name");
    const name = input.value.trim();
    showError($("#invite-error"), null);
    try {
      const sent = await post(`/rooms/${state.room.id}/invitations`, { username: name });
      $("#invite-status").textContent = t("Invited {name}.", { name: sent.username });
      announce($("#invite-status").textContent);
      input.value = "";
    } catch (err) {
      showError($("#invite-error"), err.message);
    }
  });
  $("#start-btn").addEventListener("click", () =>
    lobbyCall("start", () => post(`/rooms/${state.room.id}/start`)),
  );
  $("#leave-btn").addEventListener("click", () =>
    lobbyCall("leave", async () => {
      await post(`/rooms/${state.room.id}/leave`);
      announce(t("You left the seat."));
    }),
  );
}
