// generic.js — a plain table for a game without its own module: the view's message,
// the hand, and every legal action as a button labelled from its fields. It keeps any
// game playable (the server decides everything) until a dedicated module exists.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { trickEl } from "./pieces.js";

function label(action, ctx) {
  const parts = [action.type];
  for (const [key, value] of Object.entries(action)) {
    if (key === "type") continue;
    if (key === "card" && typeof value === "string") parts.push(ctx.cardName(value));
    else parts.push(`${key} ${Array.isArray(value) ? value.join(" ") : JSON.stringify(value)}`);
  }
  return parts.join(" · ");
}

export const genericGame = {
  center(ctx) {
    const v = ctx.view;
    if (v.trick?.length) return trickEl(ctx, v.trick, { label: t("Trick in progress") });
    if (v.last_trick?.cards?.length) {
      return trickEl(ctx, v.last_trick.cards, {
        winner: v.last_trick.winner,
        label: t("Completed trick"),
      });
    }
    return null;
  },
  actions(ctx) {
    const others = ctx.legal.filter((a) => !(a.type === "play" && typeof a.card === "string"));
    if (!others.length) return null;
    return others.slice(0, 40).map((action, i) =>
      h(
        "button.btn",
        {
          type: "button",
          "data-key": `act:${i}`,
          dataset: { help: action.type },
          onclick: () => ctx.act(action, "actions"),
        },
        label(action, ctx),
      ),
    );
  },
};
