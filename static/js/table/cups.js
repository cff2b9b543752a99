// cups.js — Cups' part of the table (docs/rules/cups.md), tarot minor arcana: the active
// card on the dump, dump and stack sizes, the direction of play, each player's graveyard
// (newest batch face up, covered count), the side pile and cards out of the game, the
// Ace's gift step (everyone chooses at once, with "give nothing"), the graveyard move
// when nothing can be played, and the table's variants. Scores are card counts (low wins).

import { h, listWords } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { pileEl } from "./pieces.js";

const cards = (n) => tn("{n} card", "{n} cards", n);
// The short-stack rule's values (the server's option choices) in words.
const SHORTFALLS = {
  democratic_league: t("democratic league"),
  magellan: t("magellan"),
};

const VARIANT_TEXT = {
  cups_aside: (v) => (v ? t("Played Cups go aside") : null),
  sit_out: (v) => (v ? t("Empty-handed players sit out") : null),
  shortfall: (v) =>
    v && v !== "forgiven"
      ? t("Short stack: {rule}", { rule: SHORTFALLS[v] || String(v).replaceAll("_", " ") })
      : null,
  graveyard_counts: (v) => {
    if (!v || v === "single") return null;
    return v === "none" ? t("Graveyards count nothing") : t("Graveyards count double");
  },
};

