// coins.js — Coins' part of the table (docs/rules/coins.md): the trick in progress or
// just completed, the suit cycle as a legend, hand and trick counters, each player's
// Coins this hand, and hand summaries. Cards are the Spanish 48-card pack.

import { suitIcon } from "../lib/cards.js";
import { h, plural } from "../lib/dom.js";
import { trickEl } from "./pieces.js";

const SUIT_LETTER = { cups: "C", coins: "O", swords: "S", clubs: "B" };

export default {
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
      { title: "This hand: Coins won and tricks taken" },
      `hand ${v.hand_points?.[seat] ?? 0} · ${plural(v.tricks_taken?.[seat] ?? 0, "trick")}`,
    );
  },

  center(ctx) {
    const v = ctx.view;
    let trick;
    if (v.trick?.length) {
      trick = trickEl(ctx, v.trick, { label: "Trick in progress" });
    } else if (v.last_trick?.cards?.length) {
      const lt = v.last_trick;
      trick = trickEl(ctx, lt.cards, {
        winner: lt.winner,
        label: "Completed trick",
        caption: `${ctx.name(lt.winner)} took the trick: ${plural(lt.points ?? 0, "Coin")}`,
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
    return h("div.coins-center", {}, trick, legend);
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

  describeLast(last, ctx) {
    if (last.type === "play") {
      const who = ctx.name(last.seat);
      return last.card ? `${who} played the ${ctx.cardName(last.card)}` : `${who} played a card`;
    }
    return null;
  },
};
