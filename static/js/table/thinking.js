// thinking.js — the sign that a computer is thinking: while a live table awaits a seat that a
// computer plays (one the host chose, or one standing in for a person), its plate says
// "thinking…" until the computer moves. Drawn with each frame, so it goes when the move comes.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** Whether `seat` is a computer the live table is waiting for now. */
export function isThinking(ctx, seat) {
  const holder = ctx.room?.seats?.[seat];
  return (
    ctx.mode === "live" &&
    Boolean(holder?.bot) &&
    ctx.room?.status === "playing" &&
    !ctx.view.over &&
    (ctx.view.to_act || []).includes(seat)
  );
}

/** The sign on a computer's plate while it thinks (or nothing). The plate's own label says
 *  "thinking" for screen readers; the dots are only a picture of it. */
export function thinkingSign(ctx, seat) {
  if (!isThinking(ctx, seat)) return null;
  return h(
    "span.thinking",
    { dataset: { seat: String(seat) } },
    t("thinking"),
    h("span.thinking-dots", { "aria-hidden": "true" }, h("i"), h("i"), h("i")),
  );
}
