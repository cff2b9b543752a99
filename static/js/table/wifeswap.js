// wifeswap.js — Royal Wife-Swap's part of the table (docs/rules/wifeswap.md): the trick in
// progress, won (while its winner arranges) or just completed, every player's families with
// their points, round scores and match totals, and the round history. The trick winner's
// arrangement board is in wifeswap-board.js.

import { cardShort, parseCard } from "../lib/cards.js";
import { h, plural } from "../lib/dom.js";
import { trickEl } from "./pieces.js";
import { arrangeBoard } from "./wifeswap-board.js";

const SUITS = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };

/** On a plate, families as short text ("K♠ Q♠ 7♠ · 23"), readable at any size. */
function compactFamilies(ctx, seat, families) {
  return h(
    "ul.families-compact",
    { "aria-label": `${ctx.name(seat)}'s families` },
    families.map((f) =>
      h(
        "li.family-line",
        { class: f.royal ? "royal" : "" },
        f.cards.map((c) =>
          h("span.short-card", { class: /[HD]$/.test(c) ? "red" : "" }, cardShort(c, ctx.pack)),
        ),
        h("span.family-points", {}, ` ${f.points}${f.royal ? " ♛ Royal" : ""}`),
        h("span.sr-only", {}, f.royal ? " points, Royal" : " points"),
      ),
    ),
  );
}

function familiesEl(ctx, seat, { compact = false } = {}) {
  const families = ctx.view.families?.[seat] || [];
  if (!families.length) return compact ? null : h("p.small.muted", {}, "No families yet.");
  if (compact) return compactFamilies(ctx, seat, families);
  return h(
    "div.families",
    { role: "group", "aria-label": `${ctx.name(seat)}'s families` },
    families.map((f, i) =>
      h(
        "div.family",
        {
          role: "group",
          class: f.royal ? "royal" : "",
          "aria-label": `Family ${i + 1}${f.royal ? ", Royal" : ""}: ${f.points} points`,
        },
        h(
          "div.family-cards",
          {},
          f.cards.map((c) => ctx.card(c, { className: "small" })),
        ),
        h("span.family-points", {}, `${f.points}${f.royal ? " ♛" : ""}`),
      ),
    ),
  );
}

export default {
  art: "QH", // the card that pictures the game on the home page, in its own pack
  showsLastTrick: true,

  progressLabel: "Points progression (totals plus this round's families)",
  // At the end of the match the last round's families are already in the totals.
  progress: (view) =>
    (view.totals || []).map((t, s) => t + (view.over ? 0 : (view.round_scores?.[s] ?? 0))),

  info(ctx) {
    const v = ctx.view;
    const chips = [
      ["Round", v.rounds ? `${v.round} of ${v.rounds}` : String(v.round)],
      ["Tricks", String(v.tricks_this_round ?? 0)],
      ["Without laying", `${v.tricks_without_laying ?? 0} of 20`],
    ];
    if (!v.rounds) chips.push(["Target", String(v.target)]);
    return chips;
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    return h(
      "span.extras",
      {},
      h("span.extra", {}, `${plural(v.round_scores?.[seat] ?? 0, "point")} in families this round`),
      familiesEl(ctx, seat, { compact: true }),
    );
  },

  center(ctx) {
    const v = ctx.view;
    const parts = [];
    if (v.phase === "arrange" && v.trick?.length) {
      parts.push(
        trickEl(ctx, v.trick, {
          winner: v.trick_winner,
          label: "Trick won",
          caption: `${ctx.name(v.trick_winner)} won the trick${v.trick_winner === ctx.me ? "" : " and is arranging their families"}.`,
        }),
      );
    } else if (v.trick?.length) {
      parts.push(trickEl(ctx, v.trick, { label: "Trick in progress" }));
    } else if (v.last_trick?.cards?.length) {
      parts.push(lastTrickEl(ctx, v.last_trick));
    } else {
      parts.push(h("div.trick.empty", {}, h("p.muted", {}, "The trick will appear here.")));
    }
    parts.push(
      h(
        "p.small",
        { dataset: { watch: "stock", value: String(v.stock_size) } },
        `Stock: ${plural(v.stock_size ?? 0, "card")}`,
      ),
    );
    if (ctx.canAct && v.phase === "arrange" && ctx.mode === "live") parts.push(arrangeBoard(ctx));
    return h("div.wifeswap-center", {}, parts);
  },

  blockedReason(ctx) {
    const v = ctx.view;
    if (v.phase === "arrange") return "Use the board above: arrange your families, or pass.";
    const led = v.trick?.[0]?.card;
    if (led) {
      const suit = SUITS[parseCard(led).suit];
      return `${suit[0].toUpperCase()}${suit.slice(1)} were led: play one of the highlighted cards.`;
    }
    return null;
  },

  summary(ctx) {
    const v = ctx.view;
    const rows = v.round_history || [];
    const mine =
      ctx.me !== null
        ? h(
            "section.panel.summary",
            { "aria-label": "Your families" },
            h("h2", {}, "Your families"),
            familiesEl(ctx, ctx.me),
          )
        : null;
    if (!rows.length) return mine;
    return h(
      "div.stack",
      {},
      mine,
      h(
        "section.panel.summary",
        { "aria-label": "Rounds" },
        h("h2", {}, "Rounds"),
        v.last_round?.reason
          ? h("p.small.muted", {}, `Round ${v.last_round.round} ended: ${v.last_round.reason}.`)
          : null,
        h(
          "table.hands-table",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, "Round"),
              Array.from({ length: ctx.seats }, (_, s) => h("th", {}, ctx.name(s))),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map((row, i) =>
              h(
                "tr",
                {},
                h("td", {}, String(i + 1)),
                row.map((p) => h("td", {}, String(p))),
              ),
            ),
            h(
              "tr.total",
              {},
              h("td", {}, "Total"),
              (v.totals || []).map((p) => h("td", {}, h("strong", {}, String(p)))),
            ),
          ),
        ),
      ),
    );
  },
};

/** The trick just completed, face up as it was played for everyone, even cards drawn since. */
function lastTrickEl(ctx, lastTrick) {
  return h(
    "div.trick",
    { role: "group", "aria-label": "Completed trick" },
    lastTrick.cards.map(({ seat, card }) =>
      h(
        "figure.trick-card",
        { class: seat === lastTrick.winner ? "won" : "" },
        ctx.card(card),
        h(
          "figcaption",
          {},
          ctx.name(seat),
          seat === lastTrick.winner ? h("span.crown", {}, " ★") : null,
        ),
      ),
    ),
    h("p.trick-caption", {}, `${ctx.name(lastTrick.winner)} took the trick.`),
  );
}
