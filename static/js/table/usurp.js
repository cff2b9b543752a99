// usurp.js — Usurp's part of the table (docs/rules/usurp.md): the match facts (hand, Order,
// Game Points to win, point table), Hand Points and Game Points on each plate, the kinds of
// play the server offers for each card (Score, Usurp with the Order to leave, Sluff Off,
// Uprise face down, the free play) with how the card stands against the Upcard, the dealer's
// Order choice, the Give In / Challenge answer, the log lines and the hands played. Which
// plays a card allows comes only from the server's legal actions. The middle of the table
// (the Upcard, the Order, Downcards, the reveal) is drawn by usurp-center.js.

import { parseCard } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { KIND_LABEL, title, usurpCenter } from "./usurp-center.js";

function choiceLabel(action, order) {
  if (action.type === "usurp") {
    const params = { order: title(action.order) };
    return action.order === order
      ? t("Usurp, keep {order}", params)
      : t("Usurp, switch to {order}", params);
  }
  return KIND_LABEL[action.type] || action.type;
}

export default {
  art: "KS", // the card that pictures the game on the home page, in its own pack
  unitFor: (n) => tn("Game Point", "Game Points", n),

  progressLabel: t("Hand Points progression"),
  progress: (view) => view.hand_points || [],

  info(ctx) {
    const v = ctx.view;
    return [
      [
        t("Hand"),
        t("{number} of {count}", { number: v.hand_number ?? 1, count: v.max_hands ?? 15 }),
      ],
      [t("Order"), v.order ? title(v.order) : t("not declared")],
      [t("Game Points to win"), String(v.game_points_to_win ?? "")],
      [t("Point table"), title(v.points_table || "standard")],
    ];
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    return h(
      "span.extra",
      {},
      tn("{n} Hand Point this hand", "{n} Hand Points this hand", v.hand_points?.[seat] ?? 0),
    );
  },

  center: usurpCenter,

  cardActions(ctx, code) {
    const order = ctx.view.order;
    return ctx.legal
      .filter((a) => a.card === code)
      .map((action) => ({
        action,
        kind: action.type,
        label: choiceLabel(action, order),
      }));
  },

  /** How a card stands against the Upcard (its suit and rank, read from the codes). */
  cardNote(ctx, code, choices) {
    const up = ctx.view.upcard;
    if (!up || ctx.view.phase === "over") return null;
    const a = parseCard(code);
    const b = parseCard(up);
    const relation =
      a.suit === b.suit
        ? t("Same suit as the Upcard.")
        : a.rank === b.rank
          ? t("Same rank as the Upcard.")
          : t("Neither the Upcard's suit nor its rank.");
    if (!choices.length) return relation;
    const offered = t("Offered: {choices}.", { choices: choices.map((c) => c.label).join(", ") });
    return `${relation} ${offered}`;
  },

  actions(ctx) {
    if (!ctx.canAct) return null;
    const buttons = [];
    for (const action of ctx.legal) {
      if (action.type === "order") {
        buttons.push(
          h(
            "button.btn.primary",
            {
              type: "button",
              "data-key": `act:order-${action.order}`,
              dataset: { kind: `order-${action.order}`, help: "order" },
              onclick: () => ctx.act(action, "actions"),
            },
            action.order === "regal"
              ? t("{order} (high wins)", { order: title(action.order) })
              : t("{order} (low wins)", { order: title(action.order) }),
          ),
        );
      } else if (action.type === "give_in") {
        buttons.push(
          h(
            "button.btn",
            {
              type: "button",
              "data-key": "act:give-in",
              dataset: { kind: "give_in", help: "give_in" },
              onclick: () => ctx.act(action, "actions"),
            },
            t("Give In"),
          ),
        );
      } else if (action.type === "challenge") {
        buttons.push(
          h(
            "button.btn.primary",
            {
              type: "button",
              "data-key": "act:challenge",
              dataset: { kind: "challenge", help: "challenge" },
              onclick: () => ctx.act(action, "actions"),
            },
            t("Challenge"),
          ),
        );
      }
    }
    return buttons.length ? buttons : null;
  },

  blockedReason(ctx) {
    const types = new Set(ctx.legal.map((a) => a.type));
    if (types.has("order")) return t("First declare the Order: Regal or Common.");
    if (types.has("give_in") || types.has("challenge"))
      return t("First answer the Uprising: Give In or Challenge.");
    return null;
  },

  summary(ctx) {
    const hands = ctx.view.hands_played || [];
    if (!hands.length) return null;
    return h(
      "section.panel.summary",
      { "aria-label": t("Hands played") },
      h("h2", {}, t("Hands played")),
      h(
        "table.hands-table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, t("Hand")),
            Array.from({ length: ctx.seats }, (_, s) => h("th", {}, ctx.name(s))),
            h("th", {}, t("Game Point")),
          ),
        ),
        h(
          "tbody",
          {},
          hands.map((row) =>
            h(
              "tr",
              {},
              h("td", {}, String(row.hand)),
              row.hand_points.map((p, s) => {
                const reneg = t("({points} reneg)", { points: row.reneg_points?.[s] });
                return h("td", {}, `${p}${row.reneg_points?.[s] ? ` ${reneg}` : ""}`);
              }),
              h(
                "td",
                {},
                row.winner === null || row.winner === undefined ? t("tied") : ctx.name(row.winner),
              ),
            ),
          ),
        ),
      ),
    );
  },
};
