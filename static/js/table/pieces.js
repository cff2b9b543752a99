// pieces.js — drawing pieces the game modules share: a trick (each card labelled with who
// played it, marked so that the animation flies it in from that player) and a face-down
// pile with its count (the stock, a dump, a discard pile), clickable when the server offers
// an action on it.

import { backsEl } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";

/** The cards of a trick, each labelled with who played it, placed for animation. */
export function trickEl(
  ctx,
  cards,
  { winner = null, label = t("Trick"), caption = null, pastDeal = false } = {},
) {
  return h(
    "div.trick",
    // A past deal's trick names cards dealt again since (docs/client.md, "Tests").
    { role: "group", "aria-label": label, dataset: pastDeal ? { pastDeal: "" } : {} },
    cards.map(({ seat, card }) =>
      h(
        "figure.trick-card",
        { dataset: { fromSeat: String(seat) }, class: seat === winner ? "won" : "" },
        ctx.card(card),
        h(
          "figcaption",
          {},
          ctx.name(seat),
          seat === winner ? h("span.crown", {}, t(" ★ won")) : null,
        ),
      ),
    ),
    caption ? h("p.trick-caption", {}, caption) : null,
  );
}

/**
 * The trick just completed, or null: the view's last trick, or — when the move that
 * completed it also ended the deal, so the view already holds the next one — the trick the
 * server's account of that move carries. Either stays until the next card is played.
 * `ofPastDeal` says which.
 */
export function completedTrick(ctx) {
  const v = ctx.view;
  if (v.trick?.length) return null;
  if (v.last_trick?.cards?.length) return { ...v.last_trick, ofPastDeal: false };
  const trick = ctx.frame.event?.trick;
  return trick?.cards?.length ? { ...trick, ofPastDeal: true } : null;
}

/** The server's account of the move just made, when it completed this trick. */
export function trickAccount(ctx) {
  const event = ctx.frame.event;
  return event?.trick && event.text ? ctx.words(event.text) : null;
}

/** A face-down pile with its count: the stock, a dump, a discard pile. */
export function pileEl(name, count, { label, onclick, key } = {}) {
  const text =
    label || t("{pile}: {cards}", { pile: name, cards: tn("{n} card", "{n} cards", count) });
  const inner =
    count > 0
      ? backsEl(Math.min(count, 3), { max: 3, label: text })
      : h("span.empty-pile", {}, t("empty"));
  const attrs = { dataset: { pile: key || name }, "aria-label": text };
  const caption = h("span.pile-label", {}, name, h("span.pile-count", {}, ` ${count}`));
  if (onclick) {
    // A button's name starts with what it shows ("Stock 9"), so that a person who reads
    // the screen and one who listens to it (or speaks to it) call it by the same words.
    const shown = `${name} ${count}`;
    const named = text.startsWith(shown)
      ? text
      : `${shown}: ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
    return h(
      "button.pile.clickable",
      {
        type: "button",
        ...attrs,
        "aria-label": named,
        "data-key": `pile:${key || name}`,
        onclick,
      },
      inner,
      caption,
    );
  }
  return h("div.pile", { role: "group", ...attrs }, inner, caption);
}
