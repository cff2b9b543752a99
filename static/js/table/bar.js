// bar.js — what the table says at a glance: the top bar (the table's title, "Watching" or
// the room code, the game's facts as chips, everyone's score) and the turn banner under it
// (whose turn and why, in the server's own words, or who won).

import { h, listWords } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** "Ann wins", "You win", "Ann and Bob win" */
export function winnersLine(ctx, winners) {
  if (winners.length === 1 && winners[0] === ctx.me) return t("You win");
  const names = listWords(winners.map((s) => ctx.who(s)));
  return winners.length === 1 ? t("{names} wins", { names }) : t("{names} win", { names });
}

/** @param {string} title the table's title when the room has none (a review)
 *  @param {(() => void) | undefined} onRules opens the game's rules in short (live tables)
 *  @param {HTMLElement[]} tools the table's own switches and buttons, after "Rules" */
export function bar(ctx, info, title, onRules, tools = []) {
  const { view, room } = ctx;
  const live = ctx.mode === "live";
  return h(
    "header.table-bar",
    {},
    h(
      "div.table-title",
      {},
      h("h1", {}, room?.title || title),
      live && ctx.me === null ? h("span.badge.watching", {}, t("Watching")) : null,
      live && room?.code ? h("span.badge.room-code", { title: t("Room code") }, room.code) : null,
      onRules
        ? h(
            "button.btn.small.ghost.rules-button",
            { type: "button", "data-key": "rules", onclick: () => onRules() },
            t("Rules"),
          )
        : null,
      tools,
    ),
    h(
      "ul.info-chips",
      // On a phone the chips scroll sideways: reachable by keyboard too.
      { "aria-label": t("Match"), tabindex: "0" },
      info.map(([label, value]) =>
        h("li.chip", {}, h("span.chip-label", {}, label), " ", h("strong", {}, value)),
      ),
    ),
    h(
      "ol.scoreboard",
      { "aria-label": t("Scores") },
      Array.from({ length: ctx.seats }, (_, seat) =>
        h(
          "li.score",
          {
            class: [
              (view.to_act || []).includes(seat) ? "to-act" : "",
              (view.winners || []).includes(seat) ? "winner" : "",
              seat === ctx.me ? "mine" : "",
            ].join(" "),
            dataset: { seat: String(seat) },
          },
          h("span.score-name", {}, ctx.name(seat)),
          h("strong.score-value", { dataset: { score: String(seat) } }, view.scores?.[seat] ?? 0),
        ),
      ),
    ),
  );
}

export function turnBanner(ctx) {
  const { view } = ctx;
  const toAct = view.to_act || [];
  let headline = "";
  if (ctx.room?.status === "abandoned") {
    headline =
      ctx.room.closed_by === "moderator"
        ? t("A moderator closed this table: the match was stopped")
        : t("This match was abandoned: nobody stayed at the table");
  } else if (view.over) {
    const winners = view.winners || [];
    headline = winners.length ? `${winnersLine(ctx, winners)}!` : t("The match is over");
  } else if (ctx.me !== null && toAct.includes(ctx.me)) {
    headline = toAct.length > 1 ? t("Your move (everyone chooses at once)") : t("Your turn");
  } else if (toAct.length) {
    headline = t("Waiting for {names}", { names: listWords(toAct.map((s) => ctx.name(s))) });
  }
  let state = "";
  if (ctx.canAct) state = "mine";
  else if (view.over || ctx.room?.status === "abandoned") state = "over";
  return h(
    "div.turn-banner",
    { class: state },
    h("strong.turn-headline", {}, headline),
    view.message ? h("span.turn-message", {}, ctx.words(view.message)) : null,
  );
}
