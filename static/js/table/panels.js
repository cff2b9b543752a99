// panels.js — the side column's panels: the result when the match is over (final scores,
// rating changes of a rated match, the rematch offer of rematch.js, review, new table), the
// last completed trick (for games whose centre does not show it), and "This table" (its
// options, the rules, and a link for spectators).
// The play log's panel is in log.js; a game's own summaries come from its module.

import { h, listWords } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { LEFT_NOTE, signed } from "../lib/matches.js";
import { errorSlot } from "./errors.js";
import { rematchControls } from "./rematch.js";

/** The result; `ratings`: the rating changes of a rated match ([{seat, before, after,
 *  change, left}]), once known; `onRematch(accept)`: a player's word on a rematch (propose
 *  or accept it, or decline it); `userId()`: who is looking. */
export function result(ctx, { onRematch, ratings, userId } = {}) {
  const { view, room } = ctx;
  if (!view.over) return null;
  const winners = view.winners || [];
  // Best first: the highest score, or the lowest where scores count against you (Cups).
  const order = ctx.lowerWins ? 1 : -1;
  const ranking = Array.from({ length: ctx.seats }, (_, s) => s).sort(
    (a, b) => order * ((view.scores?.[a] ?? 0) - (view.scores?.[b] ?? 0)),
  );
  const iWon = winners.includes(ctx.me);
  const buttons = ctx.mode === "live" ? afterTheMatch(ctx, room, onRematch, userId) : [];
  const names = listWords(winners.map((s) => ctx.who(s)));
  let heading = t("Match over");
  if (iWon) {
    heading =
      winners.length === 1
        ? t("You win — well played!")
        : t("{names} win — well played!", { names });
  } else if (winners.length) {
    heading = winners.length === 1 ? t("{names} wins!", { names }) : t("{names} win!", { names });
  }
  return h(
    "section.panel.result",
    { "aria-labelledby": "result-title", class: iWon ? "won" : "" },
    h("h2", { id: "result-title" }, heading),
    h(
      "ol.final-scores",
      {},
      ranking.map((seat) =>
        h(
          "li",
          { class: winners.includes(seat) ? "winner" : "" },
          h("span", {}, ctx.name(seat)),
          h(
            "span",
            {},
            h("strong", { dataset: { final: String(seat) } }, view.scores?.[seat] ?? 0),
            ` ${ctx.unitFor(view.scores?.[seat] ?? 0)}`,
          ),
        ),
      ),
    ),
    ratings?.length ? ratingList(ctx, ratings) : null,
    buttons.length ? h("div.row.wrap", {}, buttons) : null,
    errorSlot("result"),
  );
}

function ratingList(ctx, ratings) {
  return h(
    "div.rating-changes",
    {},
    h("h3", {}, t("Ratings")),
    h(
      "ul",
      {},
      ratings.map((c) =>
        h(
          "li",
          { dataset: { ratingSeat: String(c.seat) }, class: c.change >= 0 ? "up" : "down" },
          h("span", {}, ctx.name(c.seat)),
          // Someone who walked away is rated last, whatever their seat scored.
          c.left ? h("span.small.muted", { dataset: { left: String(c.seat) } }, LEFT_NOTE) : null,
          h("span", {}, `${c.before} → ${c.after}`),
          h("strong", {}, signed(c.change)),
        ),
      ),
    ),
  );
}

function afterTheMatch(ctx, room, onRematch, userId) {
  const buttons = rematchControls(ctx, { answer: onRematch, userId });
  if (room?.match_id) {
    buttons.push(h("a.btn", { href: `/matches/${room.match_id}` }, t("Review the match")));
  }
  buttons.push(h("a.btn.ghost", { href: "/" }, t("New table")));
  return buttons;
}

export function lastTrick(ctx) {
  const info = ctx.view.last_trick;
  if (!info?.cards?.length) return null;
  return h(
    "section.panel.last-trick",
    { "aria-label": t("Last trick") },
    h("h2", {}, t("Last trick")),
    h(
      "div.mini-trick",
      {},
      info.cards.map(({ seat, card }) =>
        h(
          "figure.mini-card",
          { class: seat === info.winner ? "won" : "" },
          ctx.card(card, { className: "small" }),
          h("figcaption", {}, ctx.name(seat)),
        ),
      ),
    ),
    h(
      "p",
      {},
      h("strong", {}, ctx.name(info.winner)),
      tn(" took it for {n} point.", " took it for {n} points.", info.points ?? 0),
    ),
  );
}

/** The table's options, a link to the rules and, live, a link for friends to watch. */
export function about(ctx) {
  const { room } = ctx;
  if (!room) return null;
  // The server words the options ("Points to win: 100"), the same in the lobby and review.
  const options = room.options_text || [];
  const watchUrl = `${location.origin}/rooms/${room.id}/watch`;
  return h(
    "section.panel.table-about",
    { "aria-label": t("About this table") },
    h("h2", {}, t("This table")),
    options.length ? h("p.small", {}, options.join(" · ")) : null,
    h(
      "p.small",
      {},
      h(
        "a",
        { href: `/rules/${room.game}`, target: "_blank", rel: "noopener" },
        t("Rules of {game}", { game: room.title }),
      ),
    ),
    ctx.mode === "live" ? watchLink(room, watchUrl) : null,
  );
}

function watchLink(room, watchUrl) {
  const input = h("input", {
    id: "watch-url",
    readonly: true,
    value: watchUrl,
    onfocus: (e) => e.target.select(),
  });
  const copy = async (event) => {
    const button = event.currentTarget;
    try {
      await navigator.clipboard.writeText(watchUrl);
      button.textContent = t("Copied");
    } catch {
      input.select();
      button.textContent = t("Press Ctrl+C");
    }
  };
  return h(
    "div.small",
    {},
    h("label.label", { for: "watch-url" }, t("Link for spectators")),
    h("div.row", {}, input, h("button.btn.small", { type: "button", onclick: copy }, t("Copy"))),
    room.watchers
      ? h(
          "p.muted",
          {},
          tn("{n} connected to this table", "{n} connected to this table", room.watchers),
        )
      : null,
  );
}
