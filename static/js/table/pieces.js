// pieces.js — drawing pieces the game modules share: a trick (each card labelled with who
// played it, marked so that the animation flies it in from that player) and a face-down
// pile with its count (the stock, a dump, a discard pile), clickable when the server offers
// an action on it.

import { backsEl } from "../lib/cards.js";
import { h, plural } from "../lib/dom.js";

/** The cards of a trick, each labelled with who played it, placed for animation. */
export function trickEl(ctx, cards, { winner = null, label = "Trick", caption = null } = {}) {
  return h(
    "div.trick",
    { role: "group", "aria-label": label },
    cards.map(({ seat, card }) =>
      h(
        "figure.trick-card",
        { dataset: { fromSeat: String(seat) }, class: seat === winner ? "won" : "" },
        ctx.card(card),
        h(
          "figcaption",
          {},
          ctx.name(seat),
          seat === winner ? h("span.crown", { "aria-label": "won" }, " ★") : null,
        ),
      ),
    ),
    caption ? h("p.trick-caption", {}, caption) : null,
  );
}

/** A face-down pile with its count: the stock, a dump, a discard pile. */
export function pileEl(name, count, { label, onclick, key } = {}) {
  const text = label || `${name}: ${plural(count, "card")}`;
  const inner =
    count > 0
      ? backsEl(Math.min(count, 3), { max: 3, label: text })
      : h("span.empty-pile", {}, "empty");
  const attrs = { dataset: { pile: key || name }, "aria-label": text };
  const caption = h("span.pile-label", {}, name, h("span.pile-count", {}, ` ${count}`));
  if (onclick) {
    return h(
      "button.pile.clickable",
      { type: "button", ...attrs, "data-key": `pile:${key || name}`, onclick },
      inner,
      caption,
    );
  }
  return h("div.pile", { role: "group", ...attrs }, inner, caption);
}
