// big-clocks.js — the big clocks: a strip at the top of the table, kept in view while the
// page scrolls (on a phone too), with a large countdown for each seat the table awaits — its
// name and its clock (clocks.js counts it down). Your own says when your time runs low
// (low-time.js). Nothing when the room has no turn clock.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { clockEl } from "./clocks.js";
import { LOW_TIME_SECONDS } from "./low-time.js";

export function bigClocks(ctx) {
  const clocks = ctx.frame.clocks;
  if (!clocks || ctx.mode !== "live" || ctx.view.over || ctx.room?.status !== "playing") {
    return null;
  }
  const awaited = (ctx.view.to_act || []).filter((seat) => clocks[seat]?.deadline);
  if (!awaited.length) return null;
  return h(
    "div.big-clocks",
    { role: "group", "aria-label": t("Turn clocks") },
    awaited.map((seat) => {
      const mine = seat === ctx.me;
      return h(
        "div.big-clock",
        { dataset: { seat: String(seat) }, class: mine ? "mine" : "" },
        h("span.big-clock-name", {}, mine ? t("Your time") : ctx.name(seat)),
        clockEl(ctx, seat, { big: true, warn: mine }),
        mine
          ? h(
              "span.low-time-note",
              {},
              t("Under {seconds} s: move now!", { seconds: LOW_TIME_SECONDS }),
            )
          : null,
      );
    }),
  );
}
