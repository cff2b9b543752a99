// usurp.js — Usurp's part of the table (docs/rules/usurp.md): the Upcard and its worth,
// the Order always in view, the dealer's Order choice, the four kinds of play offered for
// each card (Score, Usurp with the Order to leave, Sluff Off, Uprise face down) and the free
// play, the opponent's Give In / Challenge prompt, Downcards (face down, yours visible to
// you), the reveal at a Challenge or at the end, the optional reveal pile, Hand Points and
// Game Points. Which plays a card allows comes only from the server's legal actions.

import { h, plural } from "../lib/dom.js";
import { parseCard } from "../lib/cards.js";
import { pileEl } from "./table.js";

const ORDER_TEXT = {
  regal: "Regal — high cards win (the 2 beats the Ace)",
  common: "Common — low cards win (the Ace beats the 2)",
};
const KIND_LABEL = {
  score: "Score",
  usurp: "Usurp",
  sluff: "Sluff Off",
  uprise: "Uprise (face down)",
  free_play: "Free play",
};
const KIND_HELP = {
  score: "Face up, of the Upcard's suit: the winner under the Order scores the Upcard.",
  usurp: "Face up, of the Upcard's rank: you score the Upcard and set the Order.",
  sluff: "Face up, when you hold none of the Upcard's suit: your opponent scores the Upcard and gets the free play.",
  uprise: "Face down, as a bluff: your opponent Gives In or Challenges.",
  free_play: "Any card face up: you score the sluffed card's value.",
};

function title(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : "";
}

function choiceLabel(action, order) {
  if (action.type === "usurp") {
    const keep = action.order === order;
    return `Usurp, ${keep ? "keep" : "switch to"} ${title(action.order)}`;
  }
  return KIND_LABEL[action.type] || action.type;
}