export default {
  art: "AC", // the card that pictures the game on the home page, in its own pack
  // Scores are the cards you still hold: fewer is better.
  unitFor: (n) => tn("card", "cards", n),

  info(ctx) {
    const v = ctx.view;
    const chips = [
      [t("Turn"), String(v.turn ?? 0)],
      [t("Play goes"), v.direction === "left" ? t("left ↻") : t("right ↺")],
    ];
    for (const [key, text] of Object.entries(VARIANT_TEXT)) {
      const shown = text(v.options?.[key]);
      if (shown) chips.push([t("Variant"), shown]);
    }
    return chips;
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    const grave = v.graveyards?.[seat];
    const parts = [];
    if (v.sitting_out?.includes(seat)) parts.push(h("span.badge", {}, t("sits out")));
    if (v.gift && v.gift.to !== seat) {
      if (v.gift.awaiting?.includes(seat)) parts.push(h("span.badge", {}, t("choosing a gift…")));
      else if (v.gift.chosen?.includes(seat)) {
        parts.push(h("span.badge.open", {}, t("gift chosen ✓")));
      }
    }
    if (grave?.size) {
      parts.push(
        h(
          "div.graveyard",
          {
            "aria-label": tn(
              "{name}'s graveyard: {cards}, newest batch {batch}; {n} covered",
              "{name}'s graveyard: {cards}, newest batch {batch}; {n} covered",
              grave.covered,
              {
                name: ctx.name(seat),
                cards: cards(grave.size),
                batch: grave.top.map((c) => ctx.cardName(c)).join(", "),
              },
            ),
            dataset: { watch: `grave:${seat}`, value: String(grave.size) },
          },
          h("span.graveyard-label", {}, t("Graveyard")),
          h(
            "div.graveyard-cards",
            {},
            grave.top.map((code) => ctx.card(code, { className: "small" })),
          ),
          grave.covered
            ? h("span.small", {}, tn("+ {n} covered", "+ {n} covered", grave.covered))
            : null,
          seat === ctx.me && grave.covered_cards?.length
            ? h(
                "details.small",
                {},
                h("summary", {}, t("Your covered cards")),
                h(
                  "div.graveyard-cards",
                  {},
                  grave.covered_cards.map((code) => ctx.card(code, { className: "small" })),
                ),
              )
            : null,
        ),
      );
    }
    return parts.length ? h("span.extras", {}, parts) : null;
  },

  center(ctx) {
    const v = ctx.view;
    const direction = v.direction === "left" ? "left" : "right";
    const arrow = h(
      "div.direction",
      {
        role: "img",
        "aria-label":
          direction === "left" ? t("Play goes to the left") : t("Play goes to the right"),
        dataset: { watch: "direction", value: direction, spin: "1" },
        class: direction,
      },
      h("span.direction-arrow", { "aria-hidden": "true" }, direction === "left" ? "↻" : "↺"),
      h("span.small", {}, direction === "left" ? t("Play goes left") : t("Play goes right")),
    );
    const active = v.active
      ? h(
          "div.pile.active-card",
          {
            role: "group",
            "aria-label": v.active_is_cup
              ? t("Active card: {card}, an active Cup", { card: ctx.cardName(v.active) })
              : t("Active card: {card}", { card: ctx.cardName(v.active) }),
          },
          ctx.card(v.active),
          h("span.pile-label", {}, v.active_is_cup ? t("Active Cup") : t("Active card")),
        )
      : h(
          "div.pile",
          { role: "group", "aria-label": t("The dump is empty: any card may be played") },
          h("span.empty-pile", {}, t("any card")),
          h("span.pile-label", {}, t("Dump empty")),
        );
    const piles = h(
      "div.piles",
      {},
      pileEl(t("Stack"), v.stack_size ?? 0, {
        key: "stack",
        label: t("Stack: {cards}", { cards: cards(v.stack_size ?? 0) }),
      }),
      active,
      h(
        "div.pile",
        {
          role: "group",
          "aria-label": t("Dump: {cards}", { cards: cards(v.dump_size ?? 0) }),
          dataset: { watch: "dump", value: String(v.dump_size ?? 0) },
        },
        h("span.dump-count", {}, String(v.dump_size ?? 0)),
        h("span.pile-label", {}, t("Dump")),
      ),
    );
    const extras = [];
    if (v.aside?.length) {
      extras.push(
        h(
          "div.aside-pile",
          { "aria-label": t("Side pile") },
          h("span.small", {}, t("Side pile: ")),
          v.aside.map((c) => ctx.card(c, { className: "small" })),
        ),
      );
    }
    if (v.out?.length) {
      extras.push(
        h(
          "details.out-pile.small",
          {},
          h("summary", {}, t("Out of the game: {cards}", { cards: cards(v.out.length) })),
          h(
            "div.graveyard-cards",
            {},
            v.out.map((c) => ctx.card(c, { className: "small" })),
          ),
        ),
      );
    }
    if (v.discarded_size)
      extras.push(
        h(
          "p.small",
          {},
          tn("{n} card discarded face down", "{n} cards discarded face down", v.discarded_size),
        ),
      );
    let gift = null;
    if (v.gift) {
      const mine = v.gift.to === ctx.me;
      gift = h(
        "p.callout.gift",
        { role: "status" },
        mine
          ? t("Your Ace! Waiting for {names} to choose a gift.", {
              names: listWords((v.gift.awaiting || []).map((s) => ctx.name(s))),
            })
          : t(
              "{name} played an Ace: everyone else chooses a card to give, or nothing — all at once.",
              { name: ctx.name(v.gift.to) },
            ),
        v.gift.mine !== undefined && ctx.me !== null && v.gift.to !== ctx.me
          ? h(
              "span.block",
              {},
              v.gift.mine
                ? t(" You give the {card}.", { card: ctx.cardName(v.gift.mine) })
                : t(" You give nothing."),
            )
          : null,
      );
    }
    return h("div.cups-center", {}, arrow, piles, gift, extras);
  },

  cardActions(ctx, code) {
    return ctx.legal
      .filter((a) => (a.type === "play" || a.type === "gift") && a.card === code)
      .map((action) => ({ action, label: action.type === "gift" ? t("Give") : t("Play") }));
  },

  actions(ctx) {
    if (!ctx.canAct) return null;
    const buttons = [];
    const nothing = ctx.legal.find((a) => a.type === "gift" && a.card === null);
    if (nothing) {
      buttons.push(
        h(
          "button.btn",
          {
            type: "button",
            "data-key": "act:give-nothing",
            dataset: { help: "gift" },
            onclick: () => ctx.act(nothing, "actions"),
          },
          t("Give nothing"),
        ),
      );
    }
    const grave = ctx.legal.find((a) => a.type === "graveyard");
    if (grave) {
      buttons.push(
        h(
          "button.btn.primary",
          {
            type: "button",
            "data-key": "act:graveyard",
            dataset: { help: "graveyard" },
            onclick: () => ctx.act(grave, "actions"),
          },
          t("Lay my hand as a graveyard"),
        ),
      );
    }
    return buttons.length ? buttons : null;
  },

  blockedReason(ctx) {
    if (ctx.legal.some((a) => a.type === "graveyard")) {
      return t("No card in your hand can be played now: lay your hand as a graveyard.");
    }
    if (ctx.legal.some((a) => a.type === "gift")) {
      return t("Choose a card to give, or give nothing.");
    }
    const active = ctx.view.active;
    return active
      ? t("This card cannot be played on the {card}.", { card: ctx.cardName(active) })
      : null;
  },
};
