// matches.js — one finished (or abandoned) match as a list item, shared by the history and
// player pages: the game and when, each player (a link to their page for accounts) with
// their score, the winners, who played which moves where a computer stood in or the clock
// played, the rating changes of a rated match (marking a player who left, rated last), and
// links to the review and the downloads (the JSON record and the text transcript).

import { credited, playedBy } from "./credit.js";
import { formatDate, h } from "./dom.js";
import { t } from "./i18n.js";

/** "+12", "−8", "±0": a rating change as people write it. */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return "±0";
}

function playerName(player) {
  const name = h("span", {}, player.name);
  if (player.bot) return [name, h("span.badge", {}, t("computer"))];
  if (player.username) {
    return h("a", { href: `/players/${encodeURIComponent(player.username)}` }, player.name);
  }
  return name;
}

/** Why a player's rating changed as it did, when it was not by their seat's result. */
export const LEFT_NOTE = t("left the table: rated last");

function ratingChange(change) {
  if (!change) return null;
  return [
    h(
      "span.rating-change",
      {
        class: change.change >= 0 ? "up" : "down",
        dataset: { ratingSeat: String(change.seat) },
        title: t("Rating {before} → {after}", { before: change.before, after: change.after }),
      },
      `${change.after} (${signed(change.change)})`,
    ),
    // A rated match stays rated when someone walks away: they are rated last.
    change.left
      ? h("span.small.muted", { dataset: { left: String(change.seat) } }, `(${LEFT_NOTE})`)
      : null,
  ];
}

export function matchItem(match) {
  const winners = new Set(match.winners || []);
  const changes = new Map((match.ratings || []).map((c) => [c.seat, c]));
  const players = (match.seats || []).map((p) => {
    const note = playedBy(p);
    return h(
      "li",
      {
        class: `${winners.has(p.seat) ? "winner" : ""}${credited(p) ? "" : " not-credited"}`,
        dataset: { seat: String(p.seat) },
      },
      h("span", {}, playerName(p)),
      h("strong", {}, String(match.scores?.[p.seat] ?? "")),
      winners.has(p.seat) ? h("span.sr-only", {}, t(" (winner)")) : null,
      ratingChange(changes.get(p.seat)),
      note ? h("span.played-by.small.muted", {}, `${p.name} — ${note}`) : null,
      credited(p)
        ? null
        : h("span.small.muted", {}, t("(not counted as {name}'s result)", { name: p.name })),
    );
  });
  const base = `/api/matches/${match.id}`;
  return h(
    "li.match-item",
    { dataset: { match: match.id } },
    h(
      "div.match-head",
      {},
      h("strong", {}, match.title),
      match.status === "abandoned" ? h("span.badge", {}, t("abandoned")) : null,
      match.rated ? h("span.badge.rated", {}, t("rated")) : null,
      h("time.small.muted", { datetime: match.finished_at || "" }, formatDate(match.finished_at)),
    ),
    h("ol.match-scores", { "aria-label": t("Players and scores") }, players),
    h(
      "div.row.wrap.match-links",
      {},
      h(
        "a.btn.small",
        {
          href: `/matches/${match.id}`,
          "aria-label": t("Review this {game} match", { game: match.title }),
        },
        t("Review"),
      ),
      h("a.small", { href: `${base}/record.json`, download: "" }, t("Record (JSON)")),
      h("a.small", { href: `${base}/transcript.txt`, download: "" }, t("Transcript")),
    ),
  );
}
