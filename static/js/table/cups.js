// cups.js — Cups' part of the table (docs/rules/cups.md), tarot minor arcana: the active
// card on the dump, dump and stack sizes, the direction of play, each player's graveyard
// (newest batch face up, covered count), the side pile and cards out of the game, the
// Ace's gift step (everyone chooses at once, with "give nothing"), the graveyard move
// when nothing can be played, and the table's variants. Scores are card counts (low wins).

import { h, listWords, plural } from "../lib/dom.js";
import { pileEl } from "./pieces.js";

const VARIANT_TEXT = {
  cups_aside: (v) => (v ? "Played Cups go aside" : null),
  sit_out: (v) => (v ? "Empty-handed players sit out" : null),
  shortfall: (v) =>
    v && v !== "forgiven" ? `Short stack: ${String(v).replaceAll("_", " ")}` : null,
  graveyard_counts: (v) =>
    v && v !== "single" ? `Graveyards count ${v === "none" ? "nothing" : "double"}` : null,
};

export default {
  art: "AC", // the card that pictures the game on the home page, in its own pack
  scoreUnit: "cards", // scores are the cards you still hold: fewer is better

  info(ctx) {
    const v = ctx.view;
    const chips = [
      ["Turn", String(v.turn ?? 0)],
      ["Play goes", v.direction === "left" ? "left ↻" : "right ↺"],
    ];
    for (const [key, text] of Object.entries(VARIANT_TEXT)) {
      const shown = text(v.options?.[key]);
      if (shown) chips.push(["Variant", shown]);
    }
    return chips;
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    const grave = v.graveyards?.[seat];
    const parts = [];
    if (v.sitting_out?.includes(seat)) parts.push(h("span.badge", {}, "sits out"));
    if (v.gift && v.gift.to !== seat) {
      if (v.gift.awaiting?.includes(seat)) parts.push(h("span.badge", {}, "choosing a gift…"));
      else if (v.gift.chosen?.includes(seat)) parts.push(h("span.badge.open", {}, "gift chosen ✓"));
    }
    if (grave?.size) {
      parts.push(
        h(
          "div.graveyard",
          {
            "aria-label": `${ctx.name(seat)}'s graveyard: ${plural(grave.size, "card")}, newest batch ${grave.top.map((c) => ctx.cardName(c)).join(", ")}; ${grave.covered} covered`,
            dataset: { watch: `grave:${seat}`, value: String(grave.size) },
          },
          h("span.graveyard-label", {}, "Graveyard"),
          h(
            "div.graveyard-cards",
            {},
            grave.top.map((code) => ctx.card(code, { className: "small" })),
          ),
          grave.covered ? h("span.small", {}, `+ ${grave.covered} covered`) : null,
          seat === ctx.me && grave.covered_cards?.length
            ? h(
                "details.small",
                {},
                h("summary", {}, "Your covered cards"),
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
        "aria-label": `Play goes to the ${direction}`,
        dataset: { watch: "direction", value: direction, spin: "1" },
        class: direction,
      },
      h("span.direction-arrow", { "aria-hidden": "true" }, direction === "left" ? "↻" : "↺"),
      h("span.small", {}, `Play goes ${direction}`),
    );
    const active = v.active
      ? h(
          "div.pile.active-card",
          {
            role: "group",
            "aria-label": `Active card: ${ctx.cardName(v.active)}${v.active_is_cup ? ", an active Cup" : ""}`,
          },
          ctx.card(v.active),
          h("span.pile-label", {}, v.active_is_cup ? "Active Cup" : "Active card"),
        )
      : h(
          "div.pile",
          { role: "group", "aria-label": "The dump is empty: any card may be played" },
          h("span.empty-pile", {}, "any card"),
          h("span.pile-label", {}, "Dump empty"),
        );
    const piles = h(
      "div.piles",
      {},
      pileEl("Stack", v.stack_size ?? 0, {
        key: "stack",
        label: `Stack: ${plural(v.stack_size ?? 0, "card")}`,
      }),
      active,
      h(
        "div.pile",
        {
          role: "group",
          "aria-label": `Dump: ${plural(v.dump_size ?? 0, "card")}`,
          dataset: { watch: "dump", value: String(v.dump_size ?? 0) },
        },
        h("span.dump-count", {}, String(v.dump_size ?? 0)),
        h("span.pile-label", {}, "Dump"),
      ),
    );
    const extras = [];
    if (v.aside?.length) {
      extras.push(
        h(
          "div.aside-pile",
          { "aria-label": "Side pile" },
          h("span.small", {}, "Side pile: "),
          v.aside.map((c) => ctx.card(c, { className: "small" })),
        ),
      );
    }
    if (v.out?.length) {
      extras.push(
        h(
          "details.out-pile.small",
          {},
          h("summary", {}, `Out of the game: ${plural(v.out.length, "card")}`),
          h(
            "div.graveyard-cards",
            {},
            v.out.map((c) => ctx.card(c, { className: "small" })),
          ),
        ),
      );
    }
    if (v.discarded_size)
      extras.push(h("p.small", {}, `${plural(v.discarded_size, "card")} discarded face down`));
    let gift = null;
    if (v.gift) {
      const mine = v.gift.to === ctx.me;
      gift = h(
        "p.callout.gift",
        { role: "status" },
        mine
          ? `Your Ace! Waiting for ${listWords((v.gift.awaiting || []).map((s) => ctx.name(s)))} to choose a gift.`
          : `${ctx.name(v.gift.to)} played an Ace: everyone else chooses a card to give, or nothing — all at once.`,
        v.gift.mine !== undefined && ctx.me !== null && v.gift.to !== ctx.me
          ? h(
              "span.block",
              {},
              v.gift.mine ? ` You give the ${ctx.cardName(v.gift.mine)}.` : " You give nothing.",
            )
          : null,
      );
    }
    return h("div.cups-center", {}, arrow, piles, gift, extras);
  },

  cardActions(ctx, code) {
    return ctx.legal
      .filter((a) => (a.type === "play" || a.type === "gift") && a.card === code)
      .map((action) => ({ action, label: action.type === "gift" ? "Give" : "Play" }));
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
          "Give nothing",
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
          "Lay my hand as a graveyard",
        ),
      );
    }
    return buttons.length ? buttons : null;
  },

  blockedReason(ctx) {
    if (ctx.legal.some((a) => a.type === "graveyard")) {
      return "No card in your hand can be played now: lay your hand as a graveyard.";
    }
    if (ctx.legal.some((a) => a.type === "gift")) return "Choose a card to give, or give nothing.";
    const active = ctx.view.active;
    return active ? `This card cannot be played on the ${ctx.cardName(active)}.` : null;
  },
};
