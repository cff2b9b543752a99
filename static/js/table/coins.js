// coins.js — Coins' part of the table (docs/rules/coins.md): the trick in progress or
// just completed, the suit cycle as a legend, hand and trick counters, each player's
// Coins this hand, and hand summaries. Cards are the Spanish 48-card pack.

import { PACKS, suitIcon } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { completedTrick, trickAccount, trickEl } from "./pieces.js";

const SUIT_LETTER = { cups: "C", coins: "O", swords: "S", clubs: "B" };
// A suit of the cycle (the server's word for it) as the page's language names it.
const suitName = (suit) => PACKS.spanish.suits[SUIT_LETTER[suit]] || suit;
const coins = (n) => tn("{n} Coin", "{n} Coins", n);

export default {
  art: "AO", // the card that pictures the game on the home page, in its own pack
  showsLastTrick: true, // the centre shows the completed trick with its winner and points

  info(ctx) {
    const v = ctx.view;
    return [
      [t("Hand"), String(v.hand_number ?? 1)],
      [
        t("Trick"),
        t("{number} of {count}", {
          number: Math.min(v.trick_number ?? 1, v.tricks_per_hand ?? 16),
          count: v.tricks_per_hand ?? 16,
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
      t("{coins} this hand · {tricks}", { coins: coins(v.hand_points?.[seat] ?? 0), tricks }),
    );
  },

  center(ctx) {
    const v = ctx.view;
    let trick;
    const done = completedTrick(ctx);
    if (v.trick?.length) {
      trick = trickEl(ctx, v.trick, { label: t("Trick in progress") });
    } else if (done) {
      trick = trickEl(ctx, done.cards, {
        winner: done.winner,
        label: done.ofPastDeal
          ? t("Last trick of hand {number}", { number: (v.hand_number ?? 2) - 1 })
          : t("Completed trick"),
        caption:
          trickAccount(ctx) ||
          t("{name} took the trick: {points}", {
            name: ctx.name(done.winner),
            points: coins(done.points ?? 0),
          }),
        pastDeal: done.ofPastDeal,
      });
    } else {
      trick = h("div.trick.empty", {}, h("p.muted", {}, t("The trick will appear here.")));
    }
    const cycle = v.suit_cycle || ["cups", "coins", "swords", "clubs"];
    const beat = t(" beat ");
    const legend = h(
      "p.suit-cycle",
      {
        "aria-label": t("Suit cycle: {cycle}", {
          cycle: [...cycle, cycle[0]].map(suitName).join(beat),
        }),
      },
      [...cycle, cycle[0]].flatMap((suit, i) => [
        i ? h("span.arrow", { "aria-hidden": "true" }, "›") : null,
        h(
          "span.cycle-suit",
          {},
          suitIcon(ctx.pack, SUIT_LETTER[suit], suitName(suit)),
          h("span.cycle-name", {}, suitName(suit)),
        ),
      ]),
    );
    const key = h(
      "details.cycle-key",
      {},
      h("summary", {}, t("Who takes a trick?")),
      h(
        "p",
        {},
        t(
          "“›” means “beats”. Three suits in a trick: the suit the missing one beats takes it. Two of one suit: the higher of the pair. One suit: the highest.",
        ),
      ),
    );
    return h("div.coins-center", {}, trick, legend, key);
  },

  summary(ctx) {
    const prev = ctx.view.previous_hand;
    if (!prev) return null;
    return h(
      "section.panel.summary",
      { "aria-label": t("Hand {number} summary", { number: prev.hand }) },
      h("h2", {}, t("Hand {number} result", { number: prev.hand })),
      h(
        "ul.summary-list",
        {},
        prev.points.map((points, seat) =>
          h("li", {}, h("span", {}, ctx.name(seat)), h("strong", {}, coins(points))),
        ),
      ),
      h(
        "p.small.muted",
        {},
        t("{name} took the last trick.", { name: ctx.name(prev.last_trick_winner) }),
      ),
    );
  },
};