export default {
  name: "usurp",
  title: "Usurp",
  pack: "french",
  titles: {},

  progressLabel: "Hand Points progression",
  progress: (view) => view.hand_points || [],

  info(ctx) {
    const v = ctx.view;
    return [
      ["Hand", `${v.hand_number ?? 1} of ${v.max_hands ?? 15}`],
      ["Order", v.order ? title(v.order) : "not declared"],
      ["Game Points to win", String(v.game_points_to_win ?? "")],
      ["Point table", title(v.points_table || "standard")],
    ];
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    return h(
      "span.extra",
      { title: "Hand Points this hand · Game Points" },
      `hand ${v.hand_points?.[seat] ?? 0} · game ${v.game_points?.[seat] ?? 0}`,
    );
  },

  center(ctx) {
    const v = ctx.view;
    const order = h(
      "div.order-banner",
      { class: v.order || "none", dataset: { watch: "order", value: v.order || "" }, role: "status" },
      h("strong", {}, v.order ? `Order: ${title(v.order)}` : "Order not declared yet"),
      v.order ? h("span.small", {}, ORDER_TEXT[v.order]) : null,
    );
    const upcard = v.upcard
      ? h(
          "div.pile.upcard",
          { role: "group", "aria-label": `Upcard: ${ctx.cardName(v.upcard)}, worth ${v.upcard_value}` },
          h(
            "div.upcard-stack",
            {},
            ctx.card(v.upcard),
            v.pending_downcard
              ? h(
                  "div.downcard-across",
                  { "aria-label": `${ctx.name(v.pending_downcard.seat)}'s Downcard, face down across the Upcard` },
                  v.pending_downcard.card
                    ? ctx.card(v.pending_downcard.card, { className: "face-down-own", label: `your Downcard: ${ctx.cardName(v.pending_downcard.card)}` })
                    : ctx.card("", { back: true, label: "a Downcard, face down" }),
                )
              : null,
          ),
          h("span.pile-label", {}, `Upcard · worth ${v.upcard_value}`),
        )
      : null;
    const piles = h(
      "div.piles",
      {},
      pileEl("Stock", v.stock_size ?? 0, { key: "stock" }),
      upcard,
      h(
        "div.pile",
        { role: "group", "aria-label": `Discard: ${plural(v.discard_size ?? 0, "card")}`, dataset: { watch: "discard", value: String(v.discard_size ?? 0) } },
        h("span.dump-count", {}, String(v.discard_size ?? 0)),
        h("span.pile-label", {}, "Discard"),
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
            `Challenged! ${ctx.name(last.seat === undefined ? null : 1 - last.seat)}'s Downcard was the ${ctx.cardName(last.card)}, played as ${KIND_LABEL[last.played_as] || last.played_as}${last.reneg ? " — a Reneg" : ""}.`,
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
            ? "You rose up face down. Your opponent chooses: Give In or Challenge."
            : `${ctx.name(riser)} rose up face down: Give In (they score ${v.upcard_value}) or Challenge (the card is turned; the scorer also gets ${v.challenge_bonus}).`,
        ),
      );
    }
    if (v.free_play) {
      parts.push(
        h("p.callout", {}, `${ctx.who(v.free_play.seat)} ${v.free_play.seat === ctx.me ? "have" : "has"} the free play: any card, scoring ${v.free_play.value}.`),
      );
    }
    if (v.downcards?.length) {
      parts.push(
        h(
          "div.downcards",
          { "aria-label": "Downcards on the Discard" },
          h("span.small", {}, "Downcards given in: "),
          v.downcards.map((d) =>
            h(
              "figure.mini-card",
              {},
              d.card ? ctx.card(d.card, { className: "small face-down-own", label: `your Downcard: ${ctx.cardName(d.card)}` }) : ctx.card("", { back: true, className: "small", label: `${ctx.name(d.seat)}'s Downcard` }),
              h("figcaption", {}, ctx.name(d.seat)),
            ),
          ),
        ),
      );
    }
    if (v.turned_downcards?.length) {
      parts.push(
        h(
          "div.downcards",
          { "aria-label": "Downcards turned at the end" },
          h("span.small", {}, "Turned Downcards: "),
          v.turned_downcards.map((d) =>
            h("figure.mini-card", { class: d.reneg ? "reneg" : "" }, ctx.card(d.card, { className: "small" }), h("figcaption", {}, `${ctx.name(d.seat)}${d.reneg ? " · Reneg" : ""}`)),
          ),
        ),
      );
    }
    if (v.reveal_pile_on) {
      parts.push(
        h(
          "div.reveal-pile",
          { "aria-label": "Reveal pile" },
          h("span.small", {}, `Reveal pile (${v.reveal_pile.length}): `),
          v.reveal_pile.slice(-8).map((c) => ctx.card(c, { className: "small" })),
        ),
      );
    }
    return h("div.usurp-center", {}, parts);
  },

  cardActions(ctx, code) {
    const order = ctx.view.order;
    return ctx.legal
      .filter((a) => a.card === code)
      .map((action) => ({
        action,
        kind: action.type,
        label: choiceLabel(action, order),
        help: KIND_HELP[action.type],
      }));
  },

  /** How a card stands against the Upcard (its suit and rank, read from the codes). */
  cardNote(ctx, code, choices) {
    const up = ctx.view.upcard;
    if (!up || ctx.view.phase === "over") return null;
    const a = parseCard(code);
    const b = parseCard(up);
    const relation =
      a.suit === b.suit ? "Same suit as the Upcard." : a.rank === b.rank ? "Same rank as the Upcard." : "Neither the Upcard's suit nor its rank.";
    if (!choices.length) return relation;
    return `${relation} Offered: ${choices.map((c) => c.label).join(", ")}.`;
  },

  actions(ctx) {
    if (!ctx.canAct) return null;
    const buttons = [];
    for (const action of ctx.legal) {
      if (action.type === "order") {
        buttons.push(
          h(
            "button.btn.primary",
            { type: "button", "data-key": `act:order-${action.order}`, dataset: { kind: `order-${action.order}` }, title: ORDER_TEXT[action.order], onclick: () => ctx.act(action, "actions") },
            `${title(action.order)} (${action.order === "regal" ? "high wins" : "low wins"})`,
          ),
        );
      } else if (action.type === "give_in") {
        buttons.push(h("button.btn", { type: "button", "data-key": "act:give-in", dataset: { kind: "give_in" }, onclick: () => ctx.act(action, "actions") }, "Give In"));
      } else if (action.type === "challenge") {
        buttons.push(h("button.btn.primary", { type: "button", "data-key": "act:challenge", dataset: { kind: "challenge" }, onclick: () => ctx.act(action, "actions") }, "Challenge"));
      }
    }
    return buttons.length ? buttons : null;
  },

  blockedReason(ctx) {
    const types = new Set(ctx.legal.map((a) => a.type));
    if (types.has("order")) return "First declare the Order: Regal or Common.";
    if (types.has("give_in") || types.has("challenge")) return "First answer the Uprising: Give In or Challenge.";
    return null;
  },

  describeLast(last, ctx) {
    const who = ctx.name(last.seat);
    const card = last.card ? `the ${ctx.cardName(last.card)}` : "a card";
    const on = last.on ? ` on the ${ctx.cardName(last.on)}` : "";
    const scored = Array.isArray(last.scored)
      ? last.scored.map((p, s) => (p ? `${ctx.name(s)} +${p}` : null)).filter(Boolean).join(", ")
      : "";
    const tail = scored ? ` (${scored})` : "";
    switch (last.type) {
      case "order":
        return `${who} declared the Order: ${title(last.order)}`;
      case "score":
        return `${who} scored with ${card}${on}${tail}`;
      case "usurp":
        return `${who} usurped with ${card}${on}; Order ${title(last.order)}${tail}`;
      case "sluff":
        return `${who} sluffed off ${card}${on}${tail}`;
      case "uprise":
        return `${who} rose up with a card face down`;
      case "give_in":
        return `${who} gave in${tail}`;
      case "challenge":
        return `${who} challenged: it was ${card}, played as ${KIND_LABEL[last.played_as] || last.played_as}${last.reneg ? " — a Reneg!" : ""}${tail}`;
      case "free_play":
        return `${who} took the free play with ${card}${tail}`;
      case "hand_end":
        return `Hand ${last.hand} ended: ${(last.hand_points || []).map((p, s) => `${ctx.name(s)} ${p}`).join(", ")}`;
      default:
        return null;
    }
  },

  summary(ctx) {
    const hands = ctx.view.hands_played || [];
    if (!hands.length) return null;
    return h(
      "section.panel.summary",
      { "aria-label": "Hands played" },
      h("h2", {}, "Hands played"),
      h(
        "table.hands-table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}, "Hand"), Array.from({ length: ctx.seats }, (_, s) => h("th", {}, ctx.name(s))), h("th", {}, "Game Point"))),
        h(
          "tbody",
          {},
          hands.map((row) =>
            h(
              "tr",
              {},
              h("td", {}, String(row.hand)),
              row.hand_points.map((p, s) => h("td", {}, `${p}${row.reneg_points?.[s] ? ` (${row.reneg_points[s]} reneg)` : ""}`)),
              h("td", {}, row.winner === null || row.winner === undefined ? "tied" : ctx.name(row.winner)),
            ),
          ),
        ),
      ),
    );
  },
};
