// tables.js — "Your tables": the visitor's unfinished tables (GET /api/me/tables), those
// awaiting their move first, with the game, the opponents, whose turn it is and the
// deadline. Each row links to its table.

import { get } from "../lib/api.js";
import { $, gameFacts, h, listWords, showError } from "../lib/dom.js";
import { date, t } from "../lib/i18n.js";
import { initChrome } from "./common.js";

initChrome();

function opponents(table) {
  const others = table.seats.filter((seat) => !seat.you && seat.name);
  return others.length ? listWords(others.map((seat) => seat.name)) : t("Nobody yet");
}

function whoseTurn(table) {
  if (table.status === "waiting") return t("Not started");
  if (table.your_turn) return t("Yours");
  const names = table.to_act.map((seat) => table.seats[seat]?.name).filter(Boolean);
  return names.length ? listWords(names) : "—";
}

function deadline(table) {
  if (!table.deadline) return table.pace === "turn_based" ? "—" : t("Live");
  return date(new Date(table.deadline), { dateStyle: "medium", timeStyle: "short" });
}

function row(table) {
  const title = gameFacts(table.game)?.title || table.game;
  return h(
    "tr",
    { dataset: { room: table.room_id, yourTurn: String(table.your_turn) } },
    h("th", { scope: "row" }, h("a", { href: `/rooms/${table.room_id}` }, title)),
    h("td", {}, opponents(table)),
    h("td", {}, whoseTurn(table)),
    h("td", {}, deadline(table)),
  );
}

async function load() {
  const body = $("#tables").tBodies[0];
  try {
    const { tables } = await get("/me/tables");
    body.replaceChildren(
      ...(tables.length
        ? tables.map(row)
        : [h("tr", {}, h("td.muted", { colspan: 4 }, t("You sit at no table now.")))]),
    );
  } catch (err) {
    body.replaceChildren();
    if (err.code === "no_session") {
      body.append(h("tr", {}, h("td.muted", { colspan: 4 }, t("You sit at no table now."))));
      return;
    }
    showError($("#tables-error"), err.message);
  }
}

load();
