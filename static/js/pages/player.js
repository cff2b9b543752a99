// player.js — a player's page: each game they played (played, won, rating, average accuracy
// by the computer's analysis), the history of each rating as a chart, and their matches a
// page at a time.

import { get } from "../lib/api.js";
import { lineChart } from "../lib/chart.js";
import { $, boot, formatDate, h, showError } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { matchItem } from "../lib/matches.js";
import { reportForm } from "../talk/report.js";
import { initChrome } from "./common.js";

initChrome();

const username = boot().player;
let cursor = null;

function gameRow(game) {
  return h(
    "tr",
    { dataset: { game: game.game } },
    h("th", { scope: "row" }, h("a", { href: `/leaderboard?game=${game.game}` }, game.title)),
    h("td", {}, String(game.played)),
    h("td", {}, String(game.won)),
    h("td", { dataset: { rating: game.game } }, game.rating === null ? "—" : String(game.rating)),
    h("td", {}, String(game.rated_matches)),
    h(
      "td",
      {
        dataset: { accuracy: game.game },
        title:
          game.accuracy === null
            ? t("No match analysed yet")
            : tn(
                "Average over {n} analysed match",
                "Average over {n} analysed matches",
                game.analysed_matches,
              ),
      },
      game.accuracy === null ? "—" : `${game.accuracy}%`,
    ),
  );
}

function chartOf(game) {
  if (!game.history.length) return null;
  // The first point is where the player started: the rating before their first match.
  const start = game.history[0].before;
  const values = [start, ...game.history.map((point) => point.rating)];
  const label = tn(
    "{game} rating: from {start} to {rating} over {n} rated match.",
    "{game} rating: from {start} to {rating} over {n} rated matches.",
    game.history.length,
    { game: game.title, start, rating: game.rating },
  );
  return h(
    "figure.rating-figure",
    { dataset: { chart: game.game } },
    lineChart(values, label),
    h("figcaption", {}, `${game.title}: ${game.rating}`),
  );
}

function showMatches(matches, first) {
  const list = $("#player-matches");
  const items = matches.map(matchItem);
  if (first)
    list.replaceChildren(...(items.length ? items : [h("li.muted", {}, t("No matches to show."))]));
  else list.append(...items);
  $("#player-more").hidden = !cursor;
}

async function more() {
  try {
    const params = new URLSearchParams({ player: username, limit: "20", cursor });
    const page = await get(`/matches?${params}`);
    cursor = page.next_cursor;
    showMatches(page.matches, false);
  } catch (err) {
    showError($("#player-error"), err.message);
  }
}

async function init() {
  try {
    const player = await get(`/players/${encodeURIComponent(username)}`);
    $("#player-name").textContent = player.username;
    document.title = `${player.username} · Parlour`;
    $("#player-joined").textContent = t("Playing since {date}", {
      date: formatDate(player.joined),
    });
    $("#player-games").tBodies[0].replaceChildren(...player.games.map(gameRow));
    $("#player-games-panel").hidden = !player.games.length;
    const charts = player.games.map(chartOf).filter(Boolean);
    $("#player-charts").replaceChildren(...charts);
    $("#player-charts-panel").hidden = !charts.length;
    cursor = player.next_cursor;
    showMatches(player.matches, true);
  } catch (err) {
    $("#player-matches").replaceChildren();
    showError($("#player-error"), err.message);
  } finally {
    $("#player").setAttribute("aria-busy", "false");
  }
}

$("#player-more").addEventListener("click", more);
$("#player-report")?.append(reportForm({ username }));
init();
