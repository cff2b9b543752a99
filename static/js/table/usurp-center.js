// usurp-center.js — the middle of Usurp's table (docs/rules/usurp.md): the Order always in
// view, the stock, the Upcard and its worth (with a Downcard lying face down across it), the
// discard, the reveal at a Challenge, the Give In / Challenge prompt, the free play,
// Downcards given in (yours visible to you), the optional reveal pile and the summary of the
// hand just ended (the Downcards turned at its end), as the view gives it. Also the words for
// the Order and the kinds of play, which usurp.js shares.

import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { pileEl } from "./pieces.js";

export const ORDER_TEXT = {
  regal: t("Regal — high cards win (the 2 beats the Ace)"),
  common: t("Common — low cards win (the Ace beats the 2)"),
};
export const KIND_LABEL = {
  score: t("Score"),
  usurp: t("Usurp"),
  sluff: t("Sluff Off"),
  uprise: t("Uprise (face down)"),
  free_play: t("Free play"),
};
// The server's words for the Orders and the point tables, as the page names them.
const TITLES = {
  regal: t("Regal"),
  common: t("Common"),
  standard: t("Standard"),
  alternative: t("Alternative"),
};

/** "regal" → "Regal" */
export function title(word) {
  if (!word) return "";
  return TITLES[word] || word[0].toUpperCase() + word.slice(1);
}

/** The centre of the table for this frame. */
export function usurpCenter(ctx) {
  const v = ctx.view;
  const order = h(
    "div.order-banner",
    {
      class: v.order || "none",
      dataset: { watch: "order", value: v.order || "" },
      role: "status",
    },
    h(
      "strong",
      {},
      v.order ? t("Order: {order}", { order: title(v.order) }) : t("Order not declared yet"),
    ),
    v.order ? h("span.small", {}, ORDER_TEXT[v.order]) : null,
  );
  const upcard = v.upcard
    ? h(
        "div.pile.upcard",
        {
          role: "group",
          "aria-label": t("Upcard: {card}, worth {value}", {
            card: ctx.cardName(v.upcard),
            value: v.upcard_value,
          }),
        },
        h(
          "div.upcard-stack",
          {},
          ctx.card(v.upcard),
          v.pending_downcard
            ? h(
                "div.downcard-across",
                {
                  "aria-label": t("{name}'s Downcard, face down across the Upcard", {
                    name: ctx.name(v.pending_downcard.seat),
                  }),
                },
                v.pending_downcard.card
                  ? ctx.card(v.pending_downcard.card, {
                      className: "face-down-own",
                      label: t("your Downcard: {card}", {
                        card: ctx.cardName(v.pending_downcard.card),
                      }),
                    })
                  : ctx.card("", { back: true, label: t("a Downcard, face down") }),
              )
            : null,
        ),
        h("span.pile-label", {}, t("Upcard · worth {value}", { value: v.upcard_value })),
      )
    : null;
  const piles = h(
    "div.piles",
    {},
    pileEl(t("Stock"), v.stock_size ?? 0, { key: "stock" }),
    upcard,
    h(
      "div.pile",
      {
        role: "group",
        "aria-label": t("Discard: {cards}", {
          cards: tn("{n} card", "{n} cards", v.discard_size ?? 0),
        }),
        dataset: { watch: "discard", value: String(v.discard_size ?? 0) },
      },
      h("span.dump-count", {}, String(v.discard_size ?? 0)),
      h("span.pile-label", {}, t("Discard")),
    ),
  );
  const parts = [order, piles];
  const last = v.last;
  if (last?.type === "challenge" && last.card) {
    // The reveal: the challenged Downcard, turned face up.
    parts.push(
      h(
        "div.callout.reveal",
        { role: "status" },
        ctx.card(last.card, { className: "small" }),
        h(
          "span",
          {},
          last.reneg
            ? t("Challenged! {name}'s Downcard was the {card}, played as {kind} — a Reneg.", {
                name: ctx.name(last.seat === undefined ? null : 1 - last.seat),
                card: ctx.cardName(last.card),
                kind: KIND_LABEL[last.played_as] || last.played_as,
              })
            : t("Challenged! {name}'s Downcard was the {card}, played as {kind}.", {
                name: ctx.name(last.seat === undefined ? null : 1 - last.seat),
                card: ctx.cardName(last.card),
                kind: KIND_LABEL[last.played_as] || last.played_as,
              }),
        ),
      ),
    );
  }
  if (v.awaiting_answer && v.pending_downcard) {
    const riser = v.pending_downcard.seat;
    parts.push(
      h(
        "p.callout",
        { role: "status" },
        riser === ctx.me
          ? t("You rose up face down. Your opponent chooses: Give In or Challenge.")
          : t(
              "{name} rose up face down: Give In (they score {value}) or Challenge (the card is turned; the scorer also gets {bonus}).",
              { name: ctx.name(riser), value: v.upcard_value, bonus: v.challenge_bonus },
            ),
      ),
    );
  }
  if (v.free_play) {
    parts.push(
      h(
        "p.callout",
        {},
        v.free_play.seat === ctx.me
          ? t("You have the free play: any card, scoring {value}.", {
              value: v.free_play.value,
            })
          : t("{name} has the free play: any card, scoring {value}.", {
              name: ctx.name(v.free_play.seat),
              value: v.free_play.value,
            }),
      ),
    );
  }
  if (v.downcards?.length) {
    parts.push(
      h(
        "div.downcards",
        { "aria-label": t("Downcards on the Discard") },
        h("span.small", {}, t("Downcards given in: ")),
        v.downcards.map((d) =>
          h(
            "figure.mini-card",
            {},
            d.card
              ? ctx.card(d.card, {
                  className: "small face-down-own",
                  label: t("your Downcard: {card}", { card: ctx.cardName(d.card) }),
                })
              : ctx.card("", {
                  back: true,
                  className: "small",
                  label: t("{name}'s Downcard", { name: ctx.name(d.seat) }),
                }),
            h("figcaption", {}, ctx.name(d.seat)),
          ),
        ),
      ),
    );
  }
  if (v.reveal_pile_on) {
    parts.push(
      h(
        "div.reveal-pile",
        { "aria-label": t("Reveal pile") },
        h("span.small", {}, t("Reveal pile ({count}): ", { count: v.reveal_pile.length })),
        v.reveal_pile.slice(-8).map((c) => ctx.card(c, { className: "small" })),
      ),
    );
  }
  if (v.hand_summary) parts.push(handSummary(ctx, v.hand_summary));
  return h("div.usurp-center", {}, parts);
}

