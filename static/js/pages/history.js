// history.js — your finished (and abandoned) matches and recent public ones, each with its
// result, who played which moves where a computer stood in or the clock played, and a link
// to its move-by-move review.

import { get } from "../lib/api.js";
import { credited, playedBy } from "../lib/credit.js";
import { $, formatDate, h, showError } from "../lib/dom.js";
import { initChrome } from "./common.js";

initChrome();

function matchItem(match) {
  const winners = new Set(match.winners || []);
  const players = (match.seats || []).map((p) => {
    const note = playedBy(p);
    return h(
      "li",
      {
        class: `${winners.has(p.seat) ? "winner" : ""}${credited(p) ? "" : " not-credited"}`,
        dataset: { seat: String(p.seat) },
      },
      h("span", {}, p.name, p.bot ? h("span.badge", {}, "computer") : null),
      h("strong", {}, String(match.scores?.[p.seat] ?? "")),
      winners.has(p.seat) ? h("span.sr-only", {}, " (winner)") : null,
      note ? h("span.played-by.small.muted", {}, `${p.name} — ${note}`) : null,
      credited(p) ? null : h("span.small.muted", {}, `(not counted as ${p.name}'s result)`),
    );
  });
  return h(
    "li.match-item",
    { dataset: { match: match.id } },
    h(
      "div.match-head",
      {},
      h("strong", {}, match.title),
      match.status === "abandoned" ? h("span.badge", {}, "abandoned") : null,
      h("time.small.muted", { datetime: match.finished_at || "" }, formatDate(match.finished_at)),
    ),
    h("ol.match-scores", { "aria-label": "Players and scores" }, players),
    h(
      "a.btn.small",
      { href: `/matches/${match.id}`, "aria-label": `Review this ${match.title} match` },
      "Review",
    ),
  );
}

async function fill(list, path, empty) {
  try {
    const matches = await get(path);
    list.replaceChildren(...(matches.length ? matches.map(matchItem) : [h("li.muted", {}, empty)]));
  } catch (err) {
    list.replaceChildren();
    showError($("#history-error"), err.message);
  }
}

function load() {
  const game = $("#game-filter").value;
  const filter = game ? `&game=${encodeURIComponent(game)}` : "";
  fill($("#mine"), `/matches?user=me&limit=50${filter}`, "You have not finished a match yet.");
  fill($("#recent"), `/matches?limit=30${filter}`, "No finished public matches yet.");
}

$("#game-filter").addEventListener("change", load);
load();
