// home.js — the lobby: choose a game, your name, seats, options, a turn clock and
// visibility, and open a table; join by code; and see the public tables with someone at
// them (of one game, if chosen) to join or watch. The option fields are built from each
// game's options schema (in the boot data, as GET /api/games gives it), so the page knows
// no rules.

import { ApiError, get, post } from "../lib/api.js";
import { cardEl } from "../lib/cards.js";
import { $, $$, boot, h, showError } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { tableModule } from "../table/registry.js";
import { currentUser, initChrome, saveName } from "./common.js";

initChrome();

const data = boot();
const gameInfo = Object.fromEntries((data.games || []).map((g) => [g.name, g]));

// The card that pictures each game (its table module's `art`, else the ace of spades, with
// the module's own card titles), drawn in the game's own pack (data-pack, from the server).
for (const art of $$("[data-game-art]")) {
  const game = tableModule(art.dataset.gameArt);
  art.append(cardEl(game.art || "AS", art.dataset.pack, { titles: game.titles, className: "art" }));
}

/** The chosen game; the page checks one, else the first on offer. */
function selectedGame() {
  return ($('input[name="game"]:checked') || $('input[name="game"]'))?.value;
}

function optionField(option) {
  const id = `opt-${option.name}`;
  if (option.type === "bool") {
    return h(
      "label.field.check",
      { for: id },
      h("input", {
        id,
        type: "checkbox",
        name: option.name,
        checked: Boolean(option.default),
        dataset: { type: "bool" },
      }),
      h("span", {}, option.label),
    );
  }
  let input;
  if (option.type === "choice") {
    input = h(
      "select",
      {
        id,
        name: option.name,
        dataset: { type: typeof option.default === "number" ? "int" : "text" },
      },
      option.choices.map((choice) =>
        h(
          "option",
          { value: String(choice), selected: choice === option.default },
          humanize(choice),
        ),
      ),
    );
  } else {
    input = h("input", {
      id,
      name: option.name,
      type: "number",
      inputmode: "numeric",
      min: option.min,
      max: option.max,
      value: option.default,
      required: true,
      dataset: { type: "int" },
    });
  }
  const hint =
    option.type === "int" && option.min !== undefined
      ? h("span.hint", {}, `${option.min}–${option.max}`)
      : null;
  return h("div.field", {}, h("label", { for: id }, option.label), input, hint);
}

// The words for the options' choices the games offer (the server sends their values, such
// as "democratic_league"); a value not listed here is shown as it is, humanized.
const CHOICE_WORDS = {
  forgiven: t("Forgiven"),
  democratic_league: t("Democratic league"),
  magellan: t("Magellan"),
  single: t("Single"),
  double: t("Double"),
  none: t("None"),
  standard: t("Standard"),
  alternative: t("Alternative"),
};

function humanize(value) {
  if (Object.hasOwn(CHOICE_WORDS, value)) return CHOICE_WORDS[value];
  return String(value)
    .replaceAll("_", " ")
    .replace(/^./, (c) => c.toUpperCase());
}

function renderGameFields() {
  const game = gameInfo[selectedGame()];
  if (!game) return;
  const seats = $("#seats");
  seats.replaceChildren(
    ...Array.from({ length: game.max_seats - game.min_seats + 1 }, (_, i) => {
      const n = game.min_seats + i;
      return h("option", { value: String(n) }, tn("{n} player", "{n} players", n));
    }),
  );
  seats.disabled = game.min_seats === game.max_seats;
  $("#rules-link").href = `/rules/${game.name}`;
  $("#rules-link").textContent = t("Read the rules of {game}", { game: game.title });
  $("#options").replaceChildren(...(game.options || []).map(optionField));
}

function readOptions() {
  const options = {};
  for (const input of $$("#options input, #options select")) {
    if (input.dataset.type === "bool") options[input.name] = input.checked;
    else if (input.dataset.type === "int") options[input.name] = Number(input.value);
    else options[input.name] = input.value;
  }
  return options;
}

/** The chosen turn clock preset ("30+120": turn + bank, in seconds), or null. A
 * turn-based table has none: its moves have days. */
function readClock() {
  const [turn, bank] = $("#clock").value.split("+").map(Number);
  return turn && !$("#pace").value ? { turn, bank } : null;
}

