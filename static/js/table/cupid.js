// cupid.js — Cupid's part of the table (docs/rules/cupid.md): the stock and the turn-up
// (clickable when the server offers a draw), the face-down prize trick, the trick in
// progress or just completed, round and trick counters, and round summaries. The four
// character cards carry their Cupid names on their faces.

import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { completedTrick, pileEl, trickAccount, trickEl } from "./pieces.js";

const TITLES = { QD: t("Anima"), JC: t("Monster"), KH: t("Cupid"), JK: t("Zephyr") };
const points = (n) => tn("{n} point", "{n} points", n);
const cards = (n) => tn("{n} card", "{n} cards", n);

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
      [t("Round"), String(v.round ?? 1)],
      [
        t("Trick"),
        t("{number} of {count}", {
          number: Math.min(v.trick_number ?? 1, v.tricks_per_round ?? 11),
          count: v.tricks_per_round ?? 11,
        }),
      ],
      [t("Target"), String(v.target ?? "")],
    ];
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    const tricks = tn("{n} trick", "{n} tricks", v.tricks_taken?.[seat] ?? 0);
    return h(
      "span.extra",
      {},
      t("{points} this round · {tricks}", { points: points(v.round_points?.[seat] ?? 0), tricks }),
    );
  },

  center(ctx) {
    const v = ctx.view;
    const stockAction = ctx.canAct ? drawAction(ctx, "stock") : null;
    const turnAction = ctx.canAct ? drawAction(ctx, "turnup") : null;
    const piles = h(
      "div.piles",
      {},
      pileEl(t("Stock"), v.stock_size ?? 0, {
        key: "stock",
        label: stockAction
          ? tn(
              "Take the stock's top card ({n} card left)",
              "Take the stock's top card ({n} cards left)",
              v.stock_size ?? 0,
            )
          : t("Stock: {cards}", { cards: cards(v.stock_size ?? 0) }),
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
              h("span.pile-label", {}, t("Turn-up")),
              h("span.sr-only", {}, t(": take the {card}", { card: ctx.cardName(v.turnup) })),
            )
          : h(
              "div.pile.turnup",
              {
                role: "group",
                "aria-label": t("Turn-up: {card}", { card: ctx.cardName(v.turnup) }),
              },
              ctx.card(v.turnup),
              h("span.pile-label", {}, t("Turn-up")),
            )
        : null,
      v.prize_size
        ? pileEl(t("Prize"), v.prize_size, {
            key: "prize",
            label: tn(
              "Prize trick: {n} card face down, won with the last trick",
              "Prize trick: {n} cards face down, won with the last trick",
              v.prize_size,
            ),
          })
        : null,
    );
    let trick;
    const done = completedTrick(ctx);
    if (v.trick?.length) {
      trick = trickEl(ctx, v.trick, { label: t("Trick in progress") });
    } else if (done) {
      trick = trickEl(ctx, done.cards, {
        winner: done.winner,
        label: done.ofPastDeal
          ? t("Last trick of round {number}", { number: (v.round ?? 2) - 1 })
          : t("Completed trick"),
        caption:
          trickAccount(ctx) ||
          t("{name} took the trick: {points}", {
            name: ctx.name(done.winner),
            points: points(done.points ?? 0),
          }),
        pastDeal: done.ofPastDeal,
      });
    } else {
      trick = h("div.trick.empty", {}, h("p.muted", {}, t("The trick will appear here.")));
    }
    const prize = v.prize_trick
      ? h(
          "p.callout",
          {},
          t("Prize trick: {name} scored {points}.", {
            name: ctx.name(v.prize_trick.winner),
            points: points(v.prize_trick.points),
          }),
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
            t("Take the stock's top card"),
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
            t("Take the turn-up ({card})", { card: ctx.cardName(ctx.view.turnup) }),
          )
        : null,
    ];
  },

  blockedReason(ctx) {
    if (ctx.legal.some((a) => a.type === "draw")) {
      return t("First take the stock's top card or the turn-up.");
    }
    return null;
  },

  summary(ctx) {
    const prev = ctx.view.previous_round;
    if (!prev) return null;
    return h(
      "section.panel.summary",
      { "aria-label": t("Round {number} summary", { number: prev.round }) },
      h("h2", {}, t("Round {number} result", { number: prev.round })),
      h(
        "ul.summary-list",
        {},
        prev.points.map((score, seat) =>
          h("li", {}, h("span", {}, ctx.name(seat)), h("strong", {}, points(score))),
        ),
      ),
      h(
        "p.small.muted",
        {},
        t("{name} took the last trick; the prize trick was worth {points}.", {
          name: ctx.name(prev.last_trick_winner),
          points: points(prev.prize_points),
        }),
      ),
    );
  },
};
