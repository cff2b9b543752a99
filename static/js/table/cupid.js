// cupid.js — Cupid's part of the table (docs/rules/cupid.md): the stock and the turn-up
// (clickable when the server offers a draw), the face-down prize trick, the trick in
// progress or just completed, round and trick counters, and round summaries. The four
// character cards carry their Cupid names on their faces.

import { h, plural } from "../lib/dom.js";
import { completedTrick, pileEl, trickAccount, trickEl } from "./pieces.js";

const TITLES = { QD: "Anima", JC: "Monster", KH: "Cupid", JK: "Zephyr" };

function drawAction(ctx, source) {
  return ctx.legal.find((a) => a.type === "draw" && a.source === source) || null;
}

export default {
  art: "KH", // the card that pictures the game on the home page, in its own pack
  showsLastTrick: true, // the centre shows the completed trick with its winner and points
  titles: TITLES,

  info(ctx) {
    const v = ctx.view;
    return [
      ["Round", String(v.round ?? 1)],
      [
        "Trick",
        `${Math.min(v.trick_number ?? 1, v.tricks_per_round ?? 11)} of ${v.tricks_per_round ?? 11}`,
      ],
      ["Target", String(v.target ?? "")],
    ];
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    return h(
      "span.extra",
      {},
      `${plural(v.round_points?.[seat] ?? 0, "point")} this round · ${plural(v.tricks_taken?.[seat] ?? 0, "trick")}`,
    );
  },

  center(ctx) {
    const v = ctx.view;
    const stockAction = ctx.canAct ? drawAction(ctx, "stock") : null;
    const turnAction = ctx.canAct ? drawAction(ctx, "turnup") : null;
    const piles = h(
      "div.piles",
      {},
      pileEl("Stock", v.stock_size ?? 0, {
        key: "stock",
        label: stockAction
          ? `Take the stock's top card (${plural(v.stock_size ?? 0, "card")} left)`
          : `Stock: ${plural(v.stock_size ?? 0, "card")}`,
        onclick: stockAction ? () => ctx.act(stockAction, "center") : null,
      }),
      v.turnup
        ? turnAction
          ? h(
              "button.pile.clickable.turnup",
              {
                type: "button",
                "data-key": "pile:turnup",
                onclick: () => ctx.act(turnAction, "center"),
              },
              // Named by its content, starting with what it shows: "Turn-up", then what it
              // does. The card's drawing (its corners) is left out of the name.
              h("span", { "aria-hidden": "true" }, ctx.card(v.turnup)),
              h("span.pile-label", {}, "Turn-up"),
              h("span.sr-only", {}, `: take the ${ctx.cardName(v.turnup)}`),
            )
          : h(
              "div.pile.turnup",
              { role: "group", "aria-label": `Turn-up: ${ctx.cardName(v.turnup)}` },
              ctx.card(v.turnup),
              h("span.pile-label", {}, "Turn-up"),
            )
        : null,
      v.prize_size
        ? pileEl("Prize", v.prize_size, {
            key: "prize",
            label: `Prize trick: ${plural(v.prize_size, "card")} face down, won with the last trick`,
          })
        : null,
    );
    let trick;
    const done = completedTrick(ctx);
    if (v.trick?.length) {
      trick = trickEl(ctx, v.trick, { label: "Trick in progress" });
    } else if (done) {
      trick = trickEl(ctx, done.cards, {
        winner: done.winner,
        label: done.ofPastDeal ? `Last trick of round ${(v.round ?? 2) - 1}` : "Completed trick",
        caption:
          trickAccount(ctx) ||
          `${ctx.name(done.winner)} took the trick: ${plural(done.points ?? 0, "point")}`,
        pastDeal: done.ofPastDeal,
      });
    } else {
      trick = h("div.trick.empty", {}, h("p.muted", {}, "The trick will appear here."));
    }
    const prize = v.prize_trick
      ? h(
          "p.callout",
          {},
          `Prize trick: ${ctx.name(v.prize_trick.winner)} scored ${plural(v.prize_trick.points, "point")}.`,
        )
      : null;
    return h("div.cupid-center", {}, trick, piles, prize);
  },

  actions(ctx) {
    const stock = ctx.canAct ? drawAction(ctx, "stock") : null;
    const turn = ctx.canAct ? drawAction(ctx, "turnup") : null;
    if (!stock && !turn) return null;
    return [
      stock
        ? h(
            "button.btn.primary",
            {
              type: "button",
              "data-key": "act:draw-stock",
              dataset: { help: "draw" },
              onclick: () => ctx.act(stock, "actions"),
            },
            "Take the stock's top card",
          )
        : null,
      turn
        ? h(
            "button.btn.primary",
            {
              type: "button",
              "data-key": "act:draw-turnup",
              dataset: { help: "draw" },
              onclick: () => ctx.act(turn, "actions"),
            },
            `Take the turn-up (${ctx.cardName(ctx.view.turnup)})`,
          )
        : null,
    ];
  },

  blockedReason(ctx) {
    if (ctx.legal.some((a) => a.type === "draw")) {
      return "First take the stock's top card or the turn-up.";
    }
    return null;
  },

  summary(ctx) {
    const prev = ctx.view.previous_round;
    if (!prev) return null;
    return h(
      "section.panel.summary",
      { "aria-label": `Round ${prev.round} summary` },
      h("h2", {}, `Round ${prev.round} result`),
      h(
        "ul.summary-list",
        {},
        prev.points.map((points, seat) =>
          h("li", {}, h("span", {}, ctx.name(seat)), h("strong", {}, plural(points, "point"))),
        ),
      ),
      h(
        "p.small.muted",
        {},
        `${ctx.name(prev.last_trick_winner)} took the last trick; the prize trick was worth ${plural(prev.prize_points, "point")}.`,
      ),
    );
  },
};