/** The chosen pace: live, or turn-based with its days per move. */
function readPace() {
  const days = Number($("#pace").value);
  return days ? { pace: "turn_based", days_per_move: days } : { pace: "live" };
}

async function ensureName(input) {
  const wanted = input.value.trim();
  if (wanted && wanted !== currentUser()?.name) await saveName(wanted);
}

$("#create-form").addEventListener("change", (event) => {
  if (event.target.name === "game") renderGameFields();
  // A turn-based table's clock is its days per move.
  if (event.target.name === "pace") $("#clock").disabled = Boolean($("#pace").value);
});

$("#create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("#create-error");
  const button = $("#create-btn");
  showError(error, null);
  button.disabled = true;
  try {
    await ensureName($("#my-name"));
    const room = await post("/rooms", {
      game: selectedGame(),
      seats: Number($("#seats").value),
      options: readOptions(),
      visibility: $('input[name="visibility"]:checked').value,
      rated: $("#rated").checked,
      clock: readClock(),
      ...readPace(),
    });
    location.assign(`/rooms/${room.id}`);
  } catch (err) {
    showError(error, err instanceof ApiError ? err.message : String(err));
    button.disabled = false;
  }
});

$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("#join-error");
  showError(error, null);
  const code = $("#join-code").value.trim().toUpperCase();
  if (!code) {
    showError(error, t("Type the room code your friend sent you."));
    return;
  }
  try {
    const room = await get(`/rooms/${encodeURIComponent(code)}`);
    location.assign(`/rooms/${room.id}`);
  } catch (err) {
    showError(
      error,
      err.code === "room_not_found"
        ? t("There is no room with the code {code}.", { code })
        : err.message,
    );
  }
});

function roomItem(room) {
  const seated = room.seats.filter((s) => s.name).length;
  // Who sits there, a computer player marked as one.
  const names = room.seats
    .filter((s) => s.name)
    .map((s) => (s.bot ? t("{name} (computer)", { name: s.name }) : s.name));
  const waiting = room.status === "waiting";
  const free = room.seat_count - seated;
  return h(
    "li.room-item",
    { dataset: { room: room.id } },
    h(
      "div.room-item-main",
      {},
      h("strong", {}, room.title),
      h(
        "span.badge",
        { class: waiting ? "open" : "live" },
        waiting ? tn("{n} free seat", "{n} free seats", free) : t("Playing"),
      ),
      room.clock
        ? h(
            "span.badge",
            { title: t("Turn clock") },
            t("{turn} s + {bank} s", { turn: room.clock.turn, bank: room.clock.bank }),
          )
        : null,
      room.pace === "turn_based"
        ? h(
            "span.badge.turn-based",
            { title: t("Turn-based") },
            tn("{n} day a move", "{n} days a move", room.days_per_move),
          )
        : null,
      h("span.small.muted.room-players", {}, names.join(", ")),
    ),
    h(
      "div.row",
      {},
      waiting && free > 0
        ? h("a.btn.small.primary", { href: `/rooms/${room.id}` }, t("Join"))
        : null,
      h("a.btn.small", { href: `/rooms/${room.id}/watch` }, t("Watch")),
    ),
  );
}

async function loadRooms() {
  const list = $("#room-list");
  try {
    const game = $("#room-game").value;
    const rooms = await get(game ? `/rooms?game=${encodeURIComponent(game)}` : "/rooms");
    list.replaceChildren(
      ...(rooms.length
        ? rooms.map(roomItem)
        : [h("li.muted", {}, t("No open tables right now — open one and invite a friend."))]),
    );
  } catch (err) {
    list.replaceChildren(h("li.error", {}, err.message));
  }
}

$("#refresh-rooms").addEventListener("click", loadRooms);
$("#room-game").addEventListener("change", loadRooms);

function init() {
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) {
    const radio = $(`input[name="game"][value="${CSS.escape(wanted)}"]`);
    if (radio) radio.checked = true;
  }
  // The boot data holds every game's facts and options (the same as GET /api/games), so
  // the fields are drawn once: drawing them again later would undo a choice already made.
  renderGameFields();
  loadRooms();
  setInterval(() => {
    if (document.visibilityState === "visible") loadRooms();
  }, 10000);
}

init();
