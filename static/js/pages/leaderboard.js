// leaderboard.js — the best rated players of one game (GET /api/leaderboard), chosen with
// the select or ?game= in the address.

import { get } from "../lib/api.js";
import { $, h, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { initChrome } from "./common.js";

initChrome();

function row(player) {
  return h(
    "tr",
    { dataset: { player: player.username } },
    h("td", {}, String(player.rank)),
    h(
      "th",
      { scope: "row" },
      h("a", { href: `/players/${encodeURIComponent(player.username)}` }, player.username),
    ),
    h("td", { dataset: { rating: player.username } }, String(player.rating)),
    h("td", {}, String(player.matches)),
  );
}

async function load() {
  const game = $("#board-game").value;
  const body = $("#board").tBodies[0];
  showError($("#board-error"), null);
  history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}`);
  try {
    const board = await get(`/leaderboard?game=${encodeURIComponent(game)}`);
    $("#board-title").textContent = t("Best {game} players", { game: board.title });
    body.replaceChildren(
      ...(board.players.length
        ? board.players.map(row)
        : [h("tr", {}, h("td.muted", { colspan: 4 }, t("Nobody has played a rated match yet.")))]),
    );
  } catch (err) {
    body.replaceChildren();
    showError($("#board-error"), err.message);
  }
}

const wanted = new URLSearchParams(location.search).get("game");
if (wanted && [...$("#board-game").options].some((o) => o.value === wanted)) {
  $("#board-game").value = wanted;
}
$("#board-game").addEventListener("change", load);
load();