/** "Seat 2 +20": the points a play or a turned Reneg gave, per seat. */
function scoredText(ctx, scored) {
  return (scored || [])
    .map((p, s) => (p ? `${ctx.name(s)} +${p}` : null))
    .filter(Boolean)
    .join(", ");
}

/**
 * The hand just ended, on view until the next one ends: its Hand Points, who won the Game
 * Point, and the Downcards turned at its end — whose, which were Renegs and what each gave.
 * Marked data-past-deal: its cards are that hand's, which may since have been dealt again.
 */
function handSummary(ctx, summary) {
  const turned = summary.turned_downcards || [];
  const totals = summary.hand_points.map((p, s) => `${ctx.name(s)} ${p}`).join(", ");
  const point =
    summary.winner === null || summary.winner === undefined
      ? t("tied, no Game Point")
      : t("Game Point to {name}", { name: ctx.name(summary.winner) });
  // Open on a wide screen; folded to its first line on a phone, where its Downcards would
  // stand between the Upcard and your hand for the whole next hand. Opening or folding it
  // holds for that hand.
  const shown = ctx.keep("hand-summary", () => ({ hand: null, open: false }));
  const open = shown.hand === summary.hand ? shown.open : window.innerWidth > 600;
  return h(
    "details.callout.hand-summary",
    {
      open,
      "aria-label": t("Hand {number} summary", { number: summary.hand }),
      dataset: { pastDeal: String(summary.hand) },
      ontoggle: (event) => {
        shown.hand = summary.hand;
        shown.open = event.target.open;
      },
    },
    h(
      "summary",
      {},
      h(
        "strong",
        {},
        t("Hand {number} ended: {totals} ({point}).", {
          number: summary.hand,
          totals,
          point,
        }),
      ),
    ),
    turned.length
      ? h(
          "div.downcards",
          { "aria-label": t("Downcards turned at the end of the hand") },
          h("span.small", {}, t("Downcards turned at its end: ")),
          turned.map((d) => {
            const gave = scoredText(ctx, d.scored);
            const reneg = t("Reneg");
            return h(
              "figure.mini-card",
              { class: d.reneg ? "reneg" : "", dataset: { seat: String(d.seat) } },
              ctx.card(d.card, { className: "small" }),
              h(
                "figcaption",
                {},
                `${ctx.name(d.seat)}${d.reneg ? ` · ${reneg}${gave ? `: ${gave}` : ""}` : ""}`,
              ),
            );
          }),
        )
      : h("span.small", {}, t("No Downcards were left to turn.")),
  );
}
