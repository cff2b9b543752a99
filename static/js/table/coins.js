// coins.js — Coins' part of the table (docs/rules/coins.md): the trick in progress or
// just completed, the suit cycle as a legend, hand and trick counters, each player's
// Coins this hand, and hand summaries. Cards are the Spanish 48-card pack.

import { suitIcon } from "../lib/cards.js";
import { h, plural } from "../lib/dom.js";
import { completedTrick, trickAccount, trickEl } from "./pieces.js";

const SUIT_LETTER = { cups: "C", coins: "O", swords: "S", clubs: "B" };

export default {
  art: "AO", // the card that pictures the game on the home page, in its own pack
  showsLastTrick: true, // the centre shows the completed trick with its winner and points

  info(ctx) {
    const v = ctx.view;
    return [
      ["Hand", String(v.hand_number ?? 1)],
      [
        "Trick",
        `${Math.min(v.trick_number ?? 1, v.tricks_per_hand ?? 16)} of ${v.tricks_per_hand ?? 16}`,
      ],
      ["Target", String(v.target ?? "")],
    ];
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    return h(
      "span.extra",
      {},
      `${plural(v.hand_points?.[seat] ?? 0, "Coin")} this hand · ${plural(v.tricks_taken?.[seat] ?? 0, "trick")}`,
    );
  },

  center(ctx) {
    const v = ctx.view;
    let trick;
    const done = completedTrick(ctx);
    if (v.trick?.length) {
      trick = trickEl(ctx, v.trick, { label: "Trick in progress" });
    } else if (done) {
      trick = trickEl(ctx, done.cards, {
        winner: done.winner,
        label: done.ofPastDeal
          ? `Last trick of hand ${(v.hand_number ?? 2) - 1}`
          : "Completed trick",
        caption:
          trickAccount(ctx) ||
          `${ctx.name(done.winner)} took the trick: ${plural(done.points ?? 0, "Coin")}`,
        pastDeal: done.ofPastDeal,
      });
    } else {
      trick = h("div.trick.empty", {}, h("p.muted", {}, "The trick will appear here."));
    }
    const cycle = v.suit_cycle || ["cups", "coins", "swords", "clubs"];
    const legend = h(
      "p.suit-cycle",
      { "aria-label": `Suit cycle: ${cycle.map((s) => s).join(" beat ")} beat ${cycle[0]}` },
      [...cycle, cycle[0]].flatMap((suit, i) => [
        i ? h("span.arrow", { "aria-hidden": "true" }, "›") : null,
        h(
          "span.cycle-suit",
          {},
          suitIcon(ctx.pack, SUIT_LETTER[suit], suit),
          h("span.cycle-name", {}, suit),
        ),
      ]),
    );
    const key = h(
      "details.cycle-key",
      {},
      h("summary", {}, "Who takes a trick?"),
      h(
        "p",
        {},
        "“›” means “beats”. Three suits in a trick: the suit the missing one beats takes it. " +
          "Two of one suit: the higher of the pair. One suit: the highest.",
      ),
    );
    return h("div.coins-center", {}, trick, legend, key);
  },

  summary(ctx) {
    const prev = ctx.view.previous_hand;
    if (!prev) return null;
    return h(
      "section.panel.summary",
      { "aria-label": `Hand ${prev.hand} summary` },
      h("h2", {}, `Hand ${prev.hand} result`),
      h(
        "ul.summary-list",
        {},
        prev.points.map((points, seat) =>
          h("li", {}, h("span", {}, ctx.name(seat)), h("strong", {}, plural(points, "Coin"))),
        ),
      ),
      h("p.small.muted", {}, `${ctx.name(prev.last_trick_winner)} took the last trick.`),
    );
  },
};
