// announcements.js — what a screen reader hears as the live table changes, and the tab's
// title: the move just made and the server's message for the new position, "Your turn"
// when it becomes yours, and the winners with the final scores when the match ends.

import { announce } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { winnersLine } from "./bar.js";

/**
 * @param {object} ctx the frame now shown
 * @param {object | null} previous the frame shown before it
 * @param {string | null} moveLine the play log's line for this frame
 */
export function announceChanges(ctx, previous, moveLine) {
  if (ctx.mode !== "live") return;
  const { view } = ctx;
  const prev = previous?.view;
  const base = ctx.room?.title || "Parlour";
  if (view.over && !prev?.over) {
    const scores = Array.from(
      { length: ctx.seats },
      (_, s) => `${ctx.name(s)} ${view.scores?.[s] ?? 0}`,
    );
    announce(
      t("Match over. {winners}. Final scores: {scores}.", {
        winners: winnersLine(ctx, view.winners || []),
        scores: scores.join(", "),
      }),
      true,
    );
    document.title = t("Match over · {table}", { table: base });
    return;
  }
  const mineNow = ctx.canAct;
  const minePrev = prev && ctx.me !== null && (prev.to_act || []).includes(ctx.me);
  const newVersion = previous?.version !== ctx.frame.version;
  const lastLine = moveLine ? `${moveLine}. ` : "";
  const message = ctx.words(view.message || "");
  if (mineNow && (!minePrev || prev?.phase !== view.phase || newVersion)) {
    const yourTurn = t("Your turn.");
    announce(`${lastLine}${yourTurn} ${message}`);
  } else if (newVersion) {
    announce(`${lastLine}${message}`);
  }
  document.title = mineNow ? t("● Your turn · {table}", { table: base }) : `${base} · Parlour`;
}
